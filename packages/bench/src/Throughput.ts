/**
 * Client overhead: the same pages of the page server read by a raw `undici.request` loop (the
 * physical limit of this machine for this work), a raw `fetch` loop, ccxt's MEXC client,
 * `BrokerHistory.transferHistory` page calls and the `BrokerHistory.transfers` stream, each of the
 * last two on both lines of the client (Effect 3 and Effect 4).
 *
 * Every contender runs in a fresh Node process of its own (`ContenderMain.ts`), one per round and
 * contender, against one page server process per dataset: it warms up, collects garbage, then reads
 * every page of the dataset while its own wall and CPU time are taken. Within a round the contenders
 * run one after the other, the first rotating from round to round; the figures are medians over
 * rounds, and ratios are taken to the raw undici loop of the same round (and, for the Effect 4 line,
 * to the same contender on Effect 3 in the same round). Each dataset (short ASCII records, long
 * non-ASCII records) gets its own table.
 *
 * @since 0.1.0
 */
import * as Path from "node:path"
import type * as Against from "./Against.js"
import * as Built from "./Built.js"
import * as Contender from "./Contender.js"
import * as ContenderProcess from "./ContenderProcess.js"
import * as Measure from "./Measure.js"
import * as PageServer from "./PageServer.js"

/**
 * One dataset measured: its kind of record and its pages of 500 records.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const long: Throughput.Dataset = { kind: "long", pages: 400 }
 */
export interface Dataset {
  readonly kind: PageServer.Kind
  readonly pages: number
}

/**
 * What a throughput run reads and how often.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const smoke: Throughput.Options = { datasets: [{ kind: "short", pages: 4 }], rounds: 1, warmupPages: 2 }
 */
export interface Options {
  /** One table each; every contender reads every page of a dataset once per round. */
  readonly datasets: ReadonlyArray<Dataset>
  readonly rounds: number
  /** Pages each contender process reads before it is measured (JIT warm-up). */
  readonly warmupPages: number
  /** Spacing of the datasets' records (ms). */
  readonly spacing?: number | undefined
  /** Only these contenders (default all). */
  readonly only?: ReadonlyArray<Contender.Name> | undefined
  /**
   * When set, every contender process writes CPU profiles (`node --cpu-prof`) into
   * `<profileDir>/<kind>-<contender>-<round>/`; its main thread's is the file with thread id 0
   * (`CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile`).
   */
  readonly profileDir?: string | undefined
  /**
   * When set (`--against`), the page calls and the stream are also measured with the client of this
   * prepared copy of another revision, each in the same rounds and rotation as the others.
   */
  readonly against?: Against.Copy | undefined
}

/**
 * What a contender process is told to do (its command-line argument, as JSON).
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const job: Throughput.Job = {
 *   name: "undici", baseUrl: "http://127.0.0.1:1", shape: { pages: 4, start: 0, spacing: 1000 }, warmupPages: 2
 * }
 */
export interface Job {
  readonly name: Contender.AnyName
  readonly baseUrl: string
  readonly shape: PageServer.Shape
  readonly warmupPages: number
  /** The copy the `--against` contenders load their client from. */
  readonly against?: Against.Copy | undefined
}

/**
 * What a contender process says: `ready` after its warm-up, then `done` (or `failed`). The harness
 * answers `ready` with any message to start the measured reading.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const done: Throughput.Message = { type: "done", records: 500, wallMillis: 2, cpuMillis: 2 }
 */
export type Message =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly records: number; readonly wallMillis: number; readonly cpuMillis: number }
  | { readonly type: "failed"; readonly message: string }

/**
 * One contender's reading of a dataset in one round, in its own process.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const perPage = (s: Throughput.Sample) => s.wallMillis / s.pages
 */
export interface Sample {
  readonly name: Contender.AnyName
  readonly round: number
  /** Position in the round (0: first). */
  readonly order: number
  readonly pages: number
  readonly records: number
  /** Requests the page server received for this reading. */
  readonly requests: number
  /** Requests that carried an API key header and a signature. */
  readonly signed: number
  readonly wallMillis: number
  /** CPU time (user + system) of the contender's process during the reading. */
  readonly cpuMillis: number
}

/**
 * A contender's medians over the rounds, and the medians of its per-round ratios to raw undici.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const ok = (s: Throughput.Summary) => s.ratioRecordsPerSecond >= 0.9
 */
export interface Summary {
  readonly name: Contender.AnyName
  readonly label: string
  readonly pagesPerSecond: number
  readonly recordsPerSecond: number
  readonly cpuSecondsPerMillionRecords: number
  readonly requestsPerRound: number
  readonly ratioPagesPerSecond: number
  readonly ratioRecordsPerSecond: number
  /** Lowest and highest per-round ratio of records/s. */
  readonly ratioRecordsPerSecondRange: readonly [number, number]
  /** CPU per record relative to raw undici (> 1: costs more CPU). */
  readonly ratioCpu: number
}

/**
 * The figures of one dataset: raw samples and per-contender summaries.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const names = (t: Throughput.Table) => t.summaries.map((s) => s.name)
 */
export interface Table {
  readonly shape: PageServer.Shape
  /** Size of one full page's body. */
  readonly pageBytes: number
  readonly samples: ReadonlyArray<Sample>
  readonly summaries: ReadonlyArray<Summary>
  /**
   * The pairs of `Contender.pairs` that were both measured, round by round: the Effect 4 line against
   * the Effect 3 line, and with `--against` the current client against the other revision's.
   */
  readonly versus?: ReadonlyArray<Versus> | undefined
}

/**
 * One contender against another doing the same work (a pair of `Contender.pairs`: the Effect 4 line
 * against the Effect 3 line, or the current client against the client of another revision with
 * `--against`): medians over rounds of the ratio `name` / `against` in the same round, with the lowest
 * and highest round.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const faster = (v: Throughput.Versus) => v.speed >= 1
 */
export interface Versus {
  readonly name: Contender.Name
  readonly against: Contender.AnyName
  /** What the ratio is called in the tables (`Effect 4/Effect 3`, `current/old`). */
  readonly ratio: string
  /** records/s `name` / `against` (> 1: `name` is faster). */
  readonly speed: number
  readonly speedRange: readonly [number, number]
  /** CPU per record `name` / `against` (< 1: `name` costs less). */
  readonly cpu: number
  readonly cpuRange: readonly [number, number]
}

/**
 * The full result: one table per dataset.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const kinds = (r: Throughput.Result) => r.tables.map((t) => t.shape.kind)
 */
export interface Result {
  readonly options: Options
  readonly tables: ReadonlyArray<Table>
}

const pagesPerSecond = (s: Sample) => s.pages / (s.wallMillis / 1000)
const recordsPerSecond = (s: Sample) => s.records / (s.wallMillis / 1000)
const cpuPerMillion = (s: Sample) => (s.cpuMillis / 1000) / (s.records / 1_000_000)

/**
 * Summarises samples: medians per contender, ratios to raw undici taken per round.
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * Throughput.summarize([]) // []
 */
export const summarize = (samples: ReadonlyArray<Sample>, againstRev?: string): ReadonlyArray<Summary> => {
  const present = [...Contender.names, ...Contender.againstNames].filter((n) => samples.some((s) => s.name === n))
  return present.map((name) => {
    const mine = samples.filter((s) => s.name === name)
    const perRound = (f: (s: Sample) => number) =>
      mine.flatMap((s) => {
        const base = samples.find((b) => b.name === "undici" && b.round === s.round)
        return base === undefined ? [] : [f(s) / f(base)]
      })
    const speed = perRound(recordsPerSecond)
    return {
      name,
      label: Contender.labels[name] +
        (againstRev !== undefined && name in Contender.againstOf ? ` @${againstRev}` : ""),
      pagesPerSecond: Measure.median(mine.map(pagesPerSecond)),
      recordsPerSecond: Measure.median(mine.map(recordsPerSecond)),
      cpuSecondsPerMillionRecords: Measure.median(mine.map(cpuPerMillion)),
      requestsPerRound: Measure.median(mine.map((s) => s.requests)),
      ratioPagesPerSecond: Measure.median(perRound(pagesPerSecond)),
      ratioRecordsPerSecond: Measure.median(speed),
      ratioRecordsPerSecondRange: [Math.min(...speed), Math.max(...speed)],
      ratioCpu: Measure.median(perRound(cpuPerMillion))
    }
  })
}

/**
 * Compares the contenders of each pair of `Contender.pairs` that were both measured, round by round.
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * Throughput.versus([]) // []
 */
export const versus = (samples: ReadonlyArray<Sample>): ReadonlyArray<Versus> =>
  Contender.pairs.flatMap(({ against, name, ratio }) => {
    const pairs = samples.flatMap((s) => {
      const old = s.name === name ? samples.find((o) => o.name === against && o.round === s.round) : undefined
      return old === undefined ? [] : [[s, old] as const]
    })
    if (pairs.length === 0) return []
    const speeds = pairs.map(([s, old]) => recordsPerSecond(s) / recordsPerSecond(old))
    const cpus = pairs.map(([s, old]) => cpuPerMillion(s) / cpuPerMillion(old))
    return [{
      name,
      against,
      ratio,
      speed: Measure.median(speeds),
      speedRange: [Math.min(...speeds), Math.max(...speeds)] as const,
      cpu: Measure.median(cpus),
      cpuRange: [Math.min(...cpus), Math.max(...cpus)] as const
    }]
  })

/**
 * Forks one contender process, lets it warm up, and measures its reading of the whole dataset. The
 * page server's counters are zeroed between its warm-up and its reading. The process is killed if
 * anything goes wrong.
 */
const measureOne = (
  server: PageServer.Running,
  job: Job,
  profile: string | undefined
): Promise<{ records: number; requests: number; signed: number; wallMillis: number; cpuMillis: number }> =>
  new Promise((resolve, reject) => {
    const child = ContenderProcess.fork("ContenderMain.ts", job, profile)
    let outcome:
      | { records: number; requests: number; signed: number; wallMillis: number; cpuMillis: number }
      | undefined
    const fail = (error: Error) => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      reject(error)
    }
    child.once("error", fail)
    child.once("exit", (code, signal) => {
      if (outcome !== undefined) resolve(outcome)
      else fail(new Error(`contender ${job.name} exited before it finished (${code ?? signal})`))
    })
    child.on("message", (message: Message) => {
      switch (message.type) {
        case "ready":
          server.counts(true).then(() => child.send("go"), fail)
          return
        case "done":
          server.counts().then((counts) => {
            outcome = { ...message, requests: counts.requests, signed: counts.signed }
            // The child exits once it is disconnected; a profile is written on that exit.
            child.disconnect()
          }, fail)
          return
        case "failed":
          fail(new Error(`contender ${job.name} failed: ${message.message}`))
      }
    })
  })

/** The size of one full page's body, read once from the page server. */
const pageBytes = async (server: PageServer.Running): Promise<number> => {
  const [startTime, endTime] = PageServer.pageWindow(server.shape, 0)
  const response = await fetch(
    `${server.baseUrl}${PageServer.transferPath}?startTime=${startTime}&endTime=${endTime}&limit=${PageServer.pageSize}`
  )
  return (await response.arrayBuffer()).byteLength
}

const measureDataset = async (
  options: Options,
  dataset: Dataset,
  log: (line: string) => void
): Promise<Table> => {
  const shape: PageServer.Shape = {
    ...PageServer.defaultShape,
    pages: dataset.pages,
    spacing: options.spacing ?? PageServer.defaultShape.spacing,
    kind: dataset.kind
  }
  const server = await PageServer.spawn(shape)
  try {
    const bytes = await pageBytes(server)
    const current: ReadonlyArray<Contender.AnyName> = options.only ?? Contender.names
    const contenders = options.against === undefined
      ? current
      : [...current, ...Contender.againstNames.filter((a) => current.includes(Contender.againstOf[a]))]
    const expected = shape.pages * PageServer.pageSize
    const samples: Array<Sample> = []
    for (let round = 0; round < options.rounds; round++) {
      for (let order = 0; order < contenders.length; order++) {
        const name = contenders[(round + order) % contenders.length]!
        const job: Job = {
          name,
          baseUrl: server.baseUrl,
          shape,
          warmupPages: options.warmupPages,
          ...(name in Contender.againstOf ? { against: options.against } : {})
        }
        const profile = options.profileDir === undefined
          ? undefined
          : Path.join(options.profileDir, `${dataset.kind}-${name}-${round + 1}`)
        const measured = await measureOne(server, job, profile)
        if (measured.records !== expected) {
          throw new Error(`${name} read ${measured.records} records, expected ${expected}`)
        }
        if (measured.signed !== measured.requests) throw new Error(`${name} sent unsigned requests`)
        samples.push({ name, round, order, pages: shape.pages, ...measured })
        log(
          `throughput ${dataset.kind} round ${round + 1}/${options.rounds} ${name}: ${
            Measure.fixed(shape.pages / (measured.wallMillis / 1000), 0)
          } pages/s, ${measured.requests} requests, cpu ${Measure.fixed(measured.cpuMillis / 1000, 2)} s`
        )
      }
    }
    return {
      shape,
      pageBytes: bytes,
      samples,
      summaries: summarize(samples, options.against?.rev),
      versus: versus(samples)
    }
  } finally {
    await server.stop()
  }
}

/**
 * Runs the throughput benchmark: per dataset a fresh page server (a child process, always stopped)
 * and a fresh process per contender and round.
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * const result = await Throughput.run({ datasets: [{ kind: "short", pages: 4 }], rounds: 1, warmupPages: 2 })
 */
export const run = async (options: Options, log: (line: string) => void = () => {}): Promise<Result> => {
  Built.clients(Built.packagesDir)
  const tables: Array<Table> = []
  for (const dataset of options.datasets) tables.push(await measureDataset(options, dataset, log))
  return { options, tables }
}
