/**
 * The fault soak's outage round: a following sync (`SyncRun` with `follow`, into SQLite) while the
 * service is stopped for far longer than a request's retries and started again on the same port and
 * database, records added during the outage and after it; every record must then be stored exactly
 * once, none written twice, and the outage logged once at each end.
 *
 * @since 0.2.0
 */
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { ApiKeys, ReferenceServer, Seed, Store } from "@broker-history/server"
import Database from "better-sqlite3"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Path from "node:path"
import { Progress, SyncPlan, SyncRun, SyncStore } from "./CliInternals.js"
import * as TempDir from "./TempDir.js"

const day = 86_400_000

/**
 * The outage round's sizes: the service's history, how long it is down, and how many records are
 * added while it is down and again right after it is back.
 *
 * @example
 * import type { SoakOutage } from "@broker-history/bench"
 * const short: SoakOutage.Options = { transfers: 1000, deposits: 200, subAccounts: 3, outageMillis: 3000, added: 10 }
 */
export interface Options {
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
 * import { SoakOutage } from "@broker-history/bench"
 * SoakOutage.options.outageMillis // 10000
 */
export const options: Options = {
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
 * import type { SoakOutage } from "@broker-history/bench"
 * const ok = (r: SoakOutage.Result) => r.missing === 0 && r.extra === 0 && r.repeated === 0
 */
export interface Result {
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

/** A master→sub transfer `n` at `time`, inside the settlement window every poll re-reads. */
const addedTransfer = (n: number, time: number, subAccounts: number): Store.TransferRow => ({
  tranId: String(95_000_000_000 + n),
  clientTranId: null,
  fromAccount: null,
  toAccount: Seed.subAccountNames(subAccounts)[n % subAccounts]!,
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
 * import { SoakOutage } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(SoakOutage.run({ ...SoakOutage.options, outageMillis: 3000 }))
 */
export const run = (options: Options): Effect.Effect<Result, unknown> =>
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
        SyncPlan.defaultPairs(Seed.subAccountNames(options.subAccounts)),
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
 * import { SoakOutage } from "@broker-history/bench"
 * SoakOutage.line({ outageMillis: 10000, recoverMillis: 800, retryBudgetMillis: 40, records: 100, added: 40, missing: 0, extra: 0, repeated: 0, unavailableLines: 1, availableLines: 1 })
 */
export const line = (r: Result): string =>
  `soak outage: service down ${
    (r.outageMillis / 1000).toFixed(1)
  } s (a request's retries: ${r.retryBudgetMillis} ms), all ${r.added} records added during and after it stored ${
    (r.recoverMillis / 1000).toFixed(2)
  } s after its restart; ${r.records} records checked: ${r.missing} missing, ${r.extra} extra, ${r.repeated} written twice; outage logged ${r.unavailableLines} + ${r.availableLines} lines`
