/**
 * The main job, with no set-up: start the bundled reference service on 127.0.0.1 with a seeded
 * two-year history, read it back through @broker-history/client's full-history streams exactly as a
 * user would (master↔sub for every sub-account and the master's own transfers, and all deposits),
 * print what came back, and check it against the service's own data. `broker-history demo` and
 * `pnpm demo` (examples/src/demo.ts) both run this program.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as CliOptions from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ExitCode from "./ExitCode.js"

/**
 * What the demo's streams returned was not exactly the service's data: a bug, reported with the output.
 *
 * @example
 * ```ts
 * import { Demo, ExitCode } from "@broker-history/cli"
 *
 * const mismatch = new Demo.DemoMismatch()
 * assert.strictEqual(mismatch._tag, "DemoMismatch")
 * assert.deepStrictEqual(ExitCode.describe(mismatch), {
 *   kind: "other",
 *   message: "unexpected failure (the demo's streams did not return exactly the service's data: this is a bug, please report the output); run again with --verbose and report the output"
 * })
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class DemoMismatch extends Data.TaggedError("DemoMismatch")<{}> {
  override get message(): string {
    return "the demo's streams did not return exactly the service's data: this is a bug, please report the output"
  }
}

/**
 * What the demo seeds (`seed`, `transfers`, `deposits`) and how many streams it reads at once.
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 * import { ConfigProvider, Effect } from "effect"
 *
 * const fromEnvironment: Demo.Options = Effect.runSync(
 *   Effect.withConfigProvider(Demo.config, ConfigProvider.fromMap(new Map([["DEMO_TRANSFERS", "1000"]])))
 * )
 * assert.deepStrictEqual(fromEnvironment, { seed: 42, transfers: 1000, deposits: 20000, concurrency: 8 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly seed: number
  readonly transfers: number
  readonly deposits: number
  readonly concurrency: number
}

/**
 * The demo's defaults: seed 42, 100000 transfers, 20000 deposits, 8 streams at once.
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(Demo.defaults, { seed: 42, transfers: 100_000, deposits: 20_000, concurrency: 8 })
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Options = { seed: 42, transfers: 100_000, deposits: 20_000, concurrency: 8 }

/**
 * The least value of each option: a seed from 0, at least one transfer, one deposit and one stream
 * at once (a demo over nothing would check nothing).
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(Demo.minimums, { seed: 0, transfers: 1, deposits: 1, concurrency: 1 })
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const minimums: Options = { seed: 0, transfers: 1, deposits: 1, concurrency: 1 }

const variables = {
  seed: "DEMO_SEED",
  transfers: "DEMO_TRANSFERS",
  deposits: "DEMO_DEPOSITS",
  concurrency: "DEMO_CONCURRENCY"
} as const

/** The first option below its minimum or not an integer, as an `InvalidData` at `name(option)`. */
const problem = (options: Options, name: (key: keyof Options) => string): ConfigError.ConfigError | undefined => {
  for (const key of ["seed", "transfers", "deposits", "concurrency"] as const) {
    const value = options[key]
    if (!Number.isSafeInteger(value) || value < minimums[key]) {
      return ConfigError.InvalidData([name(key)], `must be an integer >= ${minimums[key]}, got ${value}`)
    }
  }
  return undefined
}

/**
 * The demo's options from the environment: `DEMO_SEED` (42), `DEMO_TRANSFERS` (100000),
 * `DEMO_DEPOSITS` (20000), `DEMO_CONCURRENCY` (8), each an integer from its `minimums` value.
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 * import { ConfigProvider, Effect, Exit } from "effect"
 *
 * const read = (variables: ReadonlyArray<readonly [string, string]>) =>
 *   Effect.runSyncExit(Effect.withConfigProvider(Demo.config, ConfigProvider.fromMap(new Map(variables))))
 * assert.deepStrictEqual(read([["DEMO_SEED", "7"]]), Exit.succeed({ ...Demo.defaults, seed: 7 }))
 * assert.ok(Exit.isFailure(read([["DEMO_SEED", "seven"]])))
 * assert.ok(Exit.isFailure(read([["DEMO_TRANSFERS", "-5"]])))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const config: Config.Config<Options> = Config.all({
  seed: Config.integer(variables.seed).pipe(Config.withDefault(defaults.seed)),
  transfers: Config.integer(variables.transfers).pipe(Config.withDefault(defaults.transfers)),
  deposits: Config.integer(variables.deposits).pipe(Config.withDefault(defaults.deposits)),
  concurrency: Config.integer(variables.concurrency).pipe(Config.withDefault(defaults.concurrency))
}).pipe(Config.mapOrFail((options) => {
  const found = problem(options, (key) => variables[key])
  return found === undefined ? Either.right(options) : Either.left(found)
}))

/**
 * Starts the reference service with a seeded history, reads both histories through the client's
 * full-history streams, prints the summary on stdout, and fails with `DemoMismatch` when what came back
 * is not exactly the service's data. An option below its `minimums` value fails with a
 * `ConfigError` naming it before anything starts.
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 * import type { BrokerError } from "@broker-history/client"
 * import type { ReferenceServer } from "@broker-history/server"
 * import type { ConfigError } from "effect"
 * import { Console, Effect } from "effect"
 *
 * // A smaller demo (it reads 324 transfer streams and the deposits at the demo's 50 requests a second):
 * const small: Effect.Effect<
 *   void,
 *   ReferenceServer.StartError | BrokerError.BrokerError | ConfigError.ConfigError | Demo.DemoMismatch
 * > = Demo.run({ ...Demo.defaults, transfers: 1000, deposits: 200 })
 * const checked = small.pipe(Effect.catchTag("DemoMismatch", (mismatch) => Console.error(mismatch.message)))
 *
 * // No transfers: refused before anything starts.
 * const refused = await Effect.runPromise(Effect.flip(Demo.run({ ...Demo.defaults, transfers: 0 })))
 * assert.strictEqual(String(refused), "(Invalid data at transfers: \"must be an integer >= 1, got 0\")")
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (options: Options) =>
  Effect.suspend(() => {
    const found = problem(options, (key) => key)
    if (found !== undefined) return Effect.fail(found)
    // Loaded only now: the program starts the reference service, which the other commands never load.
    return Effect.flatMap(Effect.promise(() => import("./internal/DemoProgram.js")), (program) => program.run(options))
  })

const setting = (key: keyof Options, meaning: string) =>
  CommandLine.integerSetting(key, variables[key], { min: minimums[key] }, defaults[key], meaning)

/**
 * `broker-history demo`: `run` with flags over the `DEMO_*` variables over the defaults, each read as
 * the server's own settings are (an integer from its `minimums` value, or a usage error naming the
 * flag or the variable, exit 2, before anything starts), its failure reported as every command's.
 *
 * @example
 * ```ts
 * import { Demo } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Demo.command, CliConfig.defaultConfig))
 * assert.ok(help.includes("seed of the generated history (env DEMO_SEED, default 42)"))
 * assert.ok(help.includes("streams read at once (env DEMO_CONCURRENCY, default 8)"))
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("demo", {
  seed: setting("seed", "seed of the generated history"),
  transfers: setting("transfers", "transfers to generate"),
  deposits: setting("deposits", "deposits to generate"),
  concurrency: setting("concurrency", "streams read at once"),
  verbose: CliOptions.boolean("verbose").pipe(
    CliOptions.withDescription("on failure, print the full cause after the one-line message (default off)")
  )
}, ({ verbose, ...options }) =>
  run(options).pipe(
    Effect.onInterrupt(() => ExitCode.interrupted("the demo stopped before its check")),
    ExitCode.report(verbose)
  )).pipe(Command.withDescription(
    "The main job with no set-up: start the reference service on 127.0.0.1 with a seeded two-year history, read both " +
      "full histories through the client (master↔sub for every sub-account, the master's own transfers, all deposits), " +
      "print what came back and check it against the service's data."
  ))
