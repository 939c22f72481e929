/**
 * Decoding pages with every field validated: the client's decoder (`Field.decoder`) against the
 * generic ways without it (per-field closures in a loop; `Schema.decodeUnknownEither` alone) and, with
 * `--against`, against the client's decoder of another revision. The pages (`DecodePages`) are
 * transfer pages of 500 records, deposit pages of 1,000 and transfer pages with one broken record.
 *
 * Every contender runs in a fresh Node process of its own (`DecodeMain.ts`), one per round and
 * contender: it builds the pages, checks its results once, warms up, then decodes every page of each
 * kind `passes` times after a full collection while its wall and CPU time are taken. Within a round
 * the contenders run one after the other, the first rotating from round to round; figures are medians
 * over rounds, and ratios of CPU time are taken to the client's decoder of the same round (the work is
 * one thread's computing: CPU time, unlike wall time, leaves out the time other programs on the
 * machine hold the core).
 *
 * @since 0.2.0
 */
import * as Path from "node:path"
import type * as Against from "./Against.js"
import * as Built from "./Built.js"
import * as ContenderProcess from "./ContenderProcess.js"
import * as DecodeContenders from "./DecodeContenders.js"
import * as DecodePages from "./DecodePages.js"
import * as Measure from "./Measure.js"

/**
 * The pages, how often each is decoded, and the rounds.
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const smoke: Decoding.Options = {
 *   rounds: 1, sizes: { transferPages: 1, depositPages: 1, brokenPages: 1 }, passes: 1, warmupPasses: 0
 * }
 *
 * @since 0.2.0
 * @category models
 */
export interface Options {
  readonly rounds: number
  readonly sizes: DecodePages.Sizes
  /** Times every page is decoded in the measured run. */
  readonly passes: number
  /** Times every page is decoded before (JIT warm-up). */
  readonly warmupPasses: number
  /** When set, every contender process writes CPU profiles into `<profileDir>/decoding-<name>-<round>/`. */
  readonly profileDir?: string | undefined
  /** When set (`--against`), the client's decoder of this prepared copy is measured too. */
  readonly against?: Against.Copy | undefined
}

/**
 * What a contender process is told to do (its command-line argument, as JSON).
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const job: Decoding.Job = {
 *   name: "schema", sizes: { transferPages: 1, depositPages: 1, brokenPages: 1 }, passes: 1, warmupPasses: 0
 * }
 *
 * @since 0.2.0
 * @category models
 */
export interface Job {
  readonly name: DecodeContenders.Name
  readonly sizes: DecodePages.Sizes
  readonly passes: number
  readonly warmupPasses: number
  readonly against?: Against.Copy | undefined
}

/**
 * One kind of page decoded in one process: the pages and records decoded (every pass counted) and the
 * wall and CPU time it took.
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const perRecord = (t: Decoding.Timing) => t.wallMillis / t.records
 *
 * @since 0.2.0
 * @category models
 */
export interface Timing {
  readonly kind: DecodePages.Kind
  readonly pages: number
  readonly records: number
  readonly wallMillis: number
  readonly cpuMillis: number
}

/**
 * What a contender process says: `ready` after its check and warm-up, then `done` (or `failed`).
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const done: Decoding.Message = { type: "done", timings: [] }
 *
 * @since 0.2.0
 * @category models
 */
export type Message =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly timings: ReadonlyArray<Timing> }
  | { readonly type: "failed"; readonly message: string }

/**
 * One contender's decoding of one kind of page in one round.
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const first = (s: Decoding.Sample) => s.order === 0
 *
 * @since 0.2.0
 * @category models
 */
export interface Sample extends Timing {
  readonly name: DecodeContenders.Name
  readonly round: number
  /** Position in the round (0: first). */
  readonly order: number
}

/**
 * A contender's medians over the rounds for one kind of page, and the median of its per-round ratio
 * of CPU time to the client's decoder's.
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const noLoss = (s: Decoding.Summary) => s.ratio <= 1.05
 *
 * @since 0.2.0
 * @category models
 */
export interface Summary {
  readonly name: DecodeContenders.Name
  readonly label: string
  readonly kind: DecodePages.Kind
  readonly recordsPerPage: number
  /** Wall time per record, ns. */
  readonly nanosPerRecord: number
  /** CPU time (user + system) per record, ns. */
  readonly cpuNanosPerRecord: number
  /** Wall time per page, µs. */
  readonly microsPerPage: number
  /** CPU time relative to the client's decoder's in the same round (> 1: costs more). */
  readonly ratio: number
  /** Lowest and highest per-round ratio. */
  readonly ratioRange: readonly [number, number]
}

/**
 * The full result.
 *
 * @example
 * import type * as Decoding from "@broker-history/bench/Decoding"
 * const names = (r: Decoding.Result) => r.summaries.map((s) => s.name)
 *
 * @since 0.2.0
 * @category models
 */
export interface Result {
  readonly options: Options
  readonly samples: ReadonlyArray<Sample>
  readonly summaries: ReadonlyArray<Summary>
}

const nanosPerRecord = (s: Timing) => s.wallMillis * 1e6 / s.records
const cpuNanosPerRecord = (s: Timing) => s.cpuMillis * 1e6 / s.records

/**
 * Summarises samples: per kind of page and contender, medians over rounds, ratios of CPU time to the
 * client's decoder's taken per round.
 *
 * @example
 * import * as Decoding from "@broker-history/bench/Decoding"
 * Decoding.summarize([]) // []
 *
 * @since 0.2.0
 * @category measuring
 */
export const summarize = (samples: ReadonlyArray<Sample>, againstRev?: string): ReadonlyArray<Summary> =>
  DecodePages.kinds.flatMap((kind) =>
    [...DecodeContenders.names, "against" as const].flatMap((name): Array<Summary> => {
      const mine = samples.filter((s) => s.kind === kind && s.name === name)
      if (mine.length === 0) return []
      const ratios = mine.flatMap((s) => {
        const base = samples.find((b) => b.kind === kind && b.name === "decoder" && b.round === s.round)
        return base === undefined ? [] : [cpuNanosPerRecord(s) / cpuNanosPerRecord(base)]
      })
      return [{
        name,
        label: DecodeContenders.labels[name] + (name === "against" ? ` @${againstRev ?? "?"}` : ""),
        kind,
        recordsPerPage: mine[0]!.records / mine[0]!.pages,
        nanosPerRecord: Measure.median(mine.map(nanosPerRecord)),
        cpuNanosPerRecord: Measure.median(mine.map(cpuNanosPerRecord)),
        microsPerPage: Measure.median(mine.map((s) => s.wallMillis * 1000 / s.pages)),
        ratio: Measure.median(ratios),
        ratioRange: [Math.min(...ratios), Math.max(...ratios)]
      }]
    })
  )

/** Forks one contender process, lets it check and warm up, and takes its timings; kills it on failure. */
const measureOne = (job: Job, profile: string | undefined): Promise<ReadonlyArray<Timing>> =>
  new Promise((resolve, reject) => {
    const child = ContenderProcess.fork("DecodeMain.ts", job, profile)
    let timings: ReadonlyArray<Timing> | undefined
    const fail = (error: Error) => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      reject(error)
    }
    child.once("error", fail)
    child.once("exit", (code, signal) => {
      if (timings !== undefined) resolve(timings)
      else fail(new Error(`decoding contender ${job.name} exited before it finished (${code ?? signal})`))
    })
    child.on("message", (message: Message) => {
      switch (message.type) {
        case "ready":
          child.send("go")
          return
        case "done":
          timings = message.timings
          // The child exits once it is disconnected; a profile is written on that exit.
          child.disconnect()
          return
        case "failed":
          fail(new Error(`decoding contender ${job.name} failed: ${message.message}`))
      }
    })
  })

/**
 * Runs the decoding part: a fresh process per contender and round.
 *
 * @example
 * import * as Decoding from "@broker-history/bench/Decoding"
 * const result = await Decoding.run({
 *   rounds: 1, sizes: { transferPages: 1, depositPages: 1, brokenPages: 1 }, passes: 1, warmupPasses: 0
 * })
 *
 * @since 0.2.0
 * @category running
 */
export const run = async (options: Options, log: (line: string) => void = () => {}): Promise<Result> => {
  Built.clients(Built.packagesDir)
  const contenders: ReadonlyArray<DecodeContenders.Name> = options.against === undefined
    ? DecodeContenders.names
    : [...DecodeContenders.names, "against"]
  const samples: Array<Sample> = []
  for (let round = 0; round < options.rounds; round++) {
    for (let order = 0; order < contenders.length; order++) {
      const name = contenders[(round + order) % contenders.length]!
      const job: Job = {
        name,
        sizes: options.sizes,
        passes: options.passes,
        warmupPasses: options.warmupPasses,
        ...(name === "against" ? { against: options.against } : {})
      }
      const profile = options.profileDir === undefined
        ? undefined
        : Path.join(options.profileDir, `decoding-${name}-${round + 1}`)
      const timings = await measureOne(job, profile)
      for (const timing of timings) samples.push({ ...timing, name, round, order })
      log(
        `decoding round ${round + 1}/${options.rounds} ${name}: ${
          timings.map((t) => `${t.kind} ${Measure.fixed(cpuNanosPerRecord(t), 0)} CPU ns/record`).join(", ")
        }`
      )
    }
  }
  return { options, samples, summaries: summarize(samples, options.against?.rev) }
}

/**
 * The rows of the benchmark's table: per kind of page, each contender's CPU and wall time per record
 * and page, and its ratio of CPU time to the client's decoder's.
 *
 * @example
 * import * as Decoding from "@broker-history/bench/Decoding"
 * declare const result: Decoding.Result
 * Decoding.rows(result).length // 9 (12 with --against)
 *
 * @since 0.2.0
 * @category rendering
 */
export const rows = (result: Result): Array<[string, string, string]> =>
  result.summaries.map((s) => [
    `decoding ${s.kind === "broken" ? "transfers" : s.kind} (${s.recordsPerPage} a page${
      s.kind === "broken" ? ", one record broken" : ""
    }): ${s.label}`,
    `CPU ${Measure.fixed(s.cpuNanosPerRecord, 0)} ns/record; wall ${Measure.fixed(s.nanosPerRecord, 0)} ns/record (${
      Measure.fixed(s.microsPerPage, 0)
    } µs/page)`,
    s.name === "decoder"
      ? ""
      : `${Measure.fixed(s.ratio, 2)}x the client's decoder's CPU (rounds ${
        s.ratioRange.map((r) => Measure.fixed(r, 2)).join("–")
      })`
  ])
