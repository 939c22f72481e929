/**
 * Client overhead: the same pages of the page server read, in one run and alternating, by a raw
 * `undici.request` loop (the physical limit of this machine for this work), a raw `fetch` loop,
 * ccxt's MEXC client, `BrokerHistory.transferHistory` page calls and the `BrokerHistory.transfers`
 * stream. Each round runs every contender once (the starting contender rotates); the figures are
 * medians over rounds, and ratios are taken to the raw undici loop of the same round.
 *
 * @since 0.1.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import * as NodeSignature from "@broker-history/domain/NodeSignature"
import { ApiKeys } from "@broker-history/server"
import ccxt from "ccxt"
import type * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Undici from "undici"
import * as Measure from "./Measure.js"
import * as PageServer from "./PageServer.js"

/**
 * What a throughput run reads and how often.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const smoke: Throughput.Options = { pages: 20, rounds: 1, warmupPages: 5 }
 */
export interface Options {
  /** Pages of 500 records each contender reads per round (the issue asks for ≥ 2,000). */
  readonly pages: number
  readonly rounds: number
  /** Pages each contender reads once before the measured rounds (JIT warm-up). */
  readonly warmupPages: number
  /**
   * A round reads the pages in blocks of this many (default 500), every contender one block in turn
   * (the first rotating), so that all contenders read through the same stretch of time and a slow
   * spell of the machine falls on all of them, not on one.
   */
  readonly blockPages?: number | undefined
  /** Spacing of the dataset's records (ms). */
  readonly spacing?: number | undefined
  /** Only these contenders (default all). */
  readonly only?: ReadonlyArray<Name> | undefined
}

/**
 * The contenders, in the order.
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * Throughput.names[0] // "undici"
 */
export const names = ["undici", "fetch", "ccxt", "pageCalls", "stream"] as const

/**
 * A contender's name.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const n: Throughput.Name = "stream"
 */
export type Name = typeof names[number]

/** What each contender is, for the table. */
export const labels: Record<Name, string> = {
  undici: "raw undici.request + node:crypto + JSON.parse",
  fetch: "raw fetch + node:crypto + JSON.parse",
  ccxt: "ccxt mexc brokerPrivateGetSubAccountUniversalTransfer",
  pageCalls: "BrokerHistory.transferHistory page calls",
  stream: "BrokerHistory.transfers stream"
}

/**
 * One contender's reading of the dataset in one round.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const perPage = (s: Throughput.Sample) => s.wallMillis / s.pages
 */
export interface Sample {
  readonly name: Name
  readonly round: number
  readonly pages: number
  readonly records: number
  /** Requests the page server received for this reading. */
  readonly requests: number
  /** Requests that carried an API key header and a signature. */
  readonly signed: number
  readonly wallMillis: number
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
  readonly name: Name
  readonly label: string
  readonly pagesPerSecond: number
  readonly recordsPerSecond: number
  readonly cpuSecondsPerMillionRecords: number
  readonly requestsPerRound: number
  readonly ratioPagesPerSecond: number
  readonly ratioRecordsPerSecond: number
  /** CPU per record relative to raw undici (> 1: costs more CPU). */
  readonly ratioCpu: number
}

/**
 * The full result: raw samples and per-contender summaries.
 *
 * @example
 * import type { Throughput } from "@broker-history/bench"
 * const names = (r: Throughput.Result) => r.summaries.map((s) => s.name)
 */
export interface Result {
  readonly options: Options
  readonly shape: PageServer.Shape
  readonly samples: ReadonlyArray<Sample>
  readonly summaries: ReadonlyArray<Summary>
}

const key = ApiKeys.demo
const filters = "fromAccountType=SPOT&toAccountType=FUTURES"

/** The query the raw loops send for dataset page `k`: the same parameters, in the same order, as the client. */
const rawQuery = (shape: PageServer.Shape, k: number): string => {
  const [startTime, endTime] = PageServer.pageWindow(shape, k)
  const query =
    `${filters}&startTime=${startTime}&endTime=${endTime}&page=1&limit=${PageServer.pageSize}&timestamp=${Date.now()}`
  return `${query}&signature=${NodeSignature.hmacSha256Hex(key.secretKey, query)}`
}

const rawHeaders = { "X-MEXC-APIKEY": key.apiKey, "content-type": "application/json", accept: "application/json" }

/** Reads dataset pages `[from, to)` and returns the records read; one per contender. */
type Reader = (from: number, to: number) => Promise<number>

const makeReaders = async (
  server: PageServer.Running
): Promise<{ readers: Record<Name, Reader>; close: () => Promise<void> }> => {
  const shape = server.shape
  const url = server.baseUrl + PageServer.transferPath + "?"
  const dispatcher = new Undici.Agent({ keepAliveTimeout: 60_000 })
  /** Dataset page `k` as the query ccxt and the page calls send. */
  const pageQuery = (k: number) => {
    const [startTime, endTime] = PageServer.pageWindow(shape, k)
    return {
      fromAccountType: "SPOT",
      toAccountType: "FUTURES",
      startTime,
      endTime,
      page: 1,
      limit: PageServer.pageSize
    } as const
  }

  const undici: Reader = async (from, to) => {
    let records = 0
    for (let k = from; k < to; k++) {
      const response = await Undici.request(url + rawQuery(shape, k), { headers: rawHeaders, dispatcher })
      const body = JSON.parse(await response.body.text()) as ReadonlyArray<unknown>
      if (response.statusCode !== 200) throw new Error(`undici: status ${response.statusCode}`)
      records += body.length
    }
    return records
  }

  const fetchLoop: Reader = async (from, to) => {
    let records = 0
    for (let k = from; k < to; k++) {
      const response = await fetch(url + rawQuery(shape, k), { headers: rawHeaders })
      const body = JSON.parse(await response.text()) as ReadonlyArray<unknown>
      if (response.status !== 200) throw new Error(`fetch: status ${response.status}`)
      records += body.length
    }
    return records
  }

  const exchange = new ccxt.mexc({ apiKey: key.apiKey, secret: key.secretKey, enableRateLimit: false }) // The implicit broker methods build `urls.api.broker.private + "/" + path`.
  ;(exchange.urls as any).api.broker.private = server.baseUrl + "/api/v3/broker"
  const ccxtLoop: Reader = async (from, to) => {
    let records = 0
    for (let k = from; k < to; k++) {
      const body = await exchange.brokerPrivateGetSubAccountUniversalTransfer(pageQuery(k))
      records += (body as ReadonlyArray<unknown>).length
    }
    return records
  }

  const runtime = ManagedRuntime.make(BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl: server.baseUrl,
    apiKey: Redacted.make(key.apiKey),
    secretKey: Redacted.make(key.secretKey),
    // The budget never binds here: the service is local and the point is the client's own cost.
    rateLimit: { limit: 100_000, interval: "1 millis" }
  }))))
  const history = await runtime.runPromise(BrokerHistory.BrokerHistory)

  const pageCalls: Reader = (from, to) =>
    runtime.runPromise(Effect.gen(function*() {
      let records = 0
      for (let k = from; k < to; k++) {
        const page = yield* history.transferHistory(pageQuery(k))
        records += page.length
      }
      return records
    }))

  // One stream over the whole dataset per round, read a block at a time: the stream is lazy, so between
  // blocks it simply waits (no request), and it is not restarted (a restart would re-plan its first
  // window and re-learn the density at every block). A block ends at the first chunk that reaches its
  // share of records; the surplus counts toward the next block.
  let reading: {
    readonly pull: Effect.Effect<Chunk.Chunk<unknown>, Option.Option<unknown>>
    readonly scope: Scope.CloseableScope
    surplus: number
  } | undefined
  const openStream = async () => {
    if (reading !== undefined) await runtime.runPromise(Scope.close(reading.scope, Exit.void))
    const [since, until] = PageServer.range(shape)
    const scope = await runtime.runPromise(Scope.make())
    const pull = await runtime.runPromise(
      Scope.extend(
        Stream.toPull(history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", since, until })),
        scope
      )
    )
    reading = { pull, scope, surplus: 0 }
    return reading
  }
  const stream: Reader = async (from, to) => {
    const current = from === 0 || reading === undefined ? await openStream() : reading
    const wanted = (to - from) * PageServer.pageSize
    return runtime.runPromise(Effect.gen(function*() {
      let records = current.surplus
      while (records < wanted) {
        // The pull fails with None at the end of the stream, Some(error) on a failure.
        const chunk = yield* Effect.catchAll(
          current.pull,
          (end) => Option.isNone(end) ? Effect.succeed(undefined) : Effect.fail(end.value)
        )
        if (chunk === undefined) break
        records += chunk.length
      }
      current.surplus = Math.max(0, records - wanted)
      return records - current.surplus
    }))
  }

  return {
    readers: { undici, fetch: fetchLoop, ccxt: ccxtLoop, pageCalls, stream },
    close: async () => {
      if (reading !== undefined) await runtime.runPromise(Scope.close(reading.scope, Exit.void))
      await runtime.dispose()
      await dispatcher.close()
    }
  }
}

/**
 * Summarises samples: medians per contender, ratios to raw undici taken per round.
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * Throughput.summarize([]) // []
 */
export const summarize = (samples: ReadonlyArray<Sample>): ReadonlyArray<Summary> => {
  const pagesPerSecond = (s: Sample) => s.pages / (s.wallMillis / 1000)
  const recordsPerSecond = (s: Sample) => s.records / (s.wallMillis / 1000)
  const cpuPerMillion = (s: Sample) => (s.cpuMillis / 1000) / (s.records / 1_000_000)
  const present = names.filter((n) => samples.some((s) => s.name === n))
  return present.map((name) => {
    const mine = samples.filter((s) => s.name === name)
    const ratios = (f: (s: Sample) => number) =>
      Measure.median(mine.flatMap((s) => {
        const base = samples.find((b) => b.name === "undici" && b.round === s.round)
        return base === undefined ? [] : [f(s) / f(base)]
      }))
    return {
      name,
      label: labels[name],
      pagesPerSecond: Measure.median(mine.map(pagesPerSecond)),
      recordsPerSecond: Measure.median(mine.map(recordsPerSecond)),
      cpuSecondsPerMillionRecords: Measure.median(mine.map(cpuPerMillion)),
      requestsPerRound: Measure.median(mine.map((s) => s.requests)),
      ratioPagesPerSecond: ratios(pagesPerSecond),
      ratioRecordsPerSecond: ratios(recordsPerSecond),
      ratioCpu: ratios(cpuPerMillion)
    }
  })
}

/**
 * Runs the throughput benchmark against a fresh page server (a child process, always stopped).
 *
 * @example
 * import { Throughput } from "@broker-history/bench"
 * const result = await Throughput.run({ pages: 20, rounds: 1, warmupPages: 5 })
 */
export const run = async (options: Options, log: (line: string) => void = () => {}): Promise<Result> => {
  const shape: PageServer.Shape = {
    ...PageServer.defaultShape,
    pages: options.pages,
    spacing: options.spacing ?? PageServer.defaultShape.spacing
  }
  const server = await PageServer.spawn(shape)
  try {
    const { close, readers } = await makeReaders(server)
    try {
      const contenders = options.only ?? names
      for (const name of contenders) await readers[name](0, Math.min(options.warmupPages, options.pages))
      const block = Math.max(1, Math.min(options.pages, options.blockPages ?? 500))
      const samples: Array<Sample> = []
      for (let round = 0; round < options.rounds; round++) {
        const totals = new Map<
          Name,
          { records: number; requests: number; signed: number; wallMillis: number; cpuMillis: number }
        >(
          contenders.map((name) => [name, { records: 0, requests: 0, signed: 0, wallMillis: 0, cpuMillis: 0 }])
        )
        for (let from = 0, b = 0; from < options.pages; from += block, b++) {
          const to = Math.min(options.pages, from + block)
          for (let i = 0; i < contenders.length; i++) {
            const name = contenders[(round + b + i) % contenders.length]!
            await server.counts(true)
            // Each contender starts from a collected heap: the garbage of the one before is not its cost.
            Measure.collectGarbage()
            const { result: records, timing } = await Measure.timed(() => readers[name](from, to))
            const counts = await server.counts()
            const total = totals.get(name)!
            total.records += records
            total.requests += counts.requests
            total.signed += counts.signed
            total.wallMillis += timing.wallMillis
            total.cpuMillis += timing.cpuMillis
          }
        }
        for (const name of contenders) {
          const total = totals.get(name)!
          if (total.records !== options.pages * PageServer.pageSize) {
            throw new Error(`${name} read ${total.records} records, expected ${options.pages * PageServer.pageSize}`)
          }
          if (total.signed !== total.requests) throw new Error(`${name} sent unsigned requests`)
          samples.push({ name, round, pages: options.pages, ...total })
          log(
            `throughput round ${round + 1}/${options.rounds} ${name}: ${
              Measure.fixed(options.pages / (total.wallMillis / 1000), 0)
            } pages/s, ${total.requests} requests, cpu ${Measure.fixed(total.cpuMillis / 1000, 2)} s`
          )
        }
      }
      return { options, shape, samples, summaries: summarize(samples) }
    } finally {
      await close()
    }
  } finally {
    await server.stop()
  }
}
