/**
 * The demo's program (see `Command`): loaded only when the demo runs, because it starts the reference
 * service, whose SQLite driver other commands must not load.
 *
 * @internal
 */
import type { StreamOptions } from "@broker-history/client"
import { BrokerConfig, BrokerHistory, BrokerHttpClient, HttpProxy } from "@broker-history/client"
import * as NodeTransport from "@broker-history/client/NodeTransport"
import { DepositRecord } from "@broker-history/domain"
import { ApiKeys, ReferenceServer, Seed } from "@broker-history/server"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

/** What the demo's streams returned was not exactly the service's data: a bug, reported with the output. */
export class DemoMismatch extends Data.TaggedError("DemoMismatch")<{}> {
  override get message(): string {
    return "the demo's streams did not return exactly the service's data: this is a bug, please report the output"
  }
}

/** What the demo seeds (`seed`, `transfers`, `deposits`) and how many streams it reads at once. */
export interface Options {
  readonly seed: number
  readonly transfers: number
  readonly deposits: number
  readonly concurrency: number
}

const day = 86_400_000

/** Counts of one history: records, first and last time, and per key. */
class Tally {
  count = 0
  first = Number.POSITIVE_INFINITY
  last = Number.NEGATIVE_INFINITY
  readonly byKey = new Map<string, number>()
  add(key: string, time: number) {
    this.count++
    if (time < this.first) this.first = time
    if (time > this.last) this.last = time
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1)
  }
  span() {
    return this.count === 0
      ? "empty"
      : `${new Date(this.first).toISOString().slice(0, 10)} .. ${new Date(this.last).toISOString().slice(0, 10)}`
  }
  table(title: string) {
    const rows = [...this.byKey].sort((a, b) => b[1] - a[1])
    const width = Math.max(...rows.map(([k]) => k.length), title.length)
    return rows.map(([k, n]) => `  ${k.padEnd(width)}  ${String(n).padStart(7)}`).join("\n")
  }
}

const program = (concurrency: number) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const counts = yield* server.store.counts
    yield* Console.log(
      `reference service on ${server.baseUrl}: ${counts.transfers} transfers, ${counts.deposits} deposits seeded`
    )

    const started = Date.now()
    const history = yield* BrokerHistory.BrokerHistory
    const now = Date.now()
    const range = { since: now - 2 * 365 * day - 2 * day, until: now }

    // One transfer query covers one account pair and one account-type pair; an omitted account is
    // the master account. Read the master's own transfers and master↔sub for every sub-account.
    const types = [["SPOT", "FUTURES"], ["FUTURES", "SPOT"], ["SPOT", "SPOT"], ["FUTURES", "FUTURES"]] as const
    const subs = Seed.subAccountNames(40)
    const queries: Array<Omit<StreamOptions.TransferStreamQuery, "follow">> = types.flatMap((
      [fromAccountType, toAccountType]
    ) => [
      { fromAccountType, toAccountType, ...range },
      ...subs.flatMap((sub) => [
        { fromAccountType, toAccountType, toAccount: sub, ...range },
        { fromAccountType, toAccountType, fromAccount: sub, ...range }
      ])
    ])

    const transfers = new Tally()
    const transferStatus = new Tally()
    const transferIds = new Set<string>()
    yield* Stream.fromIterable(queries).pipe(
      Stream.flatMap((query) => history.transfers(query), { concurrency }),
      Stream.runForEach((t) =>
        Effect.sync(() => {
          transfers.add(t.asset, t.timestamp)
          transferIds.add(t.tranId)
          transferStatus.add(t.status, t.timestamp)
        })
      )
    )
    const transfersDone = Date.now()

    const deposits = new Tally()
    const depositStatus = new Tally()
    const depositKeys = new Set<string>()
    yield* history.deposits({ ...range, concurrency: 4 }).pipe(
      Stream.runForEach((d) =>
        Effect.sync(() => {
          deposits.add(`${d.coin}/${d.network}`, d.insertTime)
          depositKeys.add(DepositRecord.key(d))
          depositStatus.add(DepositRecord.statusName(d.status), d.insertTime)
        })
      )
    )
    const finished = Date.now()

    const perEndpoint = (counter: typeof BrokerHttpClient.metrics.requests) =>
      Effect.map(
        Effect.all(
          ["transferHistory", "depositHistory"].map((e) => Metric.value(Metric.tagged(counter, "endpoint", e)))
        ),
        (states) => states.reduce((sum, state) => sum + state.count, 0)
      )
    const requests = yield* perEndpoint(BrokerHttpClient.metrics.requests)
    const retries = yield* perEndpoint(BrokerHttpClient.metrics.retries)
    const stats = yield* server.stats

    // Check what came back against the service's own data.
    const inRange = (t: number) => t >= range.since && t <= range.until
    const expectedTransfers = (yield* server.store.allTransfers()).filter((t) =>
      (t.fromAccount === null || t.toAccount === null) && inRange(t.timestamp)
    )
    const expectedDeposits = (yield* server.store.allDeposits()).filter((d) => inRange(d.insertTime))
    // Same size, no duplicates received, and every expected identity received: the same set, once each.
    const matches = expectedTransfers.length === transfers.count && transferIds.size === transfers.count &&
      expectedTransfers.every((t) => transferIds.has(t.tranId)) &&
      expectedDeposits.length === deposits.count && depositKeys.size === deposits.count &&
      expectedDeposits.every((d) => depositKeys.has(DepositRecord.key(d)))
    yield* Console.log(`
transfers: ${transfers.count} records in ${queries.length} streams (master↔sub and master's own), ${transfers.span()}
  by asset:
${transfers.table("asset")}
  by status:
${transferStatus.table("status")}
deposits: ${deposits.count} records, ${deposits.span()}
  by coin/network:
${deposits.table("coin")}
  by status:
${depositStatus.table("status")}
requests: ${requests} sent by the client (${retries} retries), ${stats.requests} received by the service
check: ${
      matches
        ? "every record the service holds for these queries came back exactly once"
        : `MISMATCH: expected ${expectedTransfers.length} transfers and ${expectedDeposits.length} deposits`
    }
elapsed: transfers ${((transfersDone - started) / 1000).toFixed(1)} s, deposits ${
      ((finished - transfersDone) / 1000).toFixed(1)
    } s, total ${((finished - started) / 1000).toFixed(1)} s`)
    if (!matches) return yield* Effect.fail(new DemoMismatch())
  })

// A user's client for the running service: the demo key, and a request budget equal to the
// service's own limit (500 per 10 s), shared by every stream. The service is this process's own, on
// loopback: reached directly, whatever proxy the environment names.
const client = Layer.unwrapEffect(
  Effect.map(
    ReferenceServer.ReferenceServer,
    (server) =>
      NodeTransport.layerProxy(HttpProxy.none).pipe(Layer.provide(BrokerConfig.layer({
        baseUrl: server.baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(ApiKeys.demo.secretKey),
        rateLimit: { limit: 50, interval: "1 second" }
      })))
  )
)

/** Seeds the service, reads both histories, prints the summary; fails on any difference. */
export const run = (options: Options) =>
  Effect.gen(function*() {
    const seed = { seed: options.seed, transfers: options.transfers, deposits: options.deposits }
    const seeding = Date.now()
    yield* Console.log(`seeding ${seed.transfers} transfers and ${seed.deposits} deposits over 2 years…`)
    yield* program(options.concurrency).pipe(
      Effect.provide(Layer.provideMerge(client, ReferenceServer.layer({ host: "127.0.0.1", port: 0, seed }))),
      Effect.tap(() => Console.log(`(including seeding: ${((Date.now() - seeding) / 1000).toFixed(1)} s)`))
    )
  })
