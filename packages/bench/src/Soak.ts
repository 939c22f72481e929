/**
 * The fault soak: for each seed, a reference service that answers 10 % 5xx, 5 % 429 with
 * `Retry-After`, drops 2 % of connections, hangs on 1 % and cuts 1 % of bodies short; the client reads
 * the full transfer and deposit histories of a pinned range with a short request timeout, and each
 * stream must equal the service's own set for that range: in order, no gap, no duplicate.
 *
 * Every request the client sends is recorded (URL and headers) by a wrapper around the undici
 * transport, so that callers can check where the key and the signatures went.
 *
 * The outage round (`runOutage`): a following sync (`SyncRun` with `follow`, into SQLite) while the
 * service is stopped for far longer than a request's retries and started again on the same port and
 * database, records added during the outage and after it; every record must then be stored exactly
 * once, none written twice.
 *
 * @since 0.1.0
 */
import { Progress, SyncPlan, SyncRun, SyncStore } from "@broker-history/cli"
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { DepositRecord } from "@broker-history/domain"
import type { Faults } from "@broker-history/server"
import { Accounts, ApiKeys, ReferenceServer, Store } from "@broker-history/server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as UrlParams from "@effect/platform/UrlParams"
import Database from "better-sqlite3"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Path from "node:path"
import * as TempDir from "./TempDir.js"

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
  readonly outage?: OutageOptions | undefined
}

/**
 * The outage round's sizes: the service's history, how long it is down, and how many records are
 * added while it is down and again right after it is back.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const short: Soak.OutageOptions = { transfers: 1000, deposits: 200, subAccounts: 3, outageMillis: 3000, added: 10 }
 */
export interface OutageOptions {
  readonly transfers: number
  readonly deposits: number
  readonly subAccounts: number
  /** How long the service is stopped (ms): far longer than a request's retries (one retry of 20 ms). */
  readonly outageMillis: number
  /** Records added while the service is down, and as many right after it is back (half transfers, half deposits). */
  readonly added: number
}

/**
 * The outage round the bench runs with the soak.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * Soak.outageOptions.outageMillis // 10000
 */
export const outageOptions: OutageOptions = {
  transfers: 3000,
  deposits: 400,
  subAccounts: 4,
  outageMillis: 10_000,
  added: 20
}

/**
 * What the outage round measured: how long the service was down, how long the follower took from the
 * service's restart until every added record was stored, and what the tables held against the
 * service's data.
 *
 * @example
 * import type { Soak } from "@broker-history/bench"
 * const ok = (r: Soak.OutageResult) => r.missing === 0 && r.extra === 0 && r.repeated === 0
 */
export interface OutageResult {
  readonly outageMillis: number
  /** From the service's restart until every record added during and after the outage was stored. */
  readonly recoverMillis: number
  /** A request's retry budget (its retries' waits), which the outage lasted far longer than. */
  readonly retryBudgetMillis: number
  /** Records compared: the service's rows the sync covers, each looked up in the tables. */
  readonly records: number
  /** Records added during the outage and right after it. */
  readonly added: number
  /** The service's records the tables lack, and rows the service does not hold. */
  readonly missing: number
  readonly extra: number
  /** Records written more than once after the catch-up (a follower that lost its place reads them again). */
  readonly repeated: number
  /** Outage lines on stderr: the start and the end, each once. */
  readonly unavailableLines: number
  readonly availableLines: number
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
  readonly outage?: OutageResult | undefined
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

/** A master→sub transfer `n` at `time`, inside the settlement window every poll re-reads. */
const addedTransfer = (n: number, time: number, subAccounts: number): Store.TransferRow => ({
  tranId: String(95_000_000_000 + n),
  clientTranId: null,
  fromAccount: null,
  toAccount: Accounts.subAccountNames(subAccounts)[n % subAccounts]!,
  asset: "USDT",
  amount: `${n}.50000000`,
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: time
})

/** A credited deposit `n` at `time`. */
const addedDeposit = (n: number, time: number): Store.DepositRow => ({
  amount: "3.00000000",
  coin: "USDT",
  network: "TRC20",
  status: 5,
  address: `TOutageAddress${n}`,
  addressTag: null,
  txId: `0xoutage${n.toString(16).padStart(8, "0")}`,
  unlockConfirm: "20",
  confirmTimes: "20",
  insertTime: time,
  memo: null
})

const depositKey = (d: { txId: string; coin: string; network: string; address: string }) =>
  JSON.stringify([d.txId, d.coin, d.network, d.address])

/** The records `n .. n + count - 1`: half transfers, half deposits, a minute old. */
const addRecords = (store: Store.Service, n: number, count: number, subAccounts: number) =>
  Effect.gen(function*() {
    const time = Date.now() - 60_000
    const numbers = Array.from({ length: count }, (_, i) => n + i)
    yield* store.insertTransfers(numbers.filter((k) => k % 2 === 0).map((k) => addedTransfer(k, time - k, subAccounts)))
    yield* store.insertDeposits(numbers.filter((k) => k % 2 === 1).map((k) => addedDeposit(k, time - k)))
    return numbers.map((k) => k % 2 === 0 ? String(95_000_000_000 + k) : depositKey(addedDeposit(k, 0)))
  })

/**
 * The outage round: the service seeded into a database file, a following sync into SQLite caught up,
 * then the service stopped for `outageMillis` (records added to its file meanwhile) and started again
 * on the same port and file (more records added); the round ends when every added record is stored,
 * and the tables are compared with the service's data.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(Soak.runOutage({ ...Soak.outageOptions, outageMillis: 3000 }))
 */
export const runOutage = (options: OutageOptions): Effect.Effect<OutageResult, unknown> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-soak-outage-")
    const file = Path.join(dir, "service.sqlite")
    const db = Path.join(dir, "sync.sqlite")
    const seed = {
      seed: 41,
      transfers: options.transfers,
      deposits: options.deposits,
      subAccounts: options.subAccounts
    }
    const serve = (port: number) =>
      Effect.gen(function*() {
        const scope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(
          ReferenceServer.layer({ database: file, port, seed, rateLimit: { limit: 100_000, window: "1 second" } }),
          scope
        )
        return { server: Context.get(context, ReferenceServer.ReferenceServer), stop: Scope.close(scope, Exit.void) }
      })
    let service = yield* serve(0)
    const port = service.server.port
    yield* Effect.addFinalizer(() => service.stop)

    // Every write after the catch-up, by record key: a follower that lost its place writes some twice.
    const written = new Map<string, number>()
    let following = false
    const counting = (inner: SyncStore.Service): SyncStore.Service => ({
      ...inner,
      forProfile: (profile) => counting(inner.forProfile(profile)),
      applyTransfers: (stream, records, position) =>
        Effect.tap(inner.applyTransfers(stream, records, position), () => {
          if (following) { for (const t of records) written.set(t.tranId, (written.get(t.tranId) ?? 0) + 1) }
        }),
      applyDeposits: (stream, records, position) =>
        Effect.tap(inner.applyDeposits(stream, records, position), () => {
          if (following) { for (const d of records) written.set(depositKey(d), (written.get(depositKey(d)) ?? 0) + 1) }
        })
    })
    const lines: Array<string> = []
    const logger = Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    const retry = { maxRetries: 1, baseDelay: "20 millis", maxDelay: "40 millis", followMaxDelay: "1 second" } as const
    const history = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
      baseUrl: service.server.baseUrl,
      apiKey: Redacted.make(ApiKeys.demo.apiKey),
      secretKey: Redacted.make(ApiKeys.demo.secretKey),
      requestTimeout: "1 second",
      retry,
      rateLimit: { limit: 5000, interval: "1 second" }
    })))
    const since = Date.now() - 365 * day
    const caughtUp = yield* Deferred.make<void>()
    const store = yield* Effect.map(Layer.build(SyncStore.layer(db)), Context.get(SyncStore.SyncStore))
    const sync = yield* SyncRun.run({
      transferStreams: SyncPlan.transferStreams(
        SyncPlan.defaultPairs(Accounts.subAccountNames(options.subAccounts)),
        ["SPOT", "FUTURES"]
      ),
      since: { transfers: 0, deposits: since },
      reset: undefined,
      follow: 1_000,
      settlement: day,
      concurrency: 4,
      batchSize: 500,
      batchWait: 100,
      outageRetry: { baseDelay: retry.baseDelay, maxDelay: retry.followMaxDelay },
      log: (line) => {
        if (line.includes("caught up")) Deferred.unsafeDone(caughtUp, Effect.void)
      },
      warn: () => {}
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.mergeAll(
        history,
        Layer.succeed(SyncStore.SyncStore, counting(store)),
        Progress.layer({ label: "sync", endpoints: [], live: false })
      )),
      Effect.locallyWith(FiberRef.currentLoggers, () => HashSet.make(logger)),
      Effect.forkScoped
    )
    yield* Deferred.await(caughtUp)
    following = true
    yield* Effect.sleep("1500 millis")

    // The outage: longer than a request's retries by orders of magnitude, records added meanwhile.
    yield* service.stop
    const stoppedAt = Date.now()
    const offline = yield* Effect.flatMap(Store.Store, (s) => addRecords(s, 0, options.added, options.subAccounts))
      .pipe(
        Effect.provide(Store.layerSqlite(file))
      )
    yield* Effect.sleep(Math.max(0, stoppedAt + options.outageMillis - Date.now()))
    service = yield* serve(port)
    const restartedAt = Date.now()
    const outageMillis = restartedAt - stoppedAt
    const online = yield* addRecords(service.server.store, options.added, options.added, options.subAccounts)

    // Recovered: every added record stored.
    const reader = new Database(db, { readonly: true })
    yield* Effect.addFinalizer(() => Effect.sync(() => reader.close()))
    const stored = () => {
      const transfers = reader.prepare("SELECT tran_id FROM transfers WHERE profile = 'default'").pluck()
        .all() as Array<
          string
        >
      const deposits = reader.prepare("SELECT tx_id, coin, network, address FROM deposits WHERE profile = 'default'")
        .all() as Array<{ tx_id: string; coin: string; network: string; address: string }>
      return new Set([
        ...transfers,
        ...deposits.map((d) => depositKey({ txId: d.tx_id, coin: d.coin, network: d.network, address: d.address }))
      ])
    }
    yield* Effect.retry(
      Effect.suspend(() => {
        const keys = stored()
        return [...offline, ...online].every((k) => keys.has(k)) ? Effect.void : Effect.fail("not yet")
      }),
      Schedule.spaced("50 millis").pipe(Schedule.upTo("60 seconds"))
    )
    const recoverMillis = Date.now() - restartedAt
    yield* Effect.sleep("1500 millis")
    yield* Fiber.interrupt(sync)

    const expected = new Set([
      ...(yield* service.server.store.allTransfers())
        .filter((t) => t.fromAccount === null || t.toAccount === null)
        .map((t) => t.tranId),
      ...(yield* service.server.store.allDeposits()).filter((d) => d.insertTime >= since).map(depositKey)
    ])
    const keys = stored()
    return {
      outageMillis,
      recoverMillis,
      retryBudgetMillis: 40,
      records: expected.size,
      added: offline.length + online.length,
      missing: [...expected].filter((k) => !keys.has(k)).length,
      extra: [...keys].filter((k) => !expected.has(k)).length,
      repeated: [...written.values()].filter((n) => n > 1).length,
      unavailableLines: lines.filter((l) => l.startsWith("broker service unavailable")).length,
      availableLines: lines.filter((l) => l.startsWith("broker service available again")).length
    }
  }).pipe(Effect.scoped)

/**
 * The outage round's figures in one line.
 *
 * @example
 * import { Soak } from "@broker-history/bench"
 * Soak.outageLine({ outageMillis: 10000, recoverMillis: 800, retryBudgetMillis: 40, records: 100, added: 40, missing: 0, extra: 0, repeated: 0, unavailableLines: 1, availableLines: 1 })
 */
export const outageLine = (r: OutageResult): string =>
  `soak outage: service down ${
    (r.outageMillis / 1000).toFixed(1)
  } s (a request's retries: ${r.retryBudgetMillis} ms), all ${r.added} records added during and after it stored ${
    (r.recoverMillis / 1000).toFixed(2)
  } s after its restart; ${r.records} records checked: ${r.missing} missing, ${r.extra} extra, ${r.repeated} written twice; outage logged ${r.unavailableLines} + ${r.availableLines} lines`

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
    const outage = options.outage === undefined ? undefined : yield* runOutage(options.outage)
    if (outage !== undefined) log(outageLine(outage))
    return { options, seeds, totals: totals(seeds), outage, wallMillis: Date.now() - started }
  })
