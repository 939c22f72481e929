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
 * What the streams returned was not exactly the service's data.
 *
 * @example
 * import { Demo } from "@broker-history/cli"
 * new Demo.DemoMismatch().message
 */
export class DemoMismatch extends Data.TaggedError("DemoMismatch")<{}> {
  override get message(): string {
    return "the demo's streams did not return exactly the service's data: this is a bug, please report the output"
  }
}

/**
 * What the demo seeds and how many streams it reads at once.
 *
 * @example
 * import type { Demo } from "@broker-history/cli"
 * const small: Demo.Options = { seed: 42, transfers: 1000, deposits: 200, concurrency: 8 }
 */
export interface Options {
  readonly seed: number
  readonly transfers: number
  readonly deposits: number
  readonly concurrency: number
}

/**
 * The defaults.
 *
 * @example
 * import { Demo } from "@broker-history/cli"
 * Demo.defaults.transfers // 100000
 */
export const defaults: Options = { seed: 42, transfers: 100_000, deposits: 20_000, concurrency: 8 }

/**
 * The options from the environment: `DEMO_SEED` (42), `DEMO_TRANSFERS` (100000), `DEMO_DEPOSITS`
 * (20000), `DEMO_CONCURRENCY` (8).
 *
 * @example
 * import { Demo } from "@broker-history/cli"
 * import { Effect } from "effect"
 * const options = Effect.runSync(Demo.config)
 */
export const config: Config.Config<Options> = Config.all({
  seed: Config.integer("DEMO_SEED").pipe(Config.withDefault(defaults.seed)),
  transfers: Config.integer("DEMO_TRANSFERS").pipe(Config.withDefault(defaults.transfers)),
  deposits: Config.integer("DEMO_DEPOSITS").pipe(Config.withDefault(defaults.deposits)),
  concurrency: Config.integer("DEMO_CONCURRENCY").pipe(Config.withDefault(defaults.concurrency))
})

/**
 * Seeds the service, reads both histories, prints the summary on stdout; fails when what came back
 * is not exactly the service's data.
 *
 * @example
 * import { Demo } from "@broker-history/cli"
 * import { Effect } from "effect"
 * Effect.runPromise(Demo.run({ ...Demo.defaults, transfers: 1000, deposits: 200 }))
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
 * `broker-history demo`.
 *
 * @example
 * import { Demo } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const root = Command.make("broker-history").pipe(Command.withSubcommands([Demo.command]))
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
