// A pending transfer that settles later, against the reference service over 127.0.0.1: a following
// `transferChanges` stream emits it once as new (PENDING), then once more as an update with its
// settled status (same tranId and timestamp), and nothing else. Settled by hand through the store
// (deterministic), and by the service's own settlement delay.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import type { Checkpoint } from "@broker-history/client"
import type { TransferRecord } from "@broker-history/domain"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import { PendingSettlement } from "@broker-history/testing/ServerInternals"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Redacted, Schedule, Stream } from "effect"
import { transferRow } from "../support/Rows.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

/**
 * Polls `check` every 10 ms until it holds; fails naming `what` (and what it saw last) if it has not
 * held within 20 s: a bound for a hung test, not a time asserted.
 */
const eventually = <A>(what: string, check: Effect.Effect<A>, holds: (a: A) => boolean) =>
  Effect.gen(function*() {
    let last: A | undefined
    return yield* check.pipe(
      Effect.tap((a) => Effect.sync(() => (last = a))),
      Effect.repeat(Schedule.recurUntil(holds).pipe(Schedule.addDelay(() => "10 millis"))),
      Effect.timeoutFail({
        duration: "20 seconds",
        onTimeout: () => new Error(`${what}: not within 20 s (last seen: ${JSON.stringify(last)})`)
      })
    )
  })

/** A reference service (with `options`) and a following client of it, for the scope. */
const following = (options: ReferenceServer.Options) =>
  Effect.gen(function*() {
    const server = yield* Effect.provide(
      ReferenceServer.ReferenceServer,
      yield* Layer.build(ReferenceServer.layer({
        rateLimit: { limit: 100_000, window: "1 second" },
        ...options
      }))
    )
    const client = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
      baseUrl: server.baseUrl,
      apiKey: Redacted.make(ApiKeys.demo.apiKey),
      secretKey: Redacted.make(ApiKeys.demo.secretKey),
      rateLimit: { limit: 10_000, interval: "1 second" },
      retry: { maxRetries: 2, baseDelay: "5 millis", maxDelay: "20 millis" }
    })))
    const history = yield* Effect.provide(BrokerHistory.BrokerHistory, yield* Layer.build(client))
    const seen: Array<Checkpoint.Change<TransferRecord.TransferRecord>> = []
    // A small interval, and a settlement window far longer than any delay here.
    const fiber = yield* Effect.fork(
      history.transferChanges({
        ...base,
        since: Date.now() - 60_000,
        follow: { interval: "50 millis", settlement: "1 minute" }
      })
        .pipe(Stream.runForEach((change) => Effect.sync(() => seen.push(change))))
    )
    // The stream is live once it has read a record inserted before it started.
    yield* server.store.insertTransfers([transferRow(1, Date.now() - 1_000)])
    yield* eventually("the stream reads", Effect.sync(() => seen.length), (n) => n === 1)
    return { server, seen, fiber }
  })

/** The stream's requests so far, by the service's count. */
const requests = (server: ReferenceServer.Service) => Effect.map(server.stats, (s) => s.requests)

/** Waits for `polls` more requests of the stream: whatever they read has been emitted by then. */
const morePolls = (server: ReferenceServer.Service, polls: number) =>
  Effect.gen(function*() {
    const from = yield* requests(server)
    yield* eventually(`${polls} more polls`, requests(server), (n) => n >= from + polls)
  })

const shapeOf = (change: Checkpoint.Change<TransferRecord.TransferRecord>) => ({
  kind: change.kind,
  tranId: change.record.tranId,
  timestamp: change.record.timestamp,
  status: change.record.status,
  amount: change.record.amount
})

describe("a pending transfer that settles, followed", () => {
  it.live("settled through the store: emitted once pending, once settled, nothing else", () =>
    Effect.gen(function*() {
      const { fiber, seen, server } = yield* following({})
      const pending = transferRow(2, Date.now() - 1)
      yield* server.store.insertTransfers([{ ...pending, status: "PENDING" }])
      yield* eventually("the pending record", Effect.sync(() => seen.length), (n) => n === 2)
      yield* morePolls(server, 5)
      yield* server.store.settleTransfers([{ tranId: "2", status: "FAILED" }])
      yield* eventually("the settled record", Effect.sync(() => seen.length), (n) => n >= 3)
      yield* morePolls(server, 10)
      expect(fiber.unsafePoll()).toBeNull()
      yield* Fiber.interrupt(fiber)
      const record = { tranId: "2", timestamp: pending.timestamp, amount: pending.amount }
      expect(seen.slice(1).map(shapeOf)).toEqual([
        { kind: "new", ...record, status: "PENDING" },
        { kind: "update", ...record, status: "FAILED" }
      ])
    }).pipe(Effect.scoped), 60_000)

  it.live(
    "settled by the service's settlement delay: emitted once pending, once settled, nothing else",
    () =>
      Effect.gen(function*() {
        // The delay is long against the 50 ms interval, so the stream reads the record while it is pending.
        const { fiber, seen, server } = yield* following({ pendingSettlement: { after: "4 seconds", failedShare: 0 } })
        const pending = transferRow(3, Date.now())
        yield* server.store.insertTransfers([{ ...pending, status: "PENDING" }])
        yield* eventually("the pending record", Effect.sync(() => seen.length), (n) => n === 2)
        yield* eventually("the settled record", Effect.sync(() => seen.length), (n) => n >= 3)
        yield* morePolls(server, 10)
        yield* Fiber.interrupt(fiber)
        const record = { tranId: "3", timestamp: pending.timestamp, amount: pending.amount }
        expect(seen.slice(1).map(shapeOf)).toEqual([
          { kind: "new", ...record, status: "PENDING" },
          { kind: "update", ...record, status: PendingSettlement.settledStatus("3", 0) }
        ])
        expect((yield* server.store.allTransfers()).map((t) => [t.tranId, t.status])).toEqual([
          ["1", "SUCCESS"],
          ["3", "SUCCESS"]
        ])
      }).pipe(Effect.scoped),
    60_000
  )
})
