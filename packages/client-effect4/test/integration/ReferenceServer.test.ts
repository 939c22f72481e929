// The client against the reference service over real HTTP on 127.0.0.1: page calls, full-history
// streams (property tests), live inserts, injected faults, resume and interruption.
import type { Checkpoint } from "@broker-history/client-effect4"
import { DepositRecord } from "@broker-history/domain-effect4"
import type { Faults, Store } from "@broker-history/server"
import { ApiKeys } from "@broker-history/server"
import { Prng } from "@broker-history/testing/ServerInternals"
import { Effect, Fiber, Redacted, Stream } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "../support/EffectTest.js"
import type * as ReferenceService from "../support/ReferenceService.js"
import { transferRow as row } from "../support/Rows.js"
import { collect, withService } from "../support/WithService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

/**
 * Polls `check` every 10 ms until it holds and returns what it saw last; fails naming `what` (and
 * that last value) if it has not held within 10 s: a bound for a hung test, not a time asserted.
 */
const eventually = <A, E>(what: string, check: Effect.Effect<A, E>, holds: (a: A) => boolean) =>
  Effect.gen(function*() {
    let last: A | undefined
    for (let polls = 0; polls < 1_000; polls++) {
      last = yield* check
      if (holds(last)) return last
      yield* Effect.sleep("10 millis")
    }
    return yield* Effect.die(new Error(`${what}: not within 10 s (last seen: ${JSON.stringify(last)})`))
  })

/** The service's expected answer for `base` over [since, until], ascending. */
const expectedIds = (store: ReferenceService.Bridged["store"], since: number, until: number) =>
  Effect.map(
    store.allTransfers({ fromAccount: null, toAccount: null, fromAccountType: "SPOT", toAccountType: "FUTURES" }),
    (rows) => rows.filter((r) => r.timestamp >= since && r.timestamp <= until).map((r) => r.tranId)
  )

describe("client ↔ reference service over 127.0.0.1", () => {
  it.live("page calls on both endpoints return the service's records, decoded", () =>
    withService(
      { seed: { seed: 7, transfers: 2000, deposits: 500, end: END } },
      {},
      (server, history) =>
        Effect.gen(function*() {
          const page = yield* history.transferHistory({ ...base, limit: 50, startTime: 0, endTime: END })
          const all = yield* server.store.allTransfers({
            fromAccount: null,
            toAccount: null,
            fromAccountType: "SPOT",
            toAccountType: "FUTURES"
          })
          expect(page.length).toBe(Math.min(50, all.length))
          // Newest first on the service's side; amounts byte for byte.
          const newest = [...all].reverse().slice(0, page.length)
          expect(page.map((t) => [t.tranId, t.amount])).toEqual(newest.map((t) => [t.tranId, t.amount]))
          const deposits = yield* history.depositHistory({ startTime: END - 10 * day, endTime: END, limit: 1000 })
          const expected = (yield* server.store.allDeposits()).filter((d) =>
            d.insertTime >= END - 10 * day && d.insertTime <= END
          )
          expect(deposits.length).toBe(expected.length)
          expect(new Set(deposits.map(DepositRecord.key))).toEqual(new Set(expected.map(DepositRecord.key)))
          const wide = yield* Effect.flip(history.depositHistory({ startTime: 0, endTime: END }))
          expect(wide).toMatchObject({ _tag: "ApiError", code: 33333 })
        })
    ))

  it.live("credentials and permissions are enforced end to end", () =>
    Effect.gen(function*() {
      const readOnlyTransfers: ApiKeys.ApiKey = {
        apiKey: "t-only",
        secretKey: "t-secret",
        permissions: ["SPOT_TRANSFER_READ"]
      }
      yield* withService(
        { keys: [ApiKeys.demo, readOnlyTransfers] },
        { apiKey: Redacted.make("t-only"), secretKey: Redacted.make("t-secret") },
        (_server, history) =>
          Effect.gen(function*() {
            expect(yield* history.transferHistory(base)).toEqual([])
            expect(yield* Effect.flip(history.depositHistory({}))).toMatchObject({
              _tag: "AuthenticationError",
              reason: "Permission"
            })
          })
      )
      const badSecret = yield* withService({}, { secretKey: Redacted.make("wrong") }, (_s, h) =>
        Effect.flip(h.depositHistory({})))
      expect(badSecret).toMatchObject({ _tag: "AuthenticationError", reason: "Signature" })
    }))

  it.live.prop(
    "property: the full-history stream equals the service's set, ascending, exactly once",
    {
      clusters: fc.array(fc.record({ at: fc.integer({ min: 0, max: 400 }), n: fc.integer({ min: 1, max: 12 }) }), {
        maxLength: 25
      }),
      limit: fc.integer({ min: 2, max: 40 }),
      maxWindow: fc.constantFrom(undefined, 3 * day, 30 * day),
      concurrency: fc.integer({ min: 1, max: 3 })
    },
    ({ clusters, concurrency, limit, maxWindow }) => {
      const rows: Array<Store.TransferRow> = []
      let id = 1
      // Times in minutes over ~400 days, several records per millisecond in some clusters.
      for (const c of clusters) for (let k = 0; k < c.n; k++) rows.push(row(id++, END - c.at * day + (k % 3)))
      const since = END - 401 * day
      return withService(
        { maxWindow: { transfers: maxWindow } },
        maxWindow === undefined ? {} : { maxWindow: { transfers: maxWindow } },
        (server, history) =>
          Effect.gen(function*() {
            yield* server.store.insertTransfers(rows)
            const out = yield* collect(history.transfers({ ...base, since, until: END, limit, concurrency }))
            expect(out.map((t) => t.tranId)).toEqual(yield* expectedIds(server.store, since, END))
          })
      )
    },
    { timeout: 120_000, fastCheck: { numRuns: 12 } }
  )

  it.live("deposits: a seeded two-year history in 10-day windows, exactly the service's set", () =>
    withService(
      { seed: { seed: 11, transfers: 0, deposits: 3000, end: END } },
      {},
      (server, history) =>
        Effect.gen(function*() {
          const out = yield* collect(
            history.deposits({ since: END - 731 * day, until: END, limit: 100, concurrency: 3 })
          )
          const expected = yield* server.store.allDeposits()
          expect(out.length).toBe(expected.length)
          expect(out.map(DepositRecord.key)).toEqual(
            [...expected].sort((a, b) =>
              a.insertTime - b.insertTime || (DepositRecord.key(a) < DepositRecord.key(b) ? -1 : 1)
            ).map(DepositRecord.key)
          )
          for (let i = 1; i < out.length; i++) expect(DepositRecord.compare(out[i - 1]!, out[i]!)).toBeLessThan(0)
        })
    ))

  it.live(
    "live inserts while streaming: none duplicated, none displaced, none after until",
    () =>
      withService({}, {}, (server, history) =>
        Effect.gen(function*() {
          const rows = Array.from({ length: 600 }, (_, i) => row(1000 + i, END - 600 * 1000 + i * 1000))
          yield* server.store.insertTransfers(rows)
          const original = rows.map((r) => r.tranId)
          let next = 100_000
          const out = yield* history.transfers({ ...base, since: END - 700_000, until: END, limit: 20 }).pipe(
            Stream.tap((t) =>
              // After each record: one insert behind the reader, one ahead of it, one after `until`.
              server.store.insertTransfers([
                row(next++, t.timestamp - 500),
                row(next++, Math.min(END, t.timestamp + 777)),
                row(next++, END + 1 + next)
              ])
            ),
            collect
          )
          const ids = out.map((t) => t.tranId)
          expect(new Set(ids).size).toBe(ids.length)
          for (const id of original) expect(ids).toContain(id)
          expect(out.every((t) => t.timestamp <= END)).toBe(true)
          for (let i = 1; i < out.length; i++) expect(out[i - 1]!.timestamp).toBeLessThanOrEqual(out[i]!.timestamp)
        })),
    60_000
  )

  it.live(
    "faults (5xx, 429 + Retry-After, drops, hangs, truncated bodies) still yield exactly the full set",
    () =>
      Effect.gen(function*() {
        for (const seed of [1, 2, 3]) {
          const faults: Faults.FaultOptions = {
            seed,
            serverError: 0.05,
            rateLimited: 0.03,
            retryAfterSeconds: 0,
            drop: 0.03,
            hang: 0.02,
            truncate: 0.03
          }
          yield* withService(
            { seed: { seed, transfers: 3000, deposits: 600, end: END } },
            { requestTimeout: "300 millis", retry: { maxRetries: 10, baseDelay: "5 millis", maxDelay: "20 millis" } },
            (server, history) =>
              Effect.gen(function*() {
                yield* server.setFaults(faults)
                const since = END - 731 * day
                const transfers = yield* collect(history.transfers({ ...base, since, until: END, limit: 50 }))
                const deposits = yield* collect(history.deposits({ since, until: END, limit: 200 }))
                yield* server.setFaults({})
                expect(transfers.map((t) => t.tranId)).toEqual(yield* expectedIds(server.store, since, END))
                expect(deposits.length).toBe((yield* server.store.allDeposits()).length)
                const stats = yield* server.stats
                const met = Object.values(stats.faults).reduce((a, b) => a + b, 0)
                expect(met).toBeGreaterThan(0)
              })
          )
        }
      }),
    // A bound for a hung run, not a time asserted: three seeds of faults take 1–2 minutes.
    240_000
  )

  it.live(
    "resume: interrupting at random points and continuing from the checkpoint equals one run",
    () =>
      withService(
        { seed: { seed: 5, transfers: 4000, deposits: 0, end: END } },
        {},
        (server, history) =>
          Effect.gen(function*() {
            const query = { ...base, since: END - 731 * day, until: END, limit: 25 }
            const full = yield* expectedIds(server.store, query.since, END)
            let checkpoint: Checkpoint.Checkpoint | undefined
            const got: Array<string> = []
            const next = Prng.mulberry32(17)
            while (got.length < full.length) {
              const take = Prng.int(next, 1, 60)
              const part = yield* collect(Stream.take(history.transferChanges({ ...query, resume: checkpoint }), take))
              if (part.length === 0) {
                break
              }
              got.push(...part.map((c) => c.record.tranId))
              checkpoint = part[part.length - 1]!.checkpoint
            }
            expect(got).toEqual(full)
          })
      ),
    60_000
  )

  it.live("interruption mid-request releases the request, the sockets and every fiber", () =>
    Effect.gen(function*() {
      const handles = () => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length
      const before = handles()
      yield* withService({ seed: { seed: 3, transfers: 2000, deposits: 0, end: END } }, {}, (server, history) =>
        Effect.gen(function*() {
          yield* server.setFaults({ hang: 1 })
          const fiber = yield* Effect.forkChild(collect(history.transfers({ ...base, since: 0, until: END })))
          // Interrupted only once a request is known to hang (not after a guessed delay).
          const hung = yield* eventually("a request hangs", server.stats, (stats) =>
            (stats.faults.hang ?? 0) > 0)
          expect(hung.faults.hang).toBeGreaterThan(0)
          yield* Fiber.interrupt(fiber)
          const exit = yield* Fiber.await(fiber)
          expect(exit._tag).toBe("Failure")
        }))
      // Sockets close asynchronously after the scope: wait (bounded) for the count to come back down.
      const after = yield* eventually("the sockets are released", Effect.sync(handles), (n) =>
        n <= before)
      expect(after).toBeLessThanOrEqual(before)
    }))
})
