/**
 * Rate-limit saturation, what decides speed against the real exchange: the reference service allows
 * R requests per second per key and adds a fixed latency to every answer; the full-history transfer
 * stream (concurrency 4) reads a history of many pages with the client's budget set to R per second,
 * then R per (1 s + a margin), then 2R and 4R per second (budgets above the service's limit, which the
 * client's adaptive rate must learn from the 429s), and R and 2R again with adaptation off. These runs
 * last ~10 s, so the learning of the first 429 weighs on them; a long history (by default 4 times as
 * many transfers, ~40 s of requests at R) is then read with 2R and 4R for the rate a long-running
 * application keeps.
 * Reported: achieved request rate / R, wall time against the bound (requests / R), the 429s and their
 * share of the requests, whether every `Retry-After` was obeyed (the retry of a refused request starts
 * no earlier than the answer plus `Retry-After`), and whether the stream equals the service's set.
 *
 * @since 0.1.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import type { Store } from "@broker-history/server"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as Path from "node:path"
import * as BudgetLog from "./BudgetLog.js"
import * as ServiceProcess from "./ServiceProcess.js"
import * as TempDir from "./TempDir.js"

/**
 * The setting of one saturation run.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const quick: Saturation.Options = { rate: 20, latencyMillis: 150, records: 2_000, limit: 100, concurrency: 4, marginMillis: 25 }
 */
export interface Options {
  /** R: the service's limit, requests per second per key. */
  readonly rate: number
  /** Latency the service adds to every answer. */
  readonly latencyMillis: number
  /** Transfers in the history (all on the streamed route). */
  readonly records: number
  /** Page size of the stream. */
  readonly limit: number
  /** Windows the stream fetches ahead. */
  readonly concurrency: number
  /** Margin added to the 1 s budget interval in the second run. */
  readonly marginMillis: number
  /** Transfers in the long history read with 2R and 4R after the other runs (default: 4 × `records`). */
  readonly longRecords?: number
  /**
   * The limiter shapes the service runs for the grid: every shape × budget R, 2R, 4R over the history
   * and over the long history (default: all three; `[]` skips the grid).
   */
  readonly shapes?: ReadonlyArray<Shape> | undefined
  /**
   * Writes every refusal the client's budget counted and every raise of its level to stderr, after
   * each run (default: whether the environment variable `BENCH_LOG_CUTS` is `1`).
   */
  readonly logCuts?: boolean
}

/**
 * How the service counts requests against its limit (`--rate-limit-shape`): per fixed window, in a
 * sliding window, or as a token bucket whose burst is the limit.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.shapes // ["fixed", "sliding", "tokenBucket"]
 */
export const shapes = ["fixed", "sliding", "tokenBucket"] as const

/**
 * One of `shapes`.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const shape: Saturation.Shape = "tokenBucket"
 */
export type Shape = (typeof shapes)[number]

/**
 * The grid's runs against one limiter shape and one history: budgets R, 2R and 4R per second.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const worst = (g: Saturation.ShapeRuns) => Math.min(...g.runs.map((r) => r.achievedOverRate))
 */
export interface ShapeRuns {
  readonly shape: Shape
  readonly history: "short" | "long"
  readonly runs: ReadonlyArray<Run>
}

/**
 * One request as the client's transport saw it.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const took = (e: Saturation.Exchange) => e.answered - e.started
 */
export interface Exchange {
  /** The request without timestamp and signature: equal for every attempt of one request. */
  readonly key: string
  readonly started: number
  readonly answered: number
  readonly status: number
  readonly retryAfter: string | undefined
}

/**
 * The outcome of one run with one budget.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const ok = (r: Saturation.Run) => r.achievedOverRate >= 0.95 && r.rateLimited === 0
 */
export interface Run {
  /** The client's budget, requests per interval. */
  readonly budget: number
  /** The client's budget interval: 1000 ms, or 1000 ms plus a safety margin. */
  readonly intervalMillis: number
  /** Whether the client's rate adapts to the 429s (`rateLimit.adaptive`). */
  readonly adaptive: boolean
  readonly requests: number
  readonly rateLimited: number
  /** 429s / requests. */
  readonly rateLimitedShare: number
  /** When each 429 was answered, ms after the first request started. */
  readonly rateLimitedAtMillis: ReadonlyArray<number>
  readonly wallMillis: number
  /** requests / R, in ms: no client can do better against this service. */
  readonly boundMillis: number
  readonly achievedRate: number
  readonly achievedOverRate: number
  /** 429s whose retry started before the answer's `Retry-After` had passed. */
  readonly retryAfterViolations: number
  readonly records: number
  readonly exact: boolean
  /** Every signed request in start order: start, answer (ms after the first start) and status. */
  readonly timeline: ReadonlyArray<{ readonly started: number; readonly answered: number; readonly status: number }>
}

/**
 * Every run of one setting.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const worst = (r: Saturation.Result) => Math.min(...r.runs.map((run) => run.achievedOverRate))
 */
export interface Result {
  readonly options: Options
  /** Budget R per 1 s. */
  readonly atRate: Run
  /** Budget R per (1 s + margin): requests spaced exactly one interval apart at the client arrive with jitter. */
  readonly atRateWithMargin: Run
  /** Budget 2R per 1 s: too high; the service answers 429 + Retry-After until the client learns its limit. */
  readonly atTwiceRate: Run
  /** Budget 4R per 1 s. */
  readonly atFourTimesRate: Run
  /** Budget 2R per 1 s with adaptation off: the fixed budget, for comparison. */
  readonly atTwiceRateFixed: Run
  /** Budget R per 1 s with adaptation off. */
  readonly atRateFixed: Run
  /** The six runs in the order above. */
  readonly runs: ReadonlyArray<Run>
  /** Budgets 2R and 4R per 1 s over the long history: the rate once the first 429 is far behind. */
  readonly long: { readonly atTwiceRate: Run; readonly atFourTimesRate: Run }
  /** Every limiter shape × history, budgets R, 2R and 4R. */
  readonly grid: ReadonlyArray<ShapeRuns>
}

const end = Date.UTC(2026, 0, 1)
const span = 30 * 86_400_000

/** Every row on the streamed route (master → master, SPOT → FUTURES), spread evenly over 30 days. */
const rows = (count: number, firstId = 50_000_000): Array<Store.TransferRow> =>
  Array.from({ length: count }, (_, i) => ({
    tranId: String(firstId + i),
    clientTranId: null,
    fromAccount: null,
    toAccount: null,
    asset: "USDT",
    amount: `${(i % 9_000) + 1}.${String(i % 100_000_000).padStart(8, "0")}`,
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    fromSymbol: "",
    toSymbol: "",
    status: "SUCCESS",
    timestamp: end - span + Math.floor((i + 1) * (span / (count + 1)))
  }))

const recordingTransport = (exchanges: Array<Exchange>): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.transform(client, (effect, request) =>
        Effect.suspend(() => {
          const started = Date.now()
          return Effect.tap(effect, (response) =>
            Effect.sync(() => {
              const key = request.url.split("&").filter((p) =>
                !p.startsWith("timestamp=") && !p.startsWith("signature=")
              ).join("&")
              exchanges.push({
                key,
                started,
                answered: Date.now(),
                status: response.status,
                retryAfter: response.headers["retry-after"]
              })
            }))
        })))
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** 429s whose next attempt (same request) started before `answered + Retry-After`. */
export const retryAfterViolations = (exchanges: ReadonlyArray<Exchange>, toleranceMillis = 5): number => {
  let violations = 0
  exchanges.forEach((e, i) => {
    if (e.status !== 429) return
    const wait = Number(e.retryAfter ?? "0") * 1000
    const next = exchanges.slice(i + 1).find((n) => n.key === e.key)
    if (next !== undefined && next.started < e.answered + wait - toleranceMillis) violations++
  })
  return violations
}

const runOnce = (
  options: Options,
  budget: number,
  intervalMillis: number,
  baseUrl: string,
  expected: ReadonlyArray<string>,
  adaptive = true
) =>
  Effect.gen(function*() {
    const exchanges: Array<Exchange> = []
    const events: Array<BudgetLog.Event> = []
    const logCuts = options.logCuts ?? process.env["BENCH_LOG_CUTS"] === "1"
    const context = yield* Layer.build(
      BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer({
        baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(ApiKeys.demo.secretKey),
        rateLimit: { limit: budget, interval: `${intervalMillis} millis`, adaptive }
      }))).pipe(Layer.provide(recordingTransport(exchanges)))
    )
    const history = Context.get(context, BrokerHistory.BrokerHistory)
    const out = yield* Stream.runCollect(history.transfers({
      fromAccountType: "SPOT",
      toAccountType: "FUTURES",
      since: end - span,
      until: end,
      limit: options.limit,
      concurrency: options.concurrency
    })).pipe(
      logCuts
        ? (effect) =>
          effect.pipe(
            Effect.provide(Logger.replace(Logger.defaultLogger, BudgetLog.logger(events))),
            Logger.withMinimumLogLevel(LogLevel.Debug)
          )
        : (effect) => effect
    )
    const ids = Chunk.toReadonlyArray(out).map((t) => t.tranId)
    const signed = exchanges.filter((e) => e.key.includes("/broker/"))
    const wallMillis = Math.max(...signed.map((e) => e.answered)) - Math.min(...signed.map((e) => e.started))
    const achievedRate = signed.length / (wallMillis / 1000)
    const first = Math.min(...signed.map((e) => e.started))
    const rateLimitedAtMillis = signed.filter((e) => e.status === 429).map((e) => e.answered - first)
    const rateLimited = rateLimitedAtMillis.length
    if (logCuts) {
      const lines = BudgetLog.describe(events, signed, intervalMillis, options.marginMillis)
      process.stderr.write(
        `saturation budget ${budget} per ${intervalMillis} ms, ${expected.length} transfers: the budget's refusals and raises\n` +
          (lines.length === 0 ? "  none\n" : lines.map((line) => `  ${line}\n`).join(""))
      )
    }
    return {
      budget,
      intervalMillis,
      adaptive,
      requests: signed.length,
      rateLimited,
      rateLimitedShare: rateLimited / signed.length,
      rateLimitedAtMillis,
      wallMillis,
      boundMillis: (signed.length / options.rate) * 1000,
      achievedRate,
      achievedOverRate: achievedRate / options.rate,
      retryAfterViolations: retryAfterViolations(signed),
      records: ids.length,
      exact: ids.length === expected.length && ids.every((id, i) => id === expected[i]),
      timeline: signed.map((e) => ({ started: e.started - first, answered: e.answered - first, status: e.status }))
        .sort((a, b) => a.started - b.started)
    } satisfies Run
  }).pipe(Effect.scoped)

/** The reference service in a child process serving `database` with R (counted as `shape`) and the added latency. */
const spawnService = (database: string, options: Options, shape: Shape = "sliding") =>
  ServiceProcess.spawn([
    "--rate-limit-shape",
    shape,
    "--database",
    database,
    "--transfers",
    "0",
    "--deposits",
    "0",
    "--rate-limit",
    String(options.rate),
    "--rate-window-ms",
    "1000",
    "--fault-latency-ms",
    String(options.latencyMillis)
  ])

/**
 * Writes the history into a SQLite file, starts the reference service on it in a child process,
 * runs the budget-R runs, and after each run waits for the service's window to clear before the next
 * (budgets R, R with a margin, 2R, 4R, then 2R and R with adaptation off); then the long history, on a
 * service of its own, with 2R and 4R.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(Saturation.run({ rate: 20, latencyMillis: 150, records: 2_000, limit: 100, concurrency: 4, marginMillis: 25 }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-bench-")
    const write = (database: string, data: ReadonlyArray<Store.TransferRow>) =>
      Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.store.insertTransfers(data)).pipe(
        Effect.provide(ReferenceServer.layer({ database }))
      )
    const database = Path.join(dir, "history.sqlite")
    const data = rows(options.records)
    yield* write(database, data)
    const { baseUrl } = yield* spawnService(database, options)
    const expected = data.map((r) => r.tranId)
    const describe = (run: Run) =>
      `saturation${
        run.records === options.records ? "" : ` long history (${run.records} transfers)`
      } budget ${run.budget} per ${run.intervalMillis} ms${
        run.adaptive ? "" : " (adaptation off)"
      }: ${run.requests} requests in ${(run.wallMillis / 1000).toFixed(1)} s (bound ${
        (run.boundMillis / 1000).toFixed(1)
      } s), achieved ${run.achievedRate.toFixed(2)}/s = ${
        run.achievedOverRate.toFixed(3)
      } R, ${run.rateLimited} x 429 (${(100 * run.rateLimitedShare).toFixed(1)} %${
        run.rateLimited === 0 ? "" : `, at ${run.rateLimitedAtMillis.map((t) => (t / 1000).toFixed(1)).join(" ")} s`
      }), ${
        run.retryAfterViolations === 0 ? "every Retry-After obeyed" : `${run.retryAfterViolations} Retry-After violated`
      }, ${run.exact ? "exact" : "NOT EXACT"}`
    // Between runs the service's sliding window empties, so each run starts from the same state.
    const atRate = yield* runOnce(options, options.rate, 1000, baseUrl, expected)
    log(describe(atRate))
    yield* Effect.sleep("1100 millis")
    const atRateWithMargin = yield* runOnce(options, options.rate, 1000 + options.marginMillis, baseUrl, expected)
    log(describe(atRateWithMargin))
    yield* Effect.sleep("1100 millis")
    const atTwiceRate = yield* runOnce(options, 2 * options.rate, 1000, baseUrl, expected)
    log(describe(atTwiceRate))
    yield* Effect.sleep("1100 millis")
    const atFourTimesRate = yield* runOnce(options, 4 * options.rate, 1000, baseUrl, expected)
    log(describe(atFourTimesRate))
    yield* Effect.sleep("1100 millis")
    const atTwiceRateFixed = yield* runOnce(options, 2 * options.rate, 1000, baseUrl, expected, false)
    log(describe(atTwiceRateFixed))
    yield* Effect.sleep("1100 millis")
    const atRateFixed = yield* runOnce(options, options.rate, 1000, baseUrl, expected, false)
    log(describe(atRateFixed))
    const runs = [atRate, atRateWithMargin, atTwiceRate, atFourTimesRate, atTwiceRateFixed, atRateFixed]
    // The long history is served by a service of its own, so the runs above are as they were without it.
    const longDatabase = Path.join(dir, "long.sqlite")
    const longData = rows(options.longRecords ?? 4 * options.records, 60_000_000)
    yield* write(longDatabase, longData)
    const longService = yield* spawnService(longDatabase, options)
    const longExpected = longData.map((r) => r.tranId)
    const longTwice = yield* runOnce(options, 2 * options.rate, 1000, longService.baseUrl, longExpected)
    log(describe(longTwice))
    yield* Effect.sleep("1100 millis")
    const longFour = yield* runOnce(options, 4 * options.rate, 1000, longService.baseUrl, longExpected)
    log(describe(longFour))
    const long = { atTwiceRate: longTwice, atFourTimesRate: longFour }
    // The grid: each shape on a service of its own, each run after the service's window has cleared.
    const grid: Array<ShapeRuns> = []
    for (const shape of options.shapes ?? shapes) {
      for (const [history, db, ids] of [["short", database, expected], ["long", longDatabase, longExpected]] as const) {
        const service = yield* spawnService(db, options, shape)
        const gridRuns: Array<Run> = []
        for (const factor of [1, 2, 4]) {
          yield* Effect.sleep("1100 millis")
          const run = yield* runOnce(options, factor * options.rate, 1000, service.baseUrl, ids)
          log(`${shape} limiter, ${describe(run)}`)
          gridRuns.push(run)
        }
        grid.push({ shape, history, runs: gridRuns })
      }
    }
    return {
      options,
      atRate,
      atRateWithMargin,
      atTwiceRate,
      atFourTimesRate,
      atTwiceRateFixed,
      atRateFixed,
      runs,
      long,
      grid
    }
  }).pipe(Effect.scoped)
