// Window widths learned from the reference service's refusals over real HTTP on 127.0.0.1: the
// service refuses transfer windows over 30 days (its message states the maximum) while the client is
// configured with none; what one stream learns, the others of the layer use.
import { DepositRecord } from "@broker-history/domain-effect4"
import { Effect } from "effect"
import { describe, expect, it } from "../support/EffectTest.js"
import type * as ReferenceService from "../support/ReferenceService.js"
import { transferRow as row } from "../support/Rows.js"
import { collect, withService } from "../support/WithService.js"

const day = 86_400_000
// A day boundary in the past, so that `until` is never after the server's now.
const END = Math.floor(Date.now() / day) * day - day
const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

/** The 400 answers the service gave so far: its refusals of windows too wide. */
const refused = (server: ReferenceService.Bridged) => Effect.map(server.stats, (stats) => stats.byStatus[400] ?? 0)

describe("window widths learned from the reference service (127.0.0.1)", () => {
  it.live("transfers over a year against a 30-day maximum: learned from one refusal, shared by the layer's streams", () =>
    withService({ maxWindow: { transfers: "30 days" } }, {}, (server, history) =>
      Effect.gen(function*() {
        // A transfer every three days over the year, two in some milliseconds.
        const rows = Array.from({ length: 150 }, (_, i) => row(1 + i, END - Math.floor(i / 1.25) * 3 * day))
        yield* server.store.insertTransfers(rows)
        const expected = (since: number) =>
          rows.filter((r) => r.timestamp >= since).sort((a, b) =>
            a.timestamp - b.timestamp || Number(a.tranId) - Number(b.tranId)
          )
            .map((r) => r.tranId)

        const since = END - 365 * day
        const first = yield* collect(history.transfers({ ...base, since, until: END, limit: 100 }))
        expect(first.map((t) => t.tranId)).toEqual(expected(since))
        // The refusal states the maximum: one refused window, then windows of exactly 30 days.
        expect(yield* refused(server)).toBe(1)

        // Every later stream of the layer plans within it from its first window: sequential, fetched
        // ahead, followed together.
        const later = END - 200 * day
        const second = yield* collect(history.transfers({ ...base, since: later, until: END, limit: 100 }))
        expect(second.map((t) => t.tranId)).toEqual(expected(later))
        const ahead = yield* collect(history.transferChanges({ ...base, since, until: END, limit: 20, concurrency: 4 }))
        expect(ahead.map((c) => c.record.tranId)).toEqual(expected(since))
        expect(yield* refused(server)).toBe(1)
      })))

  it.live("deposits configured wider than the service allows: the configured maximum is a bound, the service's is learned", () =>
    withService({ seed: { seed: 5, transfers: 0, deposits: 800, end: END, years: 1 } }, {
      maxWindow: { deposits: "60 days" }
    }, (server, history) =>
      Effect.gen(function*() {
        // The service refuses deposit windows over 10 days (its default), stating the width: both
        // 60-day windows in flight are refused, then every window is at most 10 days.
        const since = END - 365 * day
        const out = yield* collect(history.deposits({ since, until: END, limit: 1000, concurrency: 2 }))
        const expected = (yield* server.store.allDeposits()).filter((d) => d.insertTime >= since)
        expect(out.map(DepositRecord.key)).toEqual(
          [...expected].sort((a, b) =>
            a.insertTime - b.insertTime || (DepositRecord.key(a) < DepositRecord.key(b) ? -1 : 1)
          ).map(DepositRecord.key)
        )
        const first = yield* refused(server)
        expect(first).toBeGreaterThan(0)
        expect(first).toBeLessThanOrEqual(2)
        yield* collect(history.deposits({ since: END - 100 * day, until: END, limit: 1000 }))
        expect(yield* refused(server)).toBe(first)
      })))
})
