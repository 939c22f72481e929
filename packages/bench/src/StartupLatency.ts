/**
 * The CLI's start-up, as a user meets it: the time from spawning `broker-history transfers` (a small
 * export) to the service's receipt of the export's first signed request, with the compiled CLI as a
 * release installs it (`CompiledCli.installed`: its published bin, a bundle), against a target of
 * 500 ms. The reference service runs in this process and logs every request; its arrival is the log
 * line's time less the answer's duration, and the spawn time is taken just before the spawn, both
 * with this process's `Date.now`, so both ends are read on one clock. Beside it, for comparison: the first request of any kind (the
 * client asks the service's time first), the export's exit and `--help` (start to exit); and all of it
 * again with the compiled CLI started through the workspace's resolve hook (`CompiledCli.command`, as
 * the bench's other parts start it) and with the workspace's `bin/broker-history.mjs` (the sources
 * through tsx). Each round runs every way in turn; the first `warmupRounds` are not counted, so that
 * every counted round finds the disk cache and tsx's transform cache as a second start does.
 *
 * @since 0.2.0
 */
import { ReferenceServer } from "@broker-history/server"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as CliProcess from "./CliProcess.js"
import * as CompiledCli from "./CompiledCli.js"
import * as Measure from "./Measure.js"
import * as ServiceLog from "./ServiceLog.js"

/**
 * Rounds and the export's size.
 *
 * @example
 * import type * as StartupLatency from "@broker-history/bench/StartupLatency"
 * const options: StartupLatency.Options = { rounds: 7, warmupRounds: 1, transfers: 200 }
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  /** Counted rounds: each runs the export and `--help` in every way of starting the CLI. */
  readonly rounds: number
  /** Rounds run first and not counted. */
  readonly warmupRounds: number
  /** Transfers the service is seeded with (the export reads the master's SPOT → FUTURES ones). */
  readonly transfers: number
}

/**
 * The target of issue 25: the compiled CLI's first request within this many ms of its start.
 *
 * @example
 * import * as StartupLatency from "@broker-history/bench/StartupLatency"
 * StartupLatency.targetMillis // 500
 *
 * @since 0.2.0
 * @category models
 */
export const targetMillis = 500

/**
 * Samples in ms, with their median and range.
 *
 * @example
 * import type * as StartupLatency from "@broker-history/bench/StartupLatency"
 * const width = (s: StartupLatency.Spread) => s.max - s.min
 *
 * @since 0.2.0
 * @category models
 */
export interface Spread {
  readonly samples: ReadonlyArray<number>
  readonly median: number
  readonly min: number
  readonly max: number
}

/**
 * The median and range of `samples` (`NaN` for none).
 *
 * @example
 * import * as StartupLatency from "@broker-history/bench/StartupLatency"
 * StartupLatency.spread([310, 290, 450]) // { samples: [310, 290, 450], median: 310, min: 290, max: 450 }
 *
 * @since 0.2.0
 * @category measuring
 */
export const spread = (samples: ReadonlyArray<number>): Spread => ({
  samples,
  median: Measure.median(samples),
  min: samples.length === 0 ? Number.NaN : Math.min(...samples),
  max: samples.length === 0 ? Number.NaN : Math.max(...samples)
})

/**
 * One way of starting the CLI, measured over the counted rounds (ms after the spawn).
 *
 * @example
 * import type * as StartupLatency from "@broker-history/bench/StartupLatency"
 * const met = (t: StartupLatency.Timings) => t.firstSigned.median < 500
 *
 * @since 0.2.0
 * @category models
 */
export interface Timings {
  /** How the CLI was started (the `runs` of `CompiledCli`'s ways). */
  readonly runs: string
  /** Until the service received the export's first signed request. */
  readonly firstSigned: Spread
  /** Until the service received the export's first request of any kind. */
  readonly firstRequest: Spread
  /** Until the export exited. */
  readonly exit: Spread
  /** Until `broker-history --help` exited. */
  readonly help: Spread
}

/**
 * Every way of starting the CLI: compiled and installed (what the target is about), compiled through
 * the workspace's resolve hook, and the sources through tsx.
 *
 * @example
 * import type * as StartupLatency from "@broker-history/bench/StartupLatency"
 * const slower = (r: StartupLatency.Result) => r.sources.firstSigned.median / r.installed.firstSigned.median
 *
 * @since 0.2.0
 * @category models
 */
export interface Result {
  readonly options: Options
  readonly installed: Timings
  readonly hooked: Timings
  readonly sources: Timings
}

/** The export every round runs: the master's SPOT → FUTURES transfers of the last year. */
const exportArgs = ["transfers", "--from-account-type", "SPOT", "--to-account-type", "FUTURES"]

/** One round's figures of one way of starting the CLI. */
interface Sample {
  readonly firstSigned: number
  readonly firstRequest: number
  readonly exit: number
  readonly help: number
}

/**
 * Starts the reference service in this process (seeded with `transfers`, its request log kept), then
 * runs the rounds; fails when an export or `--help` fails, or when the service saw no signed request
 * of an export.
 *
 * @example
 * import * as StartupLatency from "@broker-history/bench/StartupLatency"
 * import { Effect } from "effect"
 * const median = Effect.runPromise(StartupLatency.run({ rounds: 1, warmupRounds: 0, transfers: 50 })).then(
 *   (result) => result.compiled.firstSigned.median
 * )
 *
 * @since 0.2.0
 * @category running
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, Error> => {
  // The service's request lines as its line logger writes them, timed by this process's clock.
  const requests: Array<{ readonly path: string; readonly arrivedAt: number }> = []
  const recorder = Logger.make(({ date, logLevel, message }) => {
    const text = Array.isArray(message) ? message.join(" ") : String(message)
    const parsed = ServiceLog.request(`${date.toISOString()} ${logLevel.label} ${text}`)
    if (parsed !== undefined) requests.push({ path: parsed.path, arrivedAt: parsed.arrivedAt })
  })
  return Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const ways = {
      installed: yield* CompiledCli.installed,
      hooked: yield* CompiledCli.command,
      sources: CompiledCli.sources
    }
    const command = (cli: ReadonlyArray<string>, args: ReadonlyArray<string>) =>
      Effect.flatMap(CliProcess.run(cli, server.baseUrl, args, 120_000), (run) =>
        run.code === 0
          ? Effect.succeed(run)
          : Effect.fail(
            new Error(`broker-history ${args.join(" ")} exited ${run.code}: ${run.stderr.trim().split("\n")[0]}`)
          ))
    const sample = (cli: { readonly args: ReadonlyArray<string>; readonly runs: string }) =>
      Effect.gen(function*() {
        requests.length = 0
        const exported = yield* command(cli.args, exportArgs)
        const seen = requests.filter((r) => r.arrivedAt >= exported.startedAt)
        const signed = seen.filter((r) => r.path.includes("/broker/"))
        if (signed.length === 0) {
          return yield* Effect.fail(
            new Error(`the service logged no signed request of the export with ${cli.runs}: ${exported.stderr.trim()}`)
          )
        }
        const help = yield* command(cli.args, ["--help"])
        return {
          firstSigned: Math.min(...signed.map((r) => r.arrivedAt)) - exported.startedAt,
          firstRequest: Math.min(...seen.map((r) => r.arrivedAt)) - exported.startedAt,
          exit: exported.wallMillis,
          help: help.wallMillis
        } satisfies Sample
      })
    const samples = { installed: [] as Array<Sample>, hooked: [] as Array<Sample>, sources: [] as Array<Sample> }
    for (let round = 0; round < options.warmupRounds + options.rounds; round++) {
      const counted = round >= options.warmupRounds
      for (const name of ["installed", "hooked", "sources"] as const) {
        const cli = ways[name]
        const s = yield* sample(cli)
        if (counted) samples[name].push(s)
        log(
          `start-up${counted ? "" : " (warm-up, not counted)"}, ${cli.runs}: first signed request ${
            Measure.fixed(s.firstSigned, 0)
          } ms after the spawn (first request ${Measure.fixed(s.firstRequest, 0)} ms), exit ${
            Measure.fixed(s.exit, 0)
          } ms; --help ${Measure.fixed(s.help, 0)} ms`
        )
      }
    }
    const timings = (runs: string, of: ReadonlyArray<Sample>): Timings => ({
      runs,
      firstSigned: spread(of.map((s) => s.firstSigned)),
      firstRequest: spread(of.map((s) => s.firstRequest)),
      exit: spread(of.map((s) => s.exit)),
      help: spread(of.map((s) => s.help))
    })
    return {
      options,
      installed: timings(ways.installed.runs, samples.installed),
      hooked: timings(ways.hooked.runs, samples.hooked),
      sources: timings(ways.sources.runs, samples.sources)
    } satisfies Result
  }).pipe(
    Effect.provide(ReferenceServer.layer({
      seed: { seed: 25, transfers: options.transfers, deposits: 0, subAccounts: 1 },
      logRequests: true,
      rateLimit: { limit: 10_000, window: "1 second" }
    })),
    Effect.provide(Logger.replace(Logger.defaultLogger, recorder)),
    Effect.scoped
  )
}

const ms = (s: Spread) =>
  `median ${Measure.fixed(s.median, 0)} ms (range ${Measure.fixed(s.min, 0)}–${Measure.fixed(s.max, 0)})`

/**
 * The rows of the benchmark's table: for each way of starting the CLI, its start to the export's first
 * request (the installed compiled CLI's against the target, the others against it) and its `--help`.
 *
 * @example
 * import * as StartupLatency from "@broker-history/bench/StartupLatency"
 * declare const result: StartupLatency.Result
 * StartupLatency.rows(result).length // 6
 *
 * @since 0.2.0
 * @category rendering
 */
export const rows = (result: Result): Array<[string, string, string]> => {
  const { hooked, installed, sources } = result
  const n = `${result.options.rounds} round${result.options.rounds === 1 ? "" : "s"}`
  const met = installed.firstSigned.median < targetMillis
  const ways: ReadonlyArray<readonly [string, Timings, string]> = [
    [
      "compiled CLI",
      installed,
      `target < ${targetMillis} ms: ${met ? "met" : "NOT met"}${
        installed.runs.startsWith("dist") ? "" : ` (not compiled: ${installed.runs})`
      }`
    ],
    ["compiled CLI through the workspace's resolve hook", hooked, ""],
    ["CLI through tsx (workspace bin)", sources, ""]
  ]
  return ways.flatMap(([who, t, target]): Array<[string, string, string]> => [
    [
      `start-up: ${who}, process start → first request (\`transfers\` export, ${n})`,
      `${ms(t.firstSigned)} to the first signed request; any request ${ms(t.firstRequest)}; exit ${ms(t.exit)}`,
      t === installed
        ? target
        : `${Measure.fixed(t.firstSigned.median / installed.firstSigned.median, 2)}x the installed compiled CLI's`
    ],
    [`start-up: ${who}, \`--help\`, process start → exit (${n})`, ms(t.help), ""]
  ])
}
