/**
 * The main job, with no set-up: start the bundled reference service on 127.0.0.1 with a seeded
 * two-year history, read it back through @broker-history/client's full-history streams exactly as a
 * user would (master↔sub for every sub-account and the master's own transfers, and all deposits),
 * print what came back, and check it against the service's own data. `broker-history demo` and
 * `pnpm demo` (examples/src/demo.ts) both run this program.
 *
 * @internal
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as CliOptions from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ExitCode from "../shared/ExitCode.js"
import type { Options } from "./Program.js"

/** The demo's defaults: seed 42, 100000 transfers, 20000 deposits, 8 streams at once. */
export const defaults: Options = { seed: 42, transfers: 100_000, deposits: 20_000, concurrency: 8 }

/**
 * The least value of each option: a seed from 0, at least one transfer, one deposit and one stream
 * at once (a demo over nothing would check nothing).
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
 */
export const run = (options: Options) =>
  Effect.suspend(() => {
    const found = problem(options, (key) => key)
    if (found !== undefined) return Effect.fail(found)
    // Loaded only now: the program starts the reference service, which the other commands never load.
    return Effect.flatMap(Effect.promise(() => import("./Program.js")), (program) => program.run(options))
  })

const setting = (key: keyof Options, meaning: string) =>
  CommandLine.integerSetting(key, variables[key], { min: minimums[key] }, defaults[key], meaning)

/**
 * `broker-history demo`: `run` with flags over the `DEMO_*` variables over the defaults, each read as
 * the server's own settings are (an integer from its `minimums` value, or a usage error naming the
 * flag or the variable, exit 2, before anything starts), its failure reported as every command's.
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
