/**
 * The contenders of the sync benchmark (`SyncThroughput`) that go through the sync's own code: the
 * fetch alone (the plan's streams read and dropped, or kept as the sync's batches for the other
 * contenders), `SyncRun` in this process, and the sync's store alone (pre-fetched batches applied
 * through `SyncStore`). Each returns what it wrote or read with its wall and CPU time.
 *
 * @since 0.2.0
 */
import { BrokerConfig, BrokerHistory, BrokerHttpClient, HttpProxy } from "@broker-history/client"
import type { Checkpoint } from "@broker-history/client"
import * as NodeTransport from "@broker-history/client/NodeTransport"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import { ApiKeys, Seed } from "@broker-history/server"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { SyncSettings } from "./CliInternals.js"
import { Progress, SyncPlan, SyncRun, SyncStore } from "./CliInternals.js"
import * as Measure from "./Measure.js"
import type { Options } from "./SyncModel.js"

const day = 86_400_000
const endpoints = ["transferHistory", "depositHistory"]

/**
 * The service's request budget high enough never to bind (requests per second).
 *
 * @example
 * import * as SyncContenders from "@broker-history/bench/SyncContenders"
 * const flags = ["--rate-limit", String(SyncContenders.unboundedBudget), "--rate-window-ms", "1000"]
 */
export const unboundedBudget = 1_000_000

/** The client's budget that never binds: its largest limit per millisecond. */
const unboundedClientBudget = { limit: 10_000, interval: "1 millis" } as const

/** The demo key, no proxy (the service is on loopback), and the given budget (default: the client's). */
const client = (baseUrl: string, rateLimit: BrokerConfig.Options["rateLimit"]) =>
  NodeTransport.layerProxy(HttpProxy.none).pipe(Layer.provide(BrokerConfig.layer({
    baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    rateLimit
  })))

const requestCount = Effect.map(
  Effect.all(endpoints.map((e) => Metric.value(Metric.tagged(BrokerHttpClient.metrics.requests, "endpoint", e)))),
  (states) => states.reduce((sum, state) => sum + Number(state.count), 0)
)

/**
 * The plan of `broker-history sync --sub-accounts <all> --since <start of the history>`: its transfer
 * streams and where each kind of stream starts.
 *
 * @example
 * import * as SyncContenders from "@broker-history/bench/SyncContenders"
 * const streams = SyncContenders.plan({ subAccounts: 2 }).transferStreams.length + 1
 */
export const plan = (options: Pick<Options, "subAccounts">) => {
  const transferStreams = SyncPlan.transferStreams(
    SyncPlan.defaultPairs(Seed.subAccountNames(options.subAccounts)),
    ["SPOT", "FUTURES"]
  )
  const since = { transfers: 0, deposits: Date.now() - (2 * 365 + 2) * day }
  return { transferStreams, since }
}

/**
 * The sync's plan (`plan`).
 *
 * @example
 * import type * as SyncContenders from "@broker-history/bench/SyncContenders"
 * const streams = (p: SyncContenders.Plan) => p.transferStreams.length + 1
 */
export type Plan = ReturnType<typeof plan>

/**
 * One batch as the sync writes it: up to `batchSize` records of one stream.
 *
 * @example
 * import type * as SyncContenders from "@broker-history/bench/SyncContenders"
 * const rows = (batches: ReadonlyArray<SyncContenders.Batch>) => batches.reduce((n, b) => n + b.records.length, 0)
 */
export type Batch =
  & (
    | { readonly kind: "transfers"; readonly records: ReadonlyArray<TransferRecord.TransferRecord> }
    | { readonly kind: "deposits"; readonly records: ReadonlyArray<DepositRecord.DepositRecord> }
  )
  & {
    /** The stream's id and its checkpoint after the batch's last record. */
    readonly stream: string
    readonly checkpoint: Checkpoint.Checkpoint
  }

/**
 * The plan's streams read and dropped (`keep`: also kept as the sync's batches, per stream), with the
 * sync's concurrency; the records read, the requests made, wall and CPU time.
 *
 * @example
 * import * as SyncContenders from "@broker-history/bench/SyncContenders"
 * import { Effect } from "effect"
 * declare const baseUrl: string
 * const plan = SyncContenders.plan({ subAccounts: 2 })
 * const rows = Effect.map(
 *   SyncContenders.fetchAll(baseUrl, plan, { batchSize: 500, concurrency: 4 }, false),
 *   (f) => f.counts.transfers + f.counts.deposits
 * )
 */
export const fetchAll = (
  baseUrl: string,
  p: Plan,
  options: Pick<Options, "batchSize" | "concurrency">,
  keep: boolean
) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(client(baseUrl, unboundedClientBudget))
    const history = Context.get(context, BrokerHistory.BrokerHistory)
    const batches: Array<Batch> = []
    const counts = { transfers: 0, deposits: 0 }
    const read = <A>(
      kind: Batch["kind"],
      id: string,
      stream: Stream.Stream<Checkpoint.Change<A>, unknown>
    ) =>
      Effect.suspend(() => {
        const kept: Array<Checkpoint.Change<A>> = []
        return Effect.zipRight(
          Stream.runForEachChunk(stream, (chunk) =>
            Effect.sync(() => {
              counts[kind] += chunk.length
              if (keep) { for (const change of chunk) kept.push(change) }
            })),
          Effect.sync(() => {
            for (let i = 0; i < kept.length; i += options.batchSize) {
              const changes = kept.slice(i, i + options.batchSize)
              batches.push(
                {
                  kind,
                  stream: id,
                  records: changes.map((c) => c.record),
                  checkpoint: changes[changes.length - 1]!.checkpoint
                } as Batch
              )
            }
          })
        )
      })
    const streams = [
      read("deposits", SyncPlan.depositStreamId, history.depositChanges({ since: p.since.deposits, concurrency: 2 })),
      ...p.transferStreams.map((s) =>
        read("transfers", s.id, history.transferChanges({ ...s.query, since: p.since.transfers }))
      )
    ]
    const before = yield* requestCount
    const { timing } = yield* Effect.promise(() =>
      Measure.timed(() => Effect.runPromise(Effect.all(streams, { concurrency: options.concurrency, discard: true })))
    )
    return { counts, batches, requests: (yield* requestCount) - before, ...timing }
  }).pipe(Effect.scoped)

/**
 * `SyncRun` in this process, as `broker-history sync` runs it, from the service at `baseUrl` into
 * `db` (a SQLite file or a PostgreSQL URL): the rows applied, the tables' counts, the requests made,
 * wall and CPU time.
 *
 * @example
 * import * as SyncContenders from "@broker-history/bench/SyncContenders"
 * import { Effect } from "effect"
 * declare const baseUrl: string
 * const rows = Effect.map(
 *   SyncContenders.syncInto("/tmp/history.db", baseUrl, SyncContenders.plan({ subAccounts: 2 }), { batchSize: 500, concurrency: 4 }),
 *   (s) => s.rows
 * )
 */
export const syncInto = (db: string, baseUrl: string, p: Plan, options: Pick<Options, "batchSize" | "concurrency">) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(Layer.mergeAll(
      SyncStore.layer(db),
      Progress.layer({ label: "sync", endpoints, live: false }),
      client(baseUrl, unboundedClientBudget)
    ))
    const settings: SyncSettings = {
      transferStreams: p.transferStreams,
      since: p.since,
      reset: undefined,
      follow: undefined,
      settlement: day,
      concurrency: options.concurrency,
      batchSize: options.batchSize,
      batchWait: 250,
      log: () => {},
      warn: () => {}
    }
    const before = yield* requestCount
    const { result, timing } = yield* Effect.promise(() =>
      Measure.timed(() => Effect.runPromise(SyncRun.run(settings).pipe(Effect.scoped, Effect.provide(context))))
    )
    return {
      rows: result.totals.transfers + result.totals.deposits,
      counts: result.counts,
      requests: (yield* requestCount) - before,
      ...timing
    }
  }).pipe(Effect.scoped)

/**
 * The sync's store alone: the pre-fetched batches applied in turn through `SyncStore` (each with its
 * stream's checkpoint, as the sync writes them), nothing fetched; the tables' counts, wall and CPU time.
 *
 * @example
 * import * as SyncContenders from "@broker-history/bench/SyncContenders"
 * import { Effect } from "effect"
 * declare const batches: ReadonlyArray<SyncContenders.Batch>
 * const counts = Effect.map(
 *   SyncContenders.storeInto("/tmp/history.db", batches, SyncContenders.plan({ subAccounts: 2 }).since),
 *   (s) => s.counts
 * )
 */
export const storeInto = (db: string, batches: ReadonlyArray<Batch>, since: Plan["since"]) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(SyncStore.layer(db))
    const store = Context.get(context, SyncStore.SyncStore)
    const apply = Effect.forEach(batches, (b) => {
      const position: SyncStore.Position = {
        _tag: "Checkpoint",
        checkpoint: b.checkpoint,
        coveredSince: since[b.kind]
      }
      return b.kind === "transfers"
        ? store.applyTransfers(b.stream, b.records, position)
        : store.applyDeposits(b.stream, b.records, position)
    }, { discard: true })
    const { timing } = yield* Effect.promise(() => Measure.timed(() => Effect.runPromise(apply)))
    return { counts: yield* store.counts, ...timing }
  }).pipe(Effect.scoped)
