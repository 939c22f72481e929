// How the sync run (`Run`) writes, seen from the store: a failed write fails the sync with its SqlError, and an
// interrupted sync (writes slowed, several streams at once) leaves only
// whole batches, each stream's checkpoint that of its last committed batch; a restart then completes
// exactly. The service runs in this process; the database is SQLite in memory.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { ApiKeys, ReferenceServer, Seed } from "@broker-history/server"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Redacted } from "effect"
import * as Progress from "../src/internal/shared/Progress.js"
import * as Plan from "../src/internal/sync/plan/Plan.js"
import * as Run from "../src/internal/sync/run/Run.js"
import type { Settings } from "../src/internal/sync/run/Settings.js"
import * as Store from "../src/internal/sync/store/Store.js"

interface Committed {
  readonly stream: string
  readonly kind: "transfers" | "deposits"
  readonly records: number
  readonly position: Store.Position | undefined
}

/**
 * The store with `before` run ahead of every write (a delay, a failure), recording each write that
 * committed: the write and its record are one uninterruptible step, so the record is exact.
 */
const watched = (
  inner: Store.Service,
  before: (write: number) => Effect.Effect<void, SqlError>,
  committed: Array<Committed>
): Store.Service => {
  let writes = 0
  const wrap = <A>(
    kind: Committed["kind"],
    apply: (
      stream: string,
      records: ReadonlyArray<A>,
      position: Store.Position | undefined
    ) => Effect.Effect<void, SqlError>
  ) =>
  (stream: string, records: ReadonlyArray<A>, position: Store.Position | undefined) =>
    Effect.zipRight(
      Effect.suspend(() => before(++writes)),
      Effect.uninterruptible(
        Effect.tap(apply(stream, records, position), () =>
          committed.push({ stream, kind, records: records.length, position }))
      )
    )
  return {
    ...inner,
    forProfile: (profile) => watched(inner.forProfile(profile), before, committed),
    applyTransfers: wrap("transfers", inner.applyTransfers),
    applyDeposits: wrap("deposits", inner.applyDeposits)
  }
}

const subAccounts = 3
// Ten weeks of history, so that a year of deposits is a few requests.
const seed = { seed: 5, transfers: 3000, deposits: 400, subAccounts, years: 0.2 }
const settings: Settings = {
  transferStreams: Plan.transferStreams(
    Plan.defaultPairs(Seed.subAccountNames(subAccounts)),
    ["SPOT", "FUTURES"]
  ),
  since: { transfers: 0, deposits: Date.now() - 365 * 86_400_000 },
  reset: undefined,
  follow: undefined,
  settlement: 86_400_000,
  concurrency: 4,
  batchSize: 40,
  batchWait: 50,
  log: () => {},
  warn: () => {}
}

/** Runs the sync against the in-process service, with the store changed by `store`. */
const syncWith = (store: (inner: Store.Service) => Store.Service) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const inner = yield* Store.SyncStore
    const history = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
      baseUrl: server.baseUrl,
      apiKey: Redacted.make(ApiKeys.demo.apiKey),
      secretKey: Redacted.make(ApiKeys.demo.secretKey),
      rateLimit: { limit: 10_000, interval: "1 second" }
    })))
    return yield* Run.run(settings).pipe(
      Effect.scoped,
      Effect.provide(Layer.mergeAll(
        history,
        Layer.succeed(Store.SyncStore, store(inner)),
        Progress.layer({ label: "sync", endpoints: [], live: false })
      ))
    )
  })

/** What the committed writes leave: rows per kind, and each stream's last stored checkpoint. */
const expectedFrom = (committed: ReadonlyArray<Committed>) => {
  const counts = { transfers: 0, deposits: 0 }
  const checkpoints = new Map<string, unknown>()
  for (const c of committed) {
    counts[c.kind] += c.records
    if (c.position?._tag === "Checkpoint") checkpoints.set(c.stream, c.position.checkpoint)
  }
  return { counts, checkpoints }
}

const stored = Effect.gen(function*() {
  const store = yield* Store.SyncStore
  const streams = yield* store.streams
  const checkpoints = new Map<string, unknown>()
  for (const [id, s] of streams) checkpoints.set(id, Either.getOrThrow(s.checkpoint))
  return { counts: yield* store.counts, checkpoints }
})

const fresh = (program: Effect.Effect<void, unknown, Store.SyncStore | ReferenceServer.ReferenceServer>) =>
  program.pipe(
    Effect.provide(Store.layer(":memory:")),
    Effect.provide(ReferenceServer.layer({ seed })),
    Effect.scoped
  )

describe("Run: what a failed or interrupted sync leaves", () => {
  it.live("a write that fails fails the sync with its SqlError; only the batches before it are stored", () =>
    fresh(Effect.gen(function*() {
      const committed: Array<Committed> = []
      const refused = new SqlError({ cause: new Error("disk full"), message: "Failed to execute statement" })
      const error = yield* Effect.flip(
        syncWith((inner) => watched(inner, (n) => (n === 6 ? Effect.fail(refused) : Effect.void), committed))
      )
      expect(error).toBe(refused)
      // At most `concurrency` writes run at once: the first two at least had committed.
      expect(committed.length).toBeGreaterThanOrEqual(6 - settings.concurrency)
      const expected = expectedFrom(committed)
      expect(yield* stored).toEqual(expected)
      // Nothing was written after the failure but the writes already under way.
      expect(committed.length).toBeLessThan(6 + settings.concurrency)
    })))

  it.live("interrupted while writes are under way in several streams: whole batches only, checkpoints with their rows; a restart completes exactly", () =>
    fresh(Effect.gen(function*() {
      // The reference: the same sync, uninterrupted, into its own database.
      const complete = yield* syncWith((inner) => inner).pipe(
        Effect.provide(Store.layer(":memory:")),
        Effect.map((o) => o.counts)
      )
      expect(complete.transfers).toBeGreaterThan(settings.batchSize * 10)
      const committed: Array<Committed> = []
      const enough = yield* Deferred.make<void>()
      // Slow writes: the fetch runs ahead and batches wait in the buffers.
      const slow = (n: number) =>
        Effect.zipRight(n === 8 ? Deferred.succeed(enough, undefined) : Effect.void, Effect.sleep("20 millis"))
      const fiber = yield* Effect.fork(syncWith((inner) => watched(inner, slow, committed)))
      yield* Deferred.await(enough)
      yield* Fiber.interrupt(fiber)
      // At most `concurrency` writes run at once: the first four at least had committed.
      expect(committed.length).toBeGreaterThanOrEqual(8 - settings.concurrency)
      expect(yield* stored).toEqual(expectedFrom(committed))
      expect((yield* stored).counts.transfers).toBeLessThan(complete.transfers)
      // The restart reads on from the stored checkpoints: exactly the service's rows.
      const restarted = yield* syncWith((inner) => inner)
      expect(restarted.counts).toEqual(complete)
    })))

  it.live("catching up, each stream is written in full batches, the last one at its end smaller, even when pages come slower than batchWait", () =>
    Effect.gen(function*() {
      const runs: Array<Array<Committed>> = [[], []]
      for (const committed of runs) yield* syncWith((inner) => watched(inner, () => Effect.void, committed))
      // The first run reads every stream whole; the second re-reads each settlement window, then on.
      for (const committed of runs) {
        const byStream = new Map<string, Array<number>>()
        for (const c of committed) byStream.set(c.stream, [...(byStream.get(c.stream) ?? []), c.records])
        expect(byStream.size).toBeGreaterThan(0)
        for (const [stream, sizes] of byStream) {
          const before = sizes.slice(0, -1)
          expect({ stream, before }).toEqual({ stream, before: before.map(() => settings.batchSize) })
          expect(sizes[sizes.length - 1]).toBeGreaterThan(0)
          expect(sizes[sizes.length - 1]).toBeLessThanOrEqual(settings.batchSize)
        }
      }
      expect(runs[0].reduce((n, c) => n + c.records, 0)).toBeGreaterThan(settings.batchSize * 10)
    }).pipe(
      Effect.provide(Store.layer(":memory:")),
      // Each answer takes longer than `batchWait`: a timer would cut a batch while the next page is on its way.
      Effect.provide(ReferenceServer.layer({ seed, faults: { latency: `${settings.batchWait * 2} millis` } })),
      Effect.scoped
    ))
})
