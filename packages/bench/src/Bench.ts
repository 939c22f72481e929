/**
 * The whole benchmark: throughput, memory, rate-limit saturation, the fault soak, the sync, the window
 * planner on a bursty history, the follow at scale, the whole broker's first sync, the CLI's start-up
 * and page decoding, one after the other, rendered as one table; the raw figures go to a JSON file (see
 * `main.ts`).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Os from "node:os"
import type * as Against from "./Against.js"
import * as Clustered from "./Clustered.js"
import * as Decoding from "./Decoding.js"
import * as Measure from "./Measure.js"
import * as Memory from "./Memory.js"
import * as MemoryAgainst from "./MemoryAgainst.js"
import * as Saturation from "./Saturation.js"
import * as Soak from "./Soak.js"
import * as SoakOutage from "./SoakOutage.js"
import * as Staleness from "./Staleness.js"
import * as StartupLatency from "./StartupLatency.js"
import * as SyncThroughput from "./SyncThroughput.js"
import * as Throughput from "./Throughput.js"
import * as WholeBroker from "./WholeBroker.js"

/**
 * Sizes of every part.
 *
 * @example
 * import { Bench } from "@broker-history/bench"
 * Bench.full.throughput.rounds // 7
 */
export interface Sizes {
  readonly throughput: Throughput.Options
  readonly memory: Memory.Options
  readonly saturation: Saturation.Options
  readonly soak: Soak.Options
  readonly sync: SyncThroughput.Options
  readonly clustered: Clustered.Options
  readonly staleness: Staleness.Options
  readonly broker: WholeBroker.Options
  readonly startup: StartupLatency.Options
  readonly decoding: Decoding.Options
}

/** What `pnpm bench` runs. */
export const full: Sizes = {
  throughput: { datasets: [{ kind: "short", pages: 2000 }, { kind: "long", pages: 400 }], rounds: 7, warmupPages: 200 },
  memory: { records: 1_000_000, checkpoint: 10_000, rounds: 3 },
  saturation: {
    rate: 20,
    latencyMillis: 150,
    records: 20_000,
    longRecords: 120_000,
    limit: 100,
    concurrency: 4,
    marginMillis: 25
  },
  soak: { ...Soak.ciOptions, seeds: 100, outage: SoakOutage.options },
  sync: {
    seed: 42,
    transfers: 100_000,
    deposits: 20_000,
    subAccounts: 40,
    rounds: 5,
    batchSize: 500,
    concurrency: 4,
    defaultBudget: true
  },
  clustered: { weeks: 104, quietPerWeek: 50, busyRatio: 1000, busyShare: 0.125, limit: 500, seed: 15 },
  staleness: {
    subAccounts: 1_000,
    rate: 20,
    scale: 4,
    minutes: 5,
    insertsPerSecond: 10,
    zipf: 3,
    seed: 14,
    history: 100_000,
    minIntervalMillis: 1_000,
    maxIntervalMillis: 300_000,
    settlementMillis: 2_000,
    concurrency: 16,
    marginMillis: 50,
    rounds: 2
  },
  broker: { seed: 22, subAccounts: 200, transfers: 20_000, deposits: 2_000, rate: 2_000 },
  startup: { rounds: 7, warmupRounds: 1, transfers: 200 },
  decoding: { rounds: 7, sizes: { transferPages: 40, depositPages: 20, brokenPages: 4 }, passes: 30, warmupPasses: 3 }
}

/** Tiny sizes: checks that the harness works (CI smoke test); the figures mean nothing. */
export const smoke: Sizes = {
  throughput: { datasets: [{ kind: "short", pages: 4 }, { kind: "long", pages: 2 }], rounds: 1, warmupPages: 1 },
  memory: { records: 20_000, checkpoint: 10_000, rounds: 1 },
  // The grid over the short history only: 18 runs, each after a clear window of the service.
  saturation: {
    rate: 50,
    latencyMillis: 20,
    records: 1_000,
    limit: 100,
    concurrency: 4,
    marginMillis: 25,
    histories: ["short"]
  },
  soak: { ...Soak.ciOptions, seeds: 2, concurrency: 2 },
  sync: {
    seed: 7,
    transfers: 600,
    deposits: 150,
    subAccounts: 2,
    rounds: 1,
    batchSize: 100,
    concurrency: 4,
    defaultBudget: false
  },
  clustered: { weeks: 8, quietPerWeek: 2, busyRatio: 1000, busyShare: 0.25, limit: 100, seed: 1 },
  staleness: {
    subAccounts: 5,
    rate: 20,
    scale: 2,
    minutes: 0.25,
    insertsPerSecond: 2,
    zipf: 1.5,
    seed: 1,
    history: 200,
    minIntervalMillis: 1_000,
    maxIntervalMillis: 8_000,
    settlementMillis: 2_000,
    concurrency: 4,
    marginMillis: 250,
    rounds: 1
  },
  broker: { seed: 1, subAccounts: 3, transfers: 200, deposits: 20, rate: 500 },
  startup: { rounds: 1, warmupRounds: 0, transfers: 50 },
  decoding: { rounds: 1, sizes: { transferPages: 1, depositPages: 1, brokenPages: 1 }, passes: 1, warmupPasses: 0 }
}

/**
 * The machine the figures come from.
 *
 * @example
 * import type { Bench } from "@broker-history/bench"
 * const where = (m: Bench.Machine) => `${m.cpus} x ${m.cpuModel}`
 */
export interface Machine {
  readonly date: string
  readonly node: string
  readonly platform: string
  readonly cpus: number
  readonly cpuModel: string
  readonly memoryGb: number
  readonly loadAverageAtStart: ReadonlyArray<number>
  readonly gcExposed: boolean
}

/**
 * Everything one run measured.
 *
 * @example
 * import type { Bench } from "@broker-history/bench"
 * const soakExact = (r: Bench.Results) => r.soak?.totals.exact
 */
export interface Results {
  readonly machine: Machine
  readonly sizes: Sizes
  readonly throughput?: Throughput.Result | undefined
  readonly memory?: Memory.Result | undefined
  readonly saturation?: Saturation.Result | undefined
  readonly soak?: Soak.Result | undefined
  readonly sync?: SyncThroughput.Result | undefined
  readonly clustered?: Clustered.Result | undefined
  readonly staleness?: Staleness.Result | undefined
  readonly broker?: WholeBroker.Result | undefined
  readonly startup?: StartupLatency.Result | undefined
  readonly decoding?: Decoding.Result | undefined
  /** `--against`: the other revision's copy, and its memory figures beside the current client's. */
  readonly against?: Against.Copy | undefined
  readonly memoryAgainst?: MemoryAgainst.MemoryVersus | undefined
}

/**
 * The parts of the benchmark.
 *
 * @example
 * import type { Bench } from "@broker-history/bench"
 * const parts: ReadonlyArray<Bench.Part> = ["throughput", "soak"]
 */
export type Part =
  | "throughput"
  | "memory"
  | "saturation"
  | "soak"
  | "sync"
  | "clustered"
  | "staleness"
  | "broker"
  | "startup"
  | "decoding"

/** Every part, in the order they run. */
export const parts: ReadonlyArray<Part> = [
  "throughput",
  "memory",
  "saturation",
  "soak",
  "sync",
  "clustered",
  "staleness",
  "broker",
  "startup",
  "decoding"
]

const machine = (): Machine => ({
  date: new Date().toISOString(),
  node: process.version,
  platform: `${Os.type()} ${Os.release()} ${Os.arch()}`,
  cpus: Os.cpus().length,
  cpuModel: Os.cpus()[0]?.model ?? "unknown",
  memoryGb: Math.round(Os.totalmem() / 1e9),
  loadAverageAtStart: Os.loadavg().map((l) => Math.round(l * 100) / 100),
  gcExposed: Measure.canCollectGarbage()
})

/**
 * Runs the chosen parts with the given sizes.
 *
 * @example
 * import { Bench } from "@broker-history/bench"
 * const results = await Bench.run(Bench.smoke, ["soak"])
 */
export const run = async (
  sizes: Sizes,
  only: ReadonlyArray<Part> = parts,
  log: (line: string) => void = () => {},
  against?: Against.Copy | undefined
): Promise<Results> => {
  const results: { -readonly [K in keyof Results]: Results[K] } = { machine: machine(), sizes, against }
  if (only.includes("throughput")) results.throughput = await Throughput.run({ ...sizes.throughput, against }, log)
  if (only.includes("memory")) results.memory = await Memory.run(sizes.memory, log)
  if (only.includes("memory") && against !== undefined) {
    results.memoryAgainst = await MemoryAgainst.memory(sizes.memory, against, log)
  }
  if (only.includes("saturation")) results.saturation = await Effect.runPromise(Saturation.run(sizes.saturation, log))
  if (only.includes("soak")) results.soak = await Effect.runPromise(Soak.run(sizes.soak, log))
  if (only.includes("sync")) results.sync = await Effect.runPromise(SyncThroughput.run(sizes.sync, log))
  if (only.includes("clustered")) results.clustered = await Clustered.run(sizes.clustered, log)
  if (only.includes("staleness")) results.staleness = await Effect.runPromise(Staleness.run(sizes.staleness, log))
  if (only.includes("broker")) results.broker = await Effect.runPromise(WholeBroker.run(sizes.broker, log))
  if (only.includes("startup")) results.startup = await Effect.runPromise(StartupLatency.run(sizes.startup, log))
  if (only.includes("decoding")) results.decoding = await Decoding.run({ ...sizes.decoding, against }, log)
  return results
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`

/**
 * The results as one table (markdown), rows in a fixed order.
 *
 * @example
 * import { Bench } from "@broker-history/bench"
 * declare const results: Bench.Results
 * console.log(Bench.table(results))
 */
export const table = (results: Results): string => {
  const rows: Array<[string, string, string]> = []
  for (const t of results.throughput?.tables ?? []) {
    const requests = (s: Throughput.Summary) =>
      s.requestsPerRound === t.shape.pages ? "" : `, ${s.requestsPerRound} requests`
    const dataset = `${t.shape.kind ?? "short"} records, ${Measure.fixed(t.pageBytes / 1000, 0)} KB/page`
    for (const s of t.summaries) {
      rows.push([
        `throughput (${dataset}): ${s.label}`,
        `${Measure.fixed(s.pagesPerSecond, 0)} pages/s, ${Measure.fixed(s.recordsPerSecond / 1000, 0)}k records/s, ${
          Measure.fixed(s.cpuSecondsPerMillionRecords, 2)
        } CPU s/M records${requests(s)}`,
        `${Measure.fixed(s.ratioRecordsPerSecond, 2)}x speed (rounds ${
          s.ratioRecordsPerSecondRange.map((r) => Measure.fixed(r, 2)).join("–")
        }), ${Measure.fixed(s.ratioCpu, 2)}x CPU`
      ])
    }
  }
  for (const t of results.throughput?.tables ?? []) {
    for (const v of t.versus ?? []) {
      const [now, old] = [v.name, v.against].map((n) => t.summaries.find((s) => s.name === n)!)
      const figures = (s: Throughput.Summary) =>
        `${Measure.fixed(s.recordsPerSecond / 1000, 0)}k records/s, ${
          Measure.fixed(s.cpuSecondsPerMillionRecords, 2)
        } CPU s/M`
      const range = (r: readonly [number, number]) => r.map((x) => Measure.fixed(x, 2)).join("–")
      rows.push([
        `throughput (${t.shape.kind ?? "short"} records): ${now!.label} vs ${old!.label}`,
        `${figures(now!)} vs ${figures(old!)}`,
        `${v.ratio} per round: ${Measure.fixed(v.speed, 2)}x speed (${range(v.speedRange)}), ${
          Measure.fixed(v.cpu, 2)
        }x CPU (${range(v.cpuRange)})`
      ])
    }
  }
  const m = results.memory
  if (m !== undefined) {
    rows.push([
      `memory: transfers stream, counted and dropped`,
      `+${mb(m.medianStreamAtCheckpoint)} at ${m.options.checkpoint.toLocaleString("en")}, +${
        mb(m.medianStreamAtEnd)
      } at ${m.options.records.toLocaleString("en")} records`,
      `drift ${mb(m.medianStreamAtEnd - m.medianStreamAtCheckpoint)}`
    ])
    rows.push([
      `memory: Stream.runCollect (buffering baseline)`,
      `+${mb(m.medianCollected)} for ${m.options.records.toLocaleString("en")} records`,
      ""
    ])
  }
  const mv = results.memoryAgainst
  if (mv !== undefined) {
    for (const [who, r] of [["current", mv.current], [`@${mv.rev}`, mv.against]] as const) {
      rows.push([
        `memory (own process, ${who}): transfers stream, counted and dropped`,
        `+${mb(r.medianStreamAtCheckpoint)} at ${r.options.checkpoint.toLocaleString("en")}, +${
          mb(r.medianStreamAtEnd)
        } at ${r.options.records.toLocaleString("en")} records; collect +${mb(r.medianCollected)}`,
        `drift ${mb(r.medianStreamAtEnd - r.medianStreamAtCheckpoint)}`
      ])
    }
  }
  const s = results.saturation
  if (s !== undefined) {
    const o = s.options
    const outcome = (run: Saturation.Run) =>
      `${run.requests} requests in ${(run.wallMillis / 1000).toFixed(1)} s, ${run.rateLimited} x 429 (${
        (100 * run.rateLimitedShare).toFixed(1)
      } % refused), ${
        run.retryAfterViolations === 0 ? "every Retry-After obeyed" : `${run.retryAfterViolations} Retry-After violated`
      }, ${run.exact ? "exact" : "NOT EXACT"}`
    const atService = (run: Saturation.Run) => `${run.achievedOverRate.toFixed(3)} x R at the service`
    // Outside the grid: the margin and the fixed budget (sliding window, short history, one stream).
    for (const run of s.runs) {
      rows.push([
        `saturation: R = ${o.rate}/s, +${o.latencyMillis} ms, sliding limiter, short history, budget ${run.budget} per ${run.intervalMillis} ms${
          run.adaptive ? "" : " (fixed)"
        }`,
        outcome(run),
        atService(run)
      ])
    }
    // Every limiter shape × history × streams × budget: the achieved rate and the share refused.
    for (const cell of s.grid) {
      rows.push([
        `saturation grid: ${cell.shape} limiter, ${cell.history} history (${
          cell.run.records.toLocaleString("en")
        } transfers), ${
          cell.streams === "one" ? "one stream" : `${cell.run.streams.length} streams`
        }, budget ${cell.factor}R (R = ${o.rate}/s)`,
        outcome(cell.run),
        atService(cell.run)
      ])
    }
  }
  const k = results.soak
  if (k !== undefined) {
    const faults = Object.entries(k.totals.faults).map(([name, n]) => `${name} ${n}`).join(", ")
    rows.push([
      `fault soak: ${k.seeds.length} seeds`,
      `${k.totals.requests} requests, ${k.totals.retries} retries, faults: ${faults}; ${k.totals.transfers} transfers + ${k.totals.deposits} deposits`,
      `${k.totals.exact}/${k.seeds.length} exact`
    ])
    if (k.outage !== undefined) {
      const o = k.outage
      rows.push([
        `fault soak: outage round (service down ${(o.outageMillis / 1000).toFixed(1)} s during a follow)`,
        `all ${o.added} records added during and after it stored ${
          (o.recoverMillis / 1000).toFixed(2)
        } s after the restart; ${o.records} records checked`,
        o.missing + o.extra + o.repeated === 0
          ? "exact: none lost, none repeated"
          : `${o.missing} missing, ${o.extra} extra, ${o.repeated} repeated`
      ])
    }
  }
  if (results.sync !== undefined) rows.push(...SyncThroughput.rows(results.sync))
  if (results.clustered !== undefined) rows.push(...Clustered.rows(results.clustered))
  if (results.staleness !== undefined) rows.push(...Staleness.rows(results.staleness))
  if (results.broker !== undefined) rows.push(...WholeBroker.rows(results.broker))
  if (results.startup !== undefined) rows.push(...StartupLatency.rows(results.startup))
  if (results.decoding !== undefined) rows.push(...Decoding.rows(results.decoding))
  const header: [string, string, string] = ["measure", "result", "vs raw undici / target"]
  const widths = [0, 1, 2].map((i) => Math.max(header[i]!.length, ...rows.map((r) => r[i]!.length)))
  const line = (r: ReadonlyArray<string>) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n")
}
