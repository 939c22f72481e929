/**
 * `@broker-history/server`: the reference service of the broker history API, as modules other programs
 * can reuse.
 *
 * @since 0.1.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./Accounts.js"

/**
 * The master account's and the seeded sub-accounts' names.
 *
 * @example
 * ```ts
 * import { Accounts } from "@broker-history/server"
 *
 * assert.deepStrictEqual(Accounts.subAccountNames(1), ["sub001@broker.test"])
 * ```
 *
 * @since 0.1.0
 */
export * as Accounts from "./Accounts.js"
/**
 * The account types the service uses, with its spelling of the futures account.
 *
 * @example
 * ```ts
 * import { AccountTypes } from "@broker-history/server"
 *
 * assert.deepStrictEqual(AccountTypes.accepted("FUTURE"), ["SPOT", "FUTURE"])
 * ```
 *
 * @since 0.2.0
 */
export * as AccountTypes from "./AccountTypes.js"
/**
 * API keys, their secrets and permissions.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * assert.ok(Either.isRight(ApiKeys.parse("k1:s1:SPOT_DEPOSIT_READ")))
 * ```
 *
 * @since 0.1.0
 */
export * as ApiKeys from "./ApiKeys.js"
/**
 * The database schema as migrations.
 *
 * @example
 * ```ts
 * import { Migrations } from "@broker-history/server"
 *
 * assert.deepStrictEqual(Object.keys(Migrations.migrations)[0], "0001_create_tables")
 * ```
 *
 * @since 0.1.0
 */
export * as Migrations from "./Migrations.js"
/**
 * Seeded pseudo-random numbers.
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * assert.strictEqual(Prng.mulberry32(1)(), Prng.mulberry32(1)())
 * ```
 *
 * @since 0.1.0
 */
export * as Prng from "./Prng.js"
/**
 * The SQLite store of both histories and the API keys.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const counts = Effect.flatMap(Store.Store, (store) => store.counts).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * assert.deepStrictEqual(await Effect.runPromise(counts), { transfers: 0, deposits: 0 })
 * ```
 *
 * @since 0.1.0
 */
export * as Store from "./Store.js"
/**
 * Deterministic seeded histories.
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * assert.strictEqual(Seed.transfers({ seed: 1, transfers: 10, deposits: 0 }).length, 10)
 * ```
 *
 * @since 0.1.0
 */
export * as Seed from "./Seed.js"
/**
 * The signed-request checks: signature, timestamp, recvWindow, permission.
 *
 * @example
 * ```ts
 * import { Authentication } from "@broker-history/server"
 *
 * assert.ok(Authentication.signingParameters.includes("signature"))
 * ```
 *
 * @since 0.1.0
 */
export * as Authentication from "./Authentication.js"
/**
 * Fault injection switches and decisions.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * assert.strictEqual(Faults.decide(Faults.normalize({ drop: 1 }), 0.5), "drop")
 * ```
 *
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"
/**
 * Business parameters read into store filters and pages.
 *
 * @example
 * ```ts
 * import { HistoryQuery } from "@broker-history/server"
 *
 * assert.strictEqual(HistoryQuery.defaultMaxWindow.transfers, undefined)
 * ```
 *
 * @since 0.1.0
 */
export * as HistoryQuery from "./HistoryQuery.js"
/**
 * Pending transfers that settle later.
 *
 * @example
 * ```ts
 * import { PendingSettlement } from "@broker-history/server"
 *
 * assert.strictEqual(PendingSettlement.settledStatus("10000000001"), "SUCCESS")
 * ```
 *
 * @since 0.2.0
 */
export * as PendingSettlement from "./PendingSettlement.js"
/**
 * The per-key sliding-window rate limit.
 *
 * @example
 * ```ts
 * import { RateLimit } from "@broker-history/server"
 *
 * assert.deepStrictEqual(RateLimit.make(RateLimit.defaults).take("key", 0), { allowed: true })
 * ```
 *
 * @since 0.1.0
 */
export * as RateLimit from "./RateLimit.js"
/**
 * The query string as received.
 *
 * @example
 * ```ts
 * import { RawQuery } from "@broker-history/server"
 *
 * assert.strictEqual(RawQuery.parse("coin=US%44T")[0].value, "USDT")
 * ```
 *
 * @since 0.1.0
 */
export * as RawQuery from "./RawQuery.js"
/**
 * The reference service: HTTP endpoints over the store.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const baseUrl = Effect.map(ReferenceServer.ReferenceServer, (server) => server.baseUrl)
 * assert.match(await Effect.runPromise(Effect.provide(baseUrl, ReferenceServer.layer())), /^http:\/\/127\.0\.0\.1:\d+$/)
 * ```
 *
 * @since 0.1.0
 */
export * as ReferenceServer from "./ReferenceServer.js"
/**
 * The JSON shapes the service answers.
 *
 * @example
 * ```ts
 * import { WireFormat } from "@broker-history/server"
 *
 * assert.strictEqual(WireFormat.notFound.code, 404)
 * ```
 *
 * @since 0.1.0
 */
export * as WireFormat from "./WireFormat.js"
/**
 * The server program's flags and environment variables.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.isLoopback("localhost"), true)
 * ```
 *
 * @since 0.1.0
 */
export * as CommandLine from "./CommandLine.js"

/**
 * How a command-line program ends: the exit code of its outcome, and one line on stderr for a failure.
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 * import { Exit } from "effect"
 *
 * assert.strictEqual(ProgramExit.exitCode(Exit.void, { usage: 2, known: () => undefined, unexpected: () => 1 }), 0)
 * ```
 *
 * @since 0.2.0
 */
export * as ProgramExit from "./ProgramExit.js"
