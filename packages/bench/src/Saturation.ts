/**
 * Rate-limit saturation, what decides speed against the real exchange: the reference service allows
 * R requests per second per key and adds a fixed latency to every answer, and the client reads a
 * history of many pages through the transfer stream (concurrency 4 windows ahead).
 *
 * The grid (issue 25): every limiter shape the service runs (`--rate-limit-shape`: fixed windows,
 * a sliding window, a token bucket) × history (short, ~10 s of requests at R; long, ~60 s) × streams
 * (one stream over the whole history; or several, the history split over 4 account-type routes read
 * at once through one layer, so one shared budget) × the client's budget (R, 2R, 4R per second; above
 * R the client's adaptive rate must learn the limit from the 429s). Besides the grid, three runs of
 * the short history on the sliding window with one stream: budget R per (1 s + a margin), and 2R and R
 * with adaptation off. Each history and streams setting has a service of its own, and before each run
 * the service's window is left to clear, so every run starts from the same state.
 *
 * Reported per run: the rate achieved AT THE SERVICE, the requests it accepted (any status but 429
 * and 418) as they arrived, (accepted − 1) / the time from the first start to the last accepted
 * start (`atService`), against R;
 * the refused share, 429s / every signed request; the wall time (first start to last answer); whether
 * every `Retry-After` was obeyed (the retry of a refused request starts no earlier than the answer plus
 * `Retry-After`); and whether each stream equals the service's records of its route, in order.
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
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** R: the service's limit, requests per second per key. */
  readonly rate: number
  /** Latency the service adds to every answer. */
  readonly latencyMillis: number
  /** Transfers in the short history. */
  readonly records: number
  /** Page size of the stream. */
  readonly limit: number
  /** Windows each stream fetches ahead. */
  readonly concurrency: number
  /** Margin added to the 1 s budget interval in the margin run. */
  readonly marginMillis: number
  /** Transfers in the long history (default: 6 × `records`). */
  readonly longRecords?: number
  /** The limiter shapes of the grid (default: all three; `[]` skips the grid). */
  readonly shapes?: ReadonlyArray<Shape> | undefined
  /** The histories of the grid (default: both). */
  readonly histories?: ReadonlyArray<History> | undefined
  /** How the grid reads each history (default: one stream, then several). */
  readonly streams?: ReadonlyArray<Streaming> | undefined
  /** The grid's budgets, as multiples of R (default: `factors`). */
  readonly factors?: ReadonlyArray<number> | undefined
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
 *
 * @since 0.2.0
 * @category grid
 */
export const shapes = ["fixed", "sliding", "tokenBucket"] as const

/**
 * One of `shapes`.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const shape: Saturation.Shape = "tokenBucket"
 *
 * @since 0.2.0
 * @category grid
 */
export type Shape = (typeof shapes)[number]

/**
 * The histories of the grid: `short` (`records` transfers, ~10 s of requests at R in `pnpm bench`) and
 * `long` (`longRecords`, ~60 s).
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.histories // ["short", "long"]
 *
 * @since 0.2.0
 * @category grid
 */
export const histories = ["short", "long"] as const

/**
 * One of `histories`.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const history: Saturation.History = "long"
 *
 * @since 0.2.0
 * @category grid
 */
export type History = (typeof histories)[number]

/**
 * How the grid reads a history: `one` stream over the whole history, or `several` streams at once
 * through one layer (one shared budget), one per route of `routes`, the history split evenly over
 * them.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.streamings // ["one", "several"]
 *
 * @since 0.2.0
 * @category grid
 */
export const streamings = ["one", "several"] as const

/**
 * One of `streamings`.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const streams: Saturation.Streaming = "several"
 *
 * @since 0.2.0
 * @category grid
 */
export type Streaming = (typeof streamings)[number]

/**
 * The client's budgets of the grid, as multiples of R.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.factors // [1, 2, 4]
 *
 * @since 0.2.0
 * @category grid
 */
export const factors = [1, 2, 4] as const

/**
 * A route of the history: the master account's transfers between two account types (the reference
 * service accepts SPOT and FUTURES on either side).
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const route: Saturation.Route = { fromAccountType: "SPOT", toAccountType: "FUTURES" }
 *
 * @since 0.2.0
 * @category grid
 */
export interface Route {
  readonly fromAccountType: string
  readonly toAccountType: string
}

/**
 * The routes the `several` streams read, one stream each; `one` stream reads the first alone.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.routes.length // 4
 *
 * @since 0.2.0
 * @category grid
 */
export const routes: ReadonlyArray<Route> = [
  { fromAccountType: "SPOT", toAccountType: "FUTURES" },
  { fromAccountType: "FUTURES", toAccountType: "SPOT" },
  { fromAccountType: "SPOT", toAccountType: "SPOT" },
  { fromAccountType: "FUTURES", toAccountType: "FUTURES" }
]

/**
 * One request as the client's transport saw it.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const took = (e: Saturation.Exchange) => e.answered - e.started
 *
 * @since 0.2.0
 * @category models
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
 * One stream of a run: its route, the records it emitted and whether they are the service's records
 * of that route, each once, in order.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const label = (s: Saturation.StreamOutcome) => `${s.route.fromAccountType}→${s.route.toAccountType}`
 *
 * @since 0.2.0
 * @category models
 */
export interface StreamOutcome {
  readonly route: Route
  readonly records: number
  readonly exact: boolean
}

/**
 * The outcome of one run with one budget.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const ok = (r: Saturation.Run) => r.achievedOverRate >= 0.95 && r.rateLimitedShare <= 0.01
 *
 * @since 0.1.0
 * @category models
 */
export interface Run {
  /** The client's budget, requests per interval. */
  readonly budget: number
  /** The client's budget interval: 1000 ms, or 1000 ms plus a safety margin. */
  readonly intervalMillis: number
  /** Whether the client's rate adapts to the 429s (`rateLimit.adaptive`). */
  readonly adaptive: boolean
  /** Signed requests, every attempt counted. */
  readonly requests: number
  /** Of them, the ones the service accepted: any status but 429 and 418. */
  readonly accepted: number
  readonly rateLimited: number
  /** The refused share: 429s / requests. */
  readonly rateLimitedShare: number
  /** When each 429 was answered, ms after the first request started. */
  readonly rateLimitedAtMillis: ReadonlyArray<number>
  /** From the first request's start to the last answer. */
  readonly wallMillis: number
  /** From the first request's start to the last accepted request's start. */
  readonly acceptedMillis: number
  /** accepted / R, in ms: the time the service's limit allows for what it accepted. */
  readonly boundMillis: number
  /** The rate achieved at the service: accepted / `acceptedMillis`, per second. */
  readonly achievedRate: number
  readonly achievedOverRate: number
  /** 429s whose retry started before the answer's `Retry-After` had passed. */
  readonly retryAfterViolations: number
  /** Records emitted by every stream. */
  readonly records: number
  /** Whether every stream is exact. */
  readonly exact: boolean
  readonly streams: ReadonlyArray<StreamOutcome>
  /** Every signed request in start order: start, answer (ms after the first start) and status. */
  readonly timeline: ReadonlyArray<{ readonly started: number; readonly answered: number; readonly status: number }>
}

/**
 * One cell of the grid: a limiter shape, a history, one or several streams and a budget (`factor` × R
 * per second), and its run.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const worst = (cells: ReadonlyArray<Saturation.Cell>) => Math.min(...cells.map((c) => c.run.achievedOverRate))
 *
 * @since 0.2.0
 * @category models
 */
export interface Cell {
  readonly shape: Shape
  readonly history: History
  readonly streams: Streaming
  readonly factor: number
  readonly run: Run
}

/**
 * Every run of one setting.
 *
 * @example
 * import type { Saturation } from "@broker-history/bench"
 * const worst = (r: Saturation.Result) => Math.min(...r.grid.map((cell) => cell.run.achievedOverRate))
 *
 * @since 0.1.0
 * @category models
 */
export interface Result {
  readonly options: Options
  /** Budget R per (1 s + margin): requests spaced exactly one interval apart at the client arrive with jitter. */
  readonly atRateWithMargin: Run
  /** Budget 2R per 1 s with adaptation off: the fixed budget, for comparison. */
  readonly atTwiceRateFixed: Run
  /** Budget R per 1 s with adaptation off. */
  readonly atRateFixed: Run
  /** The three runs above, in that order (sliding window, short history, one stream). */
  readonly runs: ReadonlyArray<Run>
  /** Shape × history × streams × budget, in that nesting order. */
  readonly grid: ReadonlyArray<Cell>
}

const end = Date.UTC(2026, 0, 1)
const span = 30 * 86_400_000

/**
 * `count` rows spread evenly over 30 days, each on the master account; row `i` on route
 * `i % on.length`, so each route's rows spread over the whole range too.
 */
const rows = (count: number, firstId: number, on: ReadonlyArray<Route>): Array<Store.TransferRow> =>
  Array.from({ length: count }, (_, i) => ({
    tranId: String(firstId + i),
    clientTranId: null,
    fromAccount: null,
    toAccount: null,
    asset: "USDT",
    amount: `${(i % 9_000) + 1}.${String(i % 100_000_000).padStart(8, "0")}`,
    fromAccountType: on[i % on.length]!.fromAccountType,
    toAccountType: on[i % on.length]!.toAccountType,
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

/**
 * 429s whose next attempt (same request) started before `answered + Retry-After`.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * Saturation.retryAfterViolations([
 *   { key: "a", started: 0, answered: 100, status: 429, retryAfter: "1" },
 *   { key: "a", started: 600, answered: 700, status: 200, retryAfter: undefined }
 * ]) // 1
 *
 * @since 0.2.0
 * @category measuring
 */
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

/**
 * The rate a run achieved at the service: the requests it accepted (any status but 429 and 418) as
 * they arrived there, that is the gaps between the first request and the last accepted one (each
 * arrives as it starts, on loopback; the answer comes back a latency later): (accepted − 1) over the
 * time from the first start to the last accepted start, per second. With the refused share (429s /
 * every request) and the wall time (first start to last answer).
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * const rate = Saturation.atService([
 *   { started: 0, answered: 150, status: 200 },
 *   { started: 500, answered: 650, status: 429 },
 *   { started: 1000, answered: 1150, status: 200 },
 *   { started: 1600, answered: 2100, status: 429 }
 * ])
 * // { requests: 4, accepted: 2, rateLimited: 2, rateLimitedShare: 0.5, wallMillis: 2100, acceptedMillis: 1000, achievedRate: 1 }
 *
 * @since 0.2.0
 * @category measuring
 */
export const atService = (
  signed: ReadonlyArray<{ readonly started: number; readonly answered: number; readonly status: number }>
): {
  readonly requests: number
  readonly accepted: number
  readonly rateLimited: number
  readonly rateLimitedShare: number
  readonly wallMillis: number
  readonly acceptedMillis: number
  readonly achievedRate: number
} => {
  const first = Math.min(...signed.map((e) => e.started))
  const accepted = signed.filter((e) => e.status !== 429 && e.status !== 418)
  const rateLimited = signed.filter((e) => e.status === 429).length
  const acceptedMillis = Math.max(...accepted.map((e) => e.started)) - first
  return {
    requests: signed.length,
    accepted: accepted.length,
    rateLimited,
    rateLimitedShare: signed.length === 0 ? 0 : rateLimited / signed.length,
    wallMillis: Math.max(...signed.map((e) => e.answered)) - first,
    acceptedMillis,
    achievedRate: accepted.length < 2 || acceptedMillis <= 0 ? 0 : (accepted.length - 1) / (acceptedMillis / 1000)
  }
}

/** A history in the service's database: its file and, per route read, the ids in the order a stream emits them. */
interface Dataset {
  readonly database: string
  readonly routes: ReadonlyArray<{ readonly route: Route; readonly ids: ReadonlyArray<string> }>
}

const runOnce = (
  options: Options,
  budget: number,
  intervalMillis: number,
  baseUrl: string,
  dataset: Dataset,
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
    // Every stream through the one layer (one budget), all at once.
    const outs = yield* Effect.forEach(dataset.routes, ({ route }) =>
      Stream.runCollect(history.transfers({
        ...route,
        since: end - span,
        until: end,
        limit: options.limit,
        concurrency: options.concurrency
      })), { concurrency: "unbounded" }).pipe(
        logCuts
          ? (effect) =>
            effect.pipe(
              Effect.provide(Logger.replace(Logger.defaultLogger, BudgetLog.logger(events))),
              Logger.withMinimumLogLevel(LogLevel.Debug)
            )
          : (effect) => effect
      )
    const streams = dataset.routes.map(({ ids: expected, route }, i): StreamOutcome => {
      const ids = Chunk.toReadonlyArray(outs[i]!).map((t) => t.tranId)
      return {
        route,
        records: ids.length,
        exact: ids.length === expected.length && ids.every((id, j) => id === expected[j])
      }
    })
    const signed = exchanges.filter((e) => e.key.includes("/broker/"))
    const measured = atService(signed)
    const first = Math.min(...signed.map((e) => e.started))
    const rateLimitedAtMillis = signed.filter((e) => e.status === 429).map((e) => e.answered - first)
    if (logCuts) {
      const lines = BudgetLog.describe(events, signed, intervalMillis, options.marginMillis)
      process.stderr.write(
        `saturation budget ${budget} per ${intervalMillis} ms, ${dataset.routes.length} stream(s): the budget's refusals and raises\n` +
          (lines.length === 0 ? "  none\n" : lines.map((line) => `  ${line}\n`).join(""))
      )
    }
    return {
      budget,
      intervalMillis,
      adaptive,
      ...measured,
      rateLimitedAtMillis,
      boundMillis: (measured.accepted / options.rate) * 1000,
      achievedOverRate: measured.achievedRate / options.rate,
      retryAfterViolations: retryAfterViolations(signed),
      records: streams.reduce((n, s) => n + s.records, 0),
      exact: streams.every((s) => s.exact),
      streams,
      timeline: signed.map((e) => ({ started: e.started - first, answered: e.answered - first, status: e.status }))
        .sort((a, b) => a.started - b.started)
    } satisfies Run
  }).pipe(Effect.scoped)

/** The reference service in a child process serving `database` with R (counted as `shape`) and the added latency. */
const spawnService = (database: string, options: Options, shape: Shape) =>
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

/** Longer than the service's window (1 s): after it, the service has forgotten the run before. */
const clearWindow = Effect.sleep("1100 millis")

/**
 * One line of a run for the part's log.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * declare const run: Saturation.Run
 * console.log(Saturation.describe(run, 20))
 *
 * @since 0.2.0
 * @category rendering
 */
export const describe = (run: Run, rate: number): string =>
  `budget ${run.budget} per ${run.intervalMillis} ms${
    run.adaptive ? "" : " (adaptation off)"
  }, ${run.records} transfers in ${run.streams.length} stream(s): ${run.requests} requests (${run.accepted} accepted) in ${
    (run.wallMillis / 1000).toFixed(1)
  } s, accepted at ${run.achievedRate.toFixed(2)}/s = ${(run.achievedRate / rate).toFixed(3)} R at the service (bound ${
    (run.boundMillis / 1000).toFixed(1)
  } s), ${run.rateLimited} x 429 (${(100 * run.rateLimitedShare).toFixed(1)} % refused${
    run.rateLimited === 0 ? "" : `, at ${run.rateLimitedAtMillis.map((t) => (t / 1000).toFixed(1)).join(" ")} s`
  }), ${
    run.retryAfterViolations === 0 ? "every Retry-After obeyed" : `${run.retryAfterViolations} Retry-After violated`
  }, ${run.exact ? "exact" : `NOT EXACT (${run.streams.filter((s) => !s.exact).length} stream(s))`}`

/**
 * The compact line of a grid cell: its coordinates, the share refused and the rate at the service.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * declare const cell: Saturation.Cell
 * console.log(Saturation.summary(cell))
 *
 * @since 0.2.0
 * @category rendering
 */
export const summary = (cell: Cell): string =>
  `grid ${cell.shape} ${cell.history} ${cell.streams} ${cell.factor}R: ${cell.run.achievedOverRate.toFixed(3)} R, ${
    (100 * cell.run.rateLimitedShare).toFixed(1)
  } % refused (${cell.run.rateLimited}/${cell.run.requests}), ${cell.run.exact ? "exact" : "NOT EXACT"}`

/**
 * Writes the histories into SQLite files (for each history, one file with every transfer on the first
 * route and one with them split over `routes`), runs the three runs outside the grid on a sliding
 * window, then the grid: each shape × history × streams on a service of its own, budgets R, 2R and 4R,
 * each run after the service's window has cleared.
 *
 * @example
 * import { Saturation } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(Saturation.run({ rate: 20, latencyMillis: 150, records: 2_000, limit: 100, concurrency: 4, marginMillis: 25, histories: ["short"] }))
 *
 * @since 0.1.0
 * @category running
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-bench-")
    const sizes: Record<History, number> = { short: options.records, long: options.longRecords ?? 6 * options.records }
    const datasets = new Map<string, Dataset>()
    const dataset = (history: History, streams: Streaming) =>
      Effect.gen(function*() {
        const name = `${history}-${streams}`
        const known = datasets.get(name)
        if (known !== undefined) return known
        const on = streams === "one" ? routes.slice(0, 1) : routes
        const data = rows(sizes[history], history === "short" ? 50_000_000 : 60_000_000, on)
        const database = Path.join(dir, `${name}.sqlite`)
        yield* Effect.flatMap(ReferenceServer.ReferenceServer, (server) => server.store.insertTransfers(data)).pipe(
          Effect.provide(ReferenceServer.layer({ database }))
        )
        const made: Dataset = {
          database,
          routes: on.map((route) => ({
            route,
            ids: data.filter((r) =>
              r.fromAccountType === route.fromAccountType && r.toAccountType === route.toAccountType
            )
              .map((r) => r.tranId)
          }))
        }
        datasets.set(name, made)
        return made
      })
    // Outside the grid: the margin, and the fixed budget, on the short history with one stream.
    const short = yield* dataset("short", "one")
    const [atRateWithMargin, atTwiceRateFixed, atRateFixed] = yield* Effect.scoped(Effect.gen(function*() {
      const { baseUrl } = yield* spawnService(short.database, options, "sliding")
      const runs: Array<Run> = []
      for (
        const [budget, intervalMillis, adaptive] of [
          [options.rate, 1000 + options.marginMillis, true],
          [2 * options.rate, 1000, false],
          [options.rate, 1000, false]
        ] as const
      ) {
        if (runs.length > 0) yield* clearWindow
        const run = yield* runOnce(options, budget, intervalMillis, baseUrl, short, adaptive)
        log(`saturation, sliding limiter, short history: ${describe(run, options.rate)}`)
        runs.push(run)
      }
      return runs
    }))
    const grid: Array<Cell> = []
    for (const shape of options.shapes ?? shapes) {
      for (const history of options.histories ?? histories) {
        for (const streams of options.streams ?? streamings) {
          const data = yield* dataset(history, streams)
          yield* Effect.scoped(Effect.gen(function*() {
            const service = yield* spawnService(data.database, options, shape)
            const budgets = options.factors ?? factors
            for (const factor of budgets) {
              // A new service has counted nothing yet; between runs its window must clear.
              if (factor !== budgets[0]) yield* clearWindow
              const run = yield* runOnce(options, factor * options.rate, 1000, service.baseUrl, data)
              const cell: Cell = { shape, history, streams, factor, run }
              log(`saturation ${summary(cell)}; ${describe(run, options.rate)}`)
              grid.push(cell)
            }
          }))
        }
      }
    }
    return {
      options,
      atRateWithMargin: atRateWithMargin!,
      atTwiceRateFixed: atTwiceRateFixed!,
      atRateFixed: atRateFixed!,
      runs: [atRateWithMargin!, atTwiceRateFixed!, atRateFixed!],
      grid
    }
  }).pipe(Effect.scoped)
