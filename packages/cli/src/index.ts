/**
 * `@broker-history/cli`: the `broker-history` command, as modules other programs can reuse.
 *
 * @since 0.1.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./Cli.js"

/**
 * The command tree.
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(Cli.hoistLogLevel(["node", "broker-history", "sync", "--log-level=debug"]), [
 *   "node",
 *   "broker-history",
 *   "--log-level=debug",
 *   "sync"
 * ])
 * ```
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"
/**
 * Flag values from known sets: account types, deposit statuses.
 *
 * @example
 * ```ts
 * import { Choices } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Choices.depositStatus("--status", "pending"), Either.right("4"))
 * ```
 *
 * @since 0.1.0
 */
export * as Choices from "./Choices.js"
/**
 * The client's settings as flags and variables.
 *
 * @example
 * ```ts
 * import { ClientOptions } from "@broker-history/cli"
 *
 * assert.ok(ClientOptions.flags.some((f) => f.flag === "api-key" && f.env === "BROKER_API_KEY"))
 * ```
 *
 * @since 0.1.0
 */
export * as ClientOptions from "./ClientOptions.js"
/**
 * CSV per RFC 4180, formulas neutralised.
 *
 * @example
 * ```ts
 * import { Csv } from "@broker-history/cli"
 *
 * assert.strictEqual(Csv.row(["1.5", "=SUM(A1)"]), "1.5,'=SUM(A1)\r\n")
 * ```
 *
 * @since 0.1.0
 */
export * as Csv from "./Csv.js"
/**
 * Exit codes and error sentences.
 *
 * @example
 * ```ts
 * import { ExitCode } from "@broker-history/cli"
 *
 * assert.strictEqual(ExitCode.codes.usage, 2)
 * ```
 *
 * @since 0.1.0
 */
export * as ExitCode from "./ExitCode.js"
/**
 * The transfers/deposits export commands.
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 *
 * assert.strictEqual(Export.depositColumns.length, 11)
 * ```
 *
 * @since 0.1.0
 */
export * as Export from "./Export.js"
/**
 * Stdout or file output with backpressure.
 *
 * @example
 * ```ts
 * import { Output } from "@broker-history/cli"
 *
 * assert.strictEqual(Output.layer("-"), Output.layerStdout)
 * ```
 *
 * @since 0.1.0
 */
export * as Output from "./Output.js"
/**
 * The progress line and summary.
 *
 * @example
 * ```ts
 * import { Progress } from "@broker-history/cli"
 *
 * const snapshot = { label: "sync", records: 2, latest: 0, elapsedMillis: 1000, requests: 1, retries: 0, rateLimitWaits: 0 }
 * assert.ok(Progress.summary(snapshot).startsWith("sync: 2 records in 1.0 s"))
 * ```
 *
 * @since 0.1.0
 */
export * as Progress from "./Progress.js"
/**
 * Dates and durations as typed on the command line.
 *
 * @example
 * ```ts
 * import { TimeText } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(TimeText.instant("1970-01-02", 0), Either.right(86_400_000))
 * ```
 *
 * @since 0.1.0
 */
export * as TimeText from "./TimeText.js"
/**
 * The `sync` command.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Sync.resetStreams(["all"]), Either.right("all"))
 * ```
 *
 * @since 0.1.0
 */
export * as Sync from "./Sync.js"
/**
 * The profiles file of `sync --profiles`: several broker keys in one database.
 *
 * @example
 * ```ts
 * import { Profiles } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * const text = "profiles:\n  - name: acme\n    apiKeyEnv: ACME_KEY\n    secretKeyEnv: ACME_SECRET\n"
 * assert.ok(Either.isRight(Profiles.parse(text, { ACME_KEY: "k", ACME_SECRET: "s" })))
 * ```
 *
 * @since 0.2.0
 */
export * as Profiles from "./Profiles.js"

/**
 * What a sync does once its flags are read: the streams read into the store, exactly.
 *
 * @example
 * ```ts
 * import type { SyncRun } from "@broker-history/cli"
 *
 * const nothing: SyncRun.Totals = { transfers: 0, deposits: 0, batches: 0 }
 * assert.strictEqual(nothing.batches, 0)
 * ```
 *
 * @since 0.1.0
 */
export * as SyncRun from "./SyncRun.js"

/**
 * The sentences of a sync's summary.
 *
 * @example
 * ```ts
 * import { SyncSummary } from "@broker-history/cli"
 *
 * assert.ok(SyncSummary.damagedSentence([{ stream: '["deposits"]', problem: "it is not JSON" }], 3).includes("--reset-stream"))
 * ```
 *
 * @since 0.1.0
 */
export * as SyncSummary from "./SyncSummary.js"
/**
 * Which streams a sync reads.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncPlan.transferStreams(SyncPlan.defaultPairs([]), ["SPOT", "FUTURES"]).length, 4)
 * ```
 *
 * @since 0.1.0
 */
export * as SyncPlan from "./SyncPlan.js"
/**
 * The sync database (SQLite or PostgreSQL).
 *
 * @example
 * ```ts
 * import { SyncStore } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncStore.describe("postgresql://sync:pw@db/history"), "postgresql://sync:***@db/history")
 * ```
 *
 * @since 0.1.0
 */
export * as SyncStore from "./SyncStore.js"
/**
 * The sync database's migrations.
 *
 * @example
 * ```ts
 * import { SyncMigrations } from "@broker-history/cli"
 *
 * assert.strictEqual(Object.keys(SyncMigrations.migrations).length, 3)
 * ```
 *
 * @since 0.1.0
 */
export * as SyncMigrations from "./SyncMigrations.js"
/**
 * The demo (the main job).
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 *
 * assert.strictEqual(Demo.defaults.transfers, 100_000)
 * ```
 *
 * @since 0.1.0
 */
export * as Demo from "./Demo.js"
/**
 * The `serve` command.
 *
 * @example
 * ```ts
 * import { Serve } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * assert.ok(HelpDoc.toAnsiText(Command.getHelp(Serve.command, CliConfig.defaultConfig)).includes("BROKER_SERVER_PORT"))
 * ```
 *
 * @since 0.1.0
 */
export * as Serve from "./Serve.js"
