/**
 * The fault soak: for each seed, a reference service that answers 10 % 5xx, 5 % 429 with
 * `Retry-After`, drops 2 % of connections, hangs on 1 % and cuts 1 % of bodies short; the client reads
 * the full transfer and deposit histories of a pinned range with a short request timeout, and each
 * stream must equal the service's own set for that range: in order, no gap, no duplicate.
 *
 * Every request the client sends is recorded (URL and headers) by a wrapper around the undici
 * transport, so that callers can check where the key and the signatures went.
 *
 * With `outage`, the outage round of `SoakOutage` follows the seeds.
 *
 * @since 0.1.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { DepositRecord } from "@broker-history/domain"
import type { Faults } from "@broker-history/server"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as SoakOutage from "./SoakOutage.js"

const day = 86_400_000

/** The end of every soak history (pinned, so that seeds replay exactly). */
export const end = Date.UTC(2026, 0, 1)

/**
 * The fault mix of the issue.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * Soak.faultMix(7).serverError // 0.1
 */
export const faultMix = (seed: number): Faults.FaultOptions => ({
  seed,
  serverError: 0.10,
  rateLimited: 0.05,
  retryAfterSeconds: 1,
  drop: 0.02,
  hang: 0.01,
  truncate: 0.01
})

/**
 * How big each seed's history is and how the client is set up.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const ci: Soak.Options = { seeds: 20, transfers: 3000, deposits: 400, days: 60, transferLimit: 25, depositLimit: 50, concurrency: 4 }
 */
export interface Options {
  /** Seeds 1..seeds. */
  readonly seeds: number
  /** Transfers and deposits seeded per service (over `days`; about a quarter of the transfers match the stream's route). */
  readonly transfers: number
  readonly deposits: number
  /** Length of the pinned range, ending at `end`. */
  readonly days: number
  /** Page sizes of the two streams (small pages mean more requests, so more faults met). */
  readonly transferLimit: number
  readonly depositLimit: number
  /** Seeds run at once (each with its own service and client). */
  readonly concurrency: number
  /** The client's per-attempt timeout (hangs cost this much each). Default 300 millis. */
  readonly requestTimeoutMillis?: number | undefined
  /** The outage round, run after the seeds (none when absent). */
  readonly outage?: SoakOutage.Options | undefined
}

/**
 * The sizes CI runs (20 seeds); the bench run uses 100 seeds of the same.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * const bench = { ...Soak.ciOptions, seeds: 100 }
 */
export const ciOptions: Options = {
  seeds: 20,
  transfers: 3000,
  deposits: 400,
  days: 60,
  transferLimit: 25,
  depositLimit: 50,
  concurrency: 4
}

/**
 * A request as the client sent it.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const signed = (s: Soak.Sent) => s.query.includes("signature=")
 */
export interface Sent {
  readonly path: string
  readonly query: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * What one seed did.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const faultsMet = (r: Soak.SeedResult) => Object.values(r.faults).reduce((a, b) => a + b, 0)
 */
export interface SeedResult {
  readonly seed: number
  /** Requests the service received (every route). */
  readonly requests: number
  /** Retries the client made (its own "broker request retried" debug log lines). */
  readonly retries: number
  /** Faults injected by kind. */
  readonly faults: Readonly<Record<string, number>>
  readonly transfers: number
  readonly deposits: number
  /** `undefined` when both streams equal the service's sets exactly; otherwise what differed. */
  readonly mismatch: string | undefined
}

/**
 * A seed's result plus every request sent (for the secret checks).
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const count = (r: Soak.SeedRun) => r.sent.length
 */
export interface SeedRun extends SeedResult {
  readonly sent: ReadonlyArray<Sent>
}

/** An undici transport that records every request before it is sent. */
const recordingTransport = (sent: Array<Sent>): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.mapRequest(client, (request) => {
        const [path, inline] = request.url.split("?", 2) as [string, string | undefined]
        const params = UrlParams.toString(request.urlParams)
        sent.push({
          path,
          query: [inline, params].filter((p) => p !== undefined && p !== "").join("&"),
          headers: request.headers
        })
        return request
      }))
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

const collect = <A, E>(stream: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const firstDifference = (name: string, got: ReadonlyArray<string>, want: ReadonlyArray<string>) => {
  if (got.length === want.length && got.every((id, i) => id === want[i])) return undefined
  const i = got.findIndex((id, k) => id !== want[k])
  return `${name}: got ${got.length} records, expected ${want.length}; first difference at ${i === -1 ? got.length : i}`
}

/**
 * One seed: a faulty service, both full-history streams over the pinned range, compared with the
 * service's own data. `observe` wraps the client side (a capturing logger and tracer, in the
 * secret-leak test).
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const one = Soak.runSeed(1, Soak.ciOptions)
 */
export const runSeed = (
  seed: number,
  options: Options,
  observe: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E> = (self) => self
): Effect.Effect<SeedRun, unknown> =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const since = end - options.days * day + 1
    const sent: Array<Sent> = []
    const history = yield* Layer.build(
      BrokerHistory.layer.pipe(Layer.provide(BrokerConfig.layer({
        baseUrl: server.baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(ApiKeys.demo.secretKey),
        requestTimeout: `${options.requestTimeoutMillis ?? 300} millis`,
        retry: { maxRetries: 12, baseDelay: "5 millis", maxDelay: "40 millis" },
        rateLimit: { limit: 5000, interval: "1 second" }
      }))).pipe(Layer.provide(recordingTransport(sent)))
    ).pipe(Effect.map(Context.get(BrokerHistory.BrokerHistory)))

    // The client logs each retry at debug level; counting those lines counts its retries, per seed.
    let retries = 0
    const retryCounter = Logger.make(({ message }) => {
      const text = Array.isArray(message) ? message.join(" ") : String(message)
      if (text.includes("broker request retried")) retries++
    })
    // Locally, not with Effect.provide(layer): logger and level set by a provided layer outlive the effect.
    const counted = <A, E>(self: Effect.Effect<A, E>) =>
      observe(Effect.flatMap(FiberRef.get(FiberRef.currentMinimumLogLevel), (level) =>
        self.pipe(
          Effect.locallyWith(FiberRef.currentLoggers, HashSet.add(retryCounter)),
          Effect.locally(
            FiberRef.currentMinimumLogLevel,
            LogLevel.lessThan(level, LogLevel.Debug) ? level : LogLevel.Debug
          )
        )))

    yield* server.setFaults(faultMix(seed))
    const transfers = yield* counted(collect(history.transfers({
      fromAccountType: "SPOT",
      toAccountType: "FUTURES",
      since,
      until: end,
      limit: options.transferLimit,
      concurrency: 2
    })))
    const deposits = yield* counted(
      collect(history.deposits({ since, until: end, limit: options.depositLimit, concurrency: 2 }))
    )
    const stats = yield* server.stats
    yield* server.setFaults({})

    const expectedTransfers = (yield* server.store.allTransfers({
      fromAccount: null,
      toAccount: null,
      fromAccountType: "SPOT",
      toAccountType: "FUTURES"
    })).filter((r) => r.timestamp >= since && r.timestamp <= end).map((r) => r.tranId)
    const expectedDeposits = (yield* server.store.allDeposits())
      .filter((d) => d.insertTime >= since && d.insertTime <= end)
      .sort((a, b) => DepositRecord.compare(a as any, b as any))
      .map((d) => DepositRecord.key(d))
    const mismatch = firstDifference("transfers", transfers.map((t) => t.tranId), expectedTransfers) ??
      firstDifference("deposits", deposits.map(DepositRecord.key), expectedDeposits)

    return {
      seed,
      requests: stats.requests,
      retries,
      faults: stats.faults,
      transfers: transfers.length,
      deposits: deposits.length,
      mismatch,
      sent
    }
  }).pipe(
    Effect.scoped,
    Effect.provide(ReferenceServer.layer({
      seed: { seed, transfers: options.transfers, deposits: options.deposits, end, years: options.days / 365 },
      rateLimit: { limit: 100_000, window: "1 second" }
    }))
  )

/**
 * The soak over seeds `1..options.seeds`, with totals.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const allExact = (r: Soak.Result) => r.seeds.every((s) => s.mismatch === undefined)
 */
export interface Result {
  readonly options: Options
  readonly seeds: ReadonlyArray<SeedResult>
  /** The outage round, when `options.outage` asked for it. */
  readonly outage?: SoakOutage.Result | undefined
  readonly totals: {
    readonly requests: number
    readonly retries: number
    readonly faults: Readonly<Record<string, number>>
    readonly transfers: number
    readonly deposits: number
    readonly exact: number
  }
  readonly wallMillis: number
}

/**
 * Sums seed results.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * Soak.totals([]).requests // 0
 */
export const totals = (seeds: ReadonlyArray<SeedResult>): Result["totals"] => {
  const faults: Record<string, number> = {}
  for (const s of seeds) for (const [k, n] of Object.entries(s.faults)) faults[k] = (faults[k] ?? 0) + n
  return {
    requests: seeds.reduce((a, s) => a + s.requests, 0),
    retries: seeds.reduce((a, s) => a + s.retries, 0),
    faults,
    transfers: seeds.reduce((a, s) => a + s.transfers, 0),
    deposits: seeds.reduce((a, s) => a + s.deposits, 0),
    exact: seeds.filter((s) => s.mismatch === undefined).length
  }
}

/**
 * Runs every seed (`options.concurrency` at a time) and sums the counts; then the outage round when
 * `options.outage` asks for it.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(Soak.run({ ...Soak.ciOptions, seeds: 2 }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const started = Date.now()
    const seeds = yield* Effect.forEach(
      Array.from({ length: options.seeds }, (_, i) => i + 1),
      (seed) =>
        Effect.map(runSeed(seed, options), ({ sent: _sent, ...result }) => {
          log(
            `soak seed ${seed}: ${result.requests} requests, ${result.retries} retries, faults ${
              JSON.stringify(result.faults)
            }, ${result.transfers} transfers + ${result.deposits} deposits, ${result.mismatch ?? "exact"}`
          )
          return result
        }),
      { concurrency: options.concurrency }
    ).pipe(Effect.locallyWith(FiberRef.currentLoggers, HashSet.remove(Logger.defaultLogger)))
    const outage = options.outage === undefined ? undefined : yield* SoakOutage.run(options.outage)
    if (outage !== undefined) log(SoakOutage.line(outage))
    return { options, seeds, totals: totals(seeds), outage, wallMillis: Date.now() - started }
  })
