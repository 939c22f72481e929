/**
 * The full-history stream on a bursty history: two years of weeks, each quiet or busy, a busy week
 * holding `busyRatio` times the records of a quiet one. A local server answers the transfer-history
 * endpoint from the history (time window, page and limit, newest first, by binary search), and the
 * `BrokerHistory.transfers` stream reads the whole range; what is measured is how many requests the
 * stream's window planner spends against the fewest pages the records need, ⌈records / limit⌉.
 *
 * Two histories from the same weeks: records evenly spread inside each week (only the density
 * changes, at week boundaries) and records at random times inside each week (the density changes and
 * every window's count also scatters around what the density predicts).
 *
 * Beside the stream's count, two planners that know more than a client can, over the same history:
 * one that knows every window's count (the fewest requests any planner could make), and one that
 * knows the density everywhere but not the counts (what sizing windows from a density costs when
 * nothing has to be learnt: the scatter of counts alone).
 *
 * @since 0.2.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { Endpoint } from "@broker-history/domain"
import { ApiKeys } from "@broker-history/server"
import { Prng } from "@broker-history/testing/ServerInternals"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as Http from "node:http"

/**
 * The history and how it is read.
 *
 * @example
 * import type { Clustered } from "@broker-history/bench"
 * const tiny: Clustered.Options = { weeks: 8, quietPerWeek: 2, busyRatio: 1000, busyShare: 0.25, limit: 100, seed: 1 }
 */
export interface Options {
  readonly weeks: number
  /** Records in a quiet week. */
  readonly quietPerWeek: number
  /** A busy week holds this many times the records of a quiet one. */
  readonly busyRatio: number
  /** The share of busy weeks (each week drawn on its own). */
  readonly busyShare: number
  /** The stream's page size. */
  readonly limit: number
  readonly seed: number
}

/**
 * How records are placed inside a week.
 *
 * @example
 * import type { Clustered } from "@broker-history/bench"
 * const spreads: ReadonlyArray<Clustered.Spread> = ["steady", "random"]
 */
export type Spread = "steady" | "random"

/**
 * One reading of one history.
 *
 * @example
 * import type { Clustered } from "@broker-history/bench"
 * const overhead = (r: Clustered.Reading) => r.requests - r.ideal
 */
export interface Reading {
  readonly spread: Spread
  readonly records: number
  readonly busyWeeks: number
  readonly requests: number
  /** Answers that came back full (their window is narrowed and read again) or empty. */
  readonly fullPages: number
  readonly emptyPages: number
  /** ⌈records / limit⌉: the fewest pages the records need. */
  readonly ideal: number
  readonly ratio: number
  /** Requests of a planner that knew every window's count in advance (each window ends before its `limit`-th record). */
  readonly countsKnown: number
  /**
   * Requests of a planner that knew the density everywhere (each week's count over the week) but not
   * the counts: what sizing windows from a density costs when nothing has to be learnt.
   */
  readonly densityKnown: number
}

/**
 * What the part measured.
 *
 * @example
 * import type { Clustered } from "@broker-history/bench"
 * const worst = (r: Clustered.Result) => Math.max(...r.readings.map((x) => x.ratio))
 */
export interface Result {
  readonly options: Options
  readonly readings: ReadonlyArray<Reading>
}

const week = 7 * 86_400_000
/** The history starts here (2024-01-01T00:00:00Z). */
const origin = 1_704_067_200_000

/**
 * The record times of the history, ascending, and how many weeks are busy. The weeks (quiet or busy)
 * depend on the seed only, so both spreads have the same weeks.
 *
 * @example
 * import { Clustered } from "@broker-history/bench"
 * const { busyWeeks, times } = Clustered.history({ weeks: 4, quietPerWeek: 2, busyRatio: 10, busyShare: 0.5, limit: 10, seed: 1 }, "steady")
 */
export const history = (
  options: Options,
  spread: Spread
): { readonly times: Float64Array; readonly busyWeeks: number } => {
  const busy = busyWeeksOf(options)
  const counts = weekCounts(options, busy)
  const times = new Float64Array(counts.reduce((a, b) => a + b, 0))
  const within = Prng.mulberry32(options.seed + 1)
  let n = 0
  counts.forEach((count, w) => {
    const start = origin + w * week
    const from = n
    for (let i = 0; i < count; i++) {
      times[n++] = start + Math.floor(spread === "steady" ? (i + within()) * week / count : within() * week)
    }
    times.subarray(from, n).sort()
  })
  return { times, busyWeeks: busy.filter((b) => b).length }
}

/** Which weeks are busy (from the seed only). */
const busyWeeksOf = (options: Options): Array<boolean> => {
  const weeks = Prng.mulberry32(options.seed)
  return Array.from({ length: options.weeks }, () => weeks() < options.busyShare)
}

/** The records of each week. */
const weekCounts = (options: Options, busy: ReadonlyArray<boolean>): Array<number> =>
  busy.map((b) => b ? options.quietPerWeek * options.busyRatio : options.quietPerWeek)

/** The first index with `times[i] >= t`. */
const lowerBound = (times: Float64Array, t: number) => {
  let lo = 0
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (times[mid]! < t) lo = mid + 1
    else hi = mid
  }
  return lo
}

// The master's own SPOT → FUTURES transfers: what the walk queries (it refuses records outside its query).
const recordJson = (times: Float64Array, i: number) =>
  `{"tranId":"${10_000_000_000 + i}","clientTranId":null,"fromAccount":null,"toAccount":null,"asset":"USDT","amount":"${
    i % 1000
  }.50000000","fromAccountType":"SPOT","toAccountType":"FUTURES","fromSymbol":"","toSymbol":"","status":"SUCCESS","timestamp":${
    times[i]
  }}`

const integer = (text: string | null, fallback: number) => {
  const n = text === null ? Number.NaN : Number(text)
  return Number.isSafeInteger(n) ? n : fallback
}

/** Requests when every window's count is known: each window ends just before its `limit`-th record. */
const countsKnown = (times: Float64Array, limit: number, from: number, to: number): number => {
  let requests = 0
  for (let cursor = from; cursor <= to;) {
    const i = lowerBound(times, cursor) + limit - 1
    const end = i < times.length ? Math.max(cursor, times[i]! - 1) : to
    requests++
    cursor = end + 1
  }
  return requests
}

/**
 * Requests when the density is known everywhere but the counts are not: a window holds `fill × limit`
 * expected records; after a full page (newest first) its records are known, and the stretch before
 * them is counted at its mean plus `z` standard deviations of a Poisson count. The best of a grid of
 * fills and margins.
 */
const densityKnown = (options: Options, times: Float64Array, from: number, to: number): number => {
  const { limit } = options
  const counts = weekCounts(options, busyWeeksOf(options))
  const weekOf = (t: number) => Math.min(counts.length - 1, Math.floor((t - from) / week))
  const density = (t: number) => counts[weekOf(t)]! / week
  const weekEnd = (t: number) => from + (weekOf(t) + 1) * week - 1
  const expected = (a: number, b: number) => {
    let e = 0
    for (let x = a; x <= b;) {
      const y = Math.min(b, weekEnd(x))
      e += (y - x + 1) * density(x)
      x = y + 1
    }
    return e
  }
  const reach = (a: number, records: number) => {
    let left = records
    for (let x = a; x <= to;) {
      const room = (weekEnd(x) - x + 1) * density(x)
      if (room >= left) return x + Math.floor(left / density(x)) - 1
      left -= room
      x = weekEnd(x) + 1
    }
    return to
  }
  const plan = (fill: number, z: number) => {
    let requests = 0
    let known: Array<number> = []
    let knownTo = -1
    for (let cursor = from; cursor <= to;) {
      let end: number
      if (cursor <= knownTo) {
        const ahead = known.filter((t) => t >= cursor)
        const m = expected(cursor, ahead[0]! - 1)
        const room = limit - 1 - Math.ceil(m + z * Math.sqrt(m))
        if (room < ahead.length) end = ahead[Math.max(0, room)]! - 1
        else {
          const r = (-z + Math.sqrt(z * z + 4 * Math.max(0, limit - 1 - m - ahead.length))) / 2
          end = reach(knownTo + 1, r * r)
        }
      } else end = reach(cursor, fill * limit)
      end = Math.min(to, Math.max(cursor, end))
      const first = lowerBound(times, cursor)
      const last = lowerBound(times, end + 1)
      requests++
      if (last - first < limit || end === cursor) cursor = end + 1
      else {
        known = Array.from(times.subarray(last - limit, last))
        knownTo = end
      }
    }
    return requests
  }
  let best = Number.POSITIVE_INFINITY
  for (const fill of [0.86, 0.88, 0.9, 0.92, 0.94, 0.96, 0.98]) {
    for (const z of [1, 2]) best = Math.min(best, plan(fill, z))
  }
  return best
}

/** What the server answered. */
interface Counts {
  requests: number
  full: number
  empty: number
}

/** Serves the transfer-history endpoint over `times` on 127.0.0.1, counting answers; verifies nothing. */
const serve = (times: Float64Array): Promise<{ readonly server: Http.Server; readonly counts: Counts }> =>
  new Promise((resolve, reject) => {
    const counts: Counts = { requests: 0, full: 0, empty: 0 }
    const path = Endpoint.transferHistory.path
    const server = Http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1")
      if (url.pathname !== path) {
        response.writeHead(404, { "content-type": "application/json" })
        response.end("{\"code\":404,\"msg\":\"Not found.\"}")
        return
      }
      counts.requests++
      const params = url.searchParams
      const first = lowerBound(times, integer(params.get("startTime"), 0))
      const end = lowerBound(times, integer(params.get("endTime"), Number.MAX_SAFE_INTEGER) + 1)
      const limit = Math.max(1, integer(params.get("limit"), 500))
      const page = Math.max(1, integer(params.get("page"), 1))
      // Newest first, as the reference service answers.
      const parts: Array<string> = []
      for (let i = end - 1 - (page - 1) * limit; i >= first && parts.length < limit; i--) {
        parts.push(recordJson(times, i))
      }
      if (parts.length === limit) counts.full++
      if (parts.length === 0) counts.empty++
      const body = `[${parts.join(",")}]`
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
      response.end(body)
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve({ server, counts }))
  })

/** Reads one history with the transfers stream; fails unless every record came once, in order. */
const read = async (options: Options, spread: Spread): Promise<Reading> => {
  const { busyWeeks, times } = history(options, spread)
  const { counts, server } = await serve(times)
  const address = server.address() as { readonly port: number }
  const runtime = ManagedRuntime.make(BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl: `http://127.0.0.1:${address.port}`,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    rateLimit: { limit: 10_000, interval: "1 millis" }
  }))))
  try {
    const seen = await runtime.runPromise(Effect.flatMap(BrokerHistory.BrokerHistory, (h) =>
      h.transfers({
        fromAccountType: "SPOT",
        toAccountType: "FUTURES",
        since: origin,
        until: origin + options.weeks * week - 1,
        limit: options.limit
      }).pipe(
        Stream.runFold({ count: 0, last: Number.NEGATIVE_INFINITY, ordered: true }, (s, r) => ({
          count: s.count + 1,
          last: r.timestamp,
          ordered: s.ordered && r.timestamp >= s.last
        }))
      )))
    if (seen.count !== times.length || !seen.ordered) {
      throw new Error(`clustered (${spread}): read ${seen.count} of ${times.length} records, in order: ${seen.ordered}`)
    }
    const ideal = Math.ceil(times.length / options.limit)
    const until = origin + options.weeks * week - 1
    return {
      spread,
      records: times.length,
      busyWeeks,
      requests: counts.requests,
      fullPages: counts.full,
      emptyPages: counts.empty,
      ideal,
      ratio: counts.requests / ideal,
      countsKnown: countsKnown(times, options.limit, origin, until),
      densityKnown: densityKnown(options, times, origin, until)
    }
  } finally {
    await runtime.dispose()
    await new Promise((done) => server.close(done))
  }
}

/**
 * Reads both histories (steady and random weeks) and reports records, requests, ideal and ratio.
 *
 * @example
 * import { Clustered } from "@broker-history/bench"
 * const result = await Clustered.run({ weeks: 8, quietPerWeek: 2, busyRatio: 1000, busyShare: 0.25, limit: 100, seed: 1 })
 */
export const run = async (options: Options, log: (line: string) => void = () => {}): Promise<Result> => {
  const readings: Array<Reading> = []
  for (const spread of ["steady", "random"] as const) {
    const reading = await read(options, spread)
    log(
      `clustered (${spread} weeks): ${reading.records} records, ${reading.requests} requests (${reading.fullPages} full, ${reading.emptyPages} empty), ideal ${reading.ideal}, ratio ${
        reading.ratio.toFixed(3)
      }; counts known ${reading.countsKnown}, density known ${reading.densityKnown}`
    )
    readings.push(reading)
  }
  return { options, readings }
}

/**
 * The part's rows of the bench table, one per history.
 *
 * @example
 * import { Clustered } from "@broker-history/bench"
 * declare const result: Clustered.Result
 * const rows = Clustered.rows(result)
 */
export const rows = (result: Result): Array<[string, string, string]> =>
  result.readings.map((r) => [
    `clustered: ${result.options.weeks} weeks, busy ${result.options.busyRatio}x quiet, ${r.spread} inside weeks`,
    `${r.records} records, ${r.requests} requests (${r.fullPages} full, ${r.emptyPages} empty), ideal ${r.ideal} (limit ${result.options.limit}); knowing the counts ${r.countsKnown}, the density ${r.densityKnown}`,
    `${r.ratio.toFixed(3)} x ideal (target ≤ 1.15)`
  ])
