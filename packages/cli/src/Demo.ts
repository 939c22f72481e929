/**
 * The main job, with no set-up: start the bundled reference service on 127.0.0.1 with a seeded
 * two-year history, read it back through @broker-history/client's full-history streams exactly as a
 * user would (master↔sub for every sub-account and the master's own transfers, and all deposits),
 * print what came back, and check it against the service's own data. `broker-history demo` and
 * `pnpm demo` (examples/src/demo.ts) both run this program.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as CliOptions from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
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
 * The demo's options from the environment: `DEMO_SEED` (42), `DEMO_TRANSFERS` (100000),
 * `DEMO_DEPOSITS` (20000), `DEMO_CONCURRENCY` (8).
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
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const config: Config.Config<Options> = Config.all({
  seed: Config.integer("DEMO_SEED").pipe(Config.withDefault(defaults.seed)),
  transfers: Config.integer("DEMO_TRANSFERS").pipe(Config.withDefault(defaults.transfers)),
  deposits: Config.integer("DEMO_DEPOSITS").pipe(Config.withDefault(defaults.deposits)),
  concurrency: Config.integer("DEMO_CONCURRENCY").pipe(Config.withDefault(defaults.concurrency))
})

/**
 * Starts the reference service with a seeded history, reads both histories through the client's
 * full-history streams, prints the summary on stdout, and fails with `DemoMismatch` when what came back
 * is not exactly the service's data.
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
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (options: Options) =>
  // Loaded only now: the program starts the reference service, which the other commands never load.
  Effect.flatMap(Effect.promise(() => import("./internal/DemoProgram.js")), (program) => program.run(options))

const optionalInteger = (name: string, env: string, fallback: number, text: string) =>
  CliOptions.integer(name).pipe(
    CliOptions.withDescription(`${text} (env ${env}, default ${fallback})`),
    CliOptions.optional,
    CliOptions.map(Option.getOrUndefined)
  )

/**
 * `broker-history demo`: `run` with flags over the `DEMO_*` variables over the defaults, its failure
 * reported as every command's.
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
  seed: optionalInteger("seed", "DEMO_SEED", defaults.seed, "seed of the generated history"),
  transfers: optionalInteger("transfers", "DEMO_TRANSFERS", defaults.transfers, "transfers to generate"),
  deposits: optionalInteger("deposits", "DEMO_DEPOSITS", defaults.deposits, "deposits to generate"),
  concurrency: optionalInteger("concurrency", "DEMO_CONCURRENCY", defaults.concurrency, "streams read at once"),
  verbose: CliOptions.boolean("verbose").pipe(
    CliOptions.withDescription("on failure, print the full cause after the one-line message (default off)")
  )
}, (flags) =>
  Effect.flatMap(config, (env) =>
    run({
      seed: flags.seed ?? env.seed,
      transfers: flags.transfers ?? env.transfers,
      deposits: flags.deposits ?? env.deposits,
      concurrency: flags.concurrency ?? env.concurrency
    })).pipe(ExitCode.report(flags.verbose))).pipe(Command.withDescription(
      "The main job with no set-up: start the reference service on 127.0.0.1 with a seeded two-year history, read both " +
        "full histories through the client (master↔sub for every sub-account, the master's own transfers, all deposits), " +
        "print what came back and check it against the service's data."
    ))
