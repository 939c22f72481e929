// Window widths learned from the reference service's refusals over 127.0.0.1, on every line: the
// service refuses transfer windows over 30 days (its message states the maximum) while the client is
// configured with none; what one stream learns, the others of the client use.
import * as DepositRecord from "@broker-history/core/record/DepositRecord"
import * as TransferRecord from "@broker-history/core/record/TransferRecord"
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Service } from "../src/ReferenceService.js"
import { clientSettings, spotToFutures, transferRow, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
// A day boundary in the past, so that `until` is never after the service's now.
const END = Math.floor(Date.now() / day) * day - day
const base = spotToFutures.query

/** The 400 answers the service gave so far: its refusals of windows too wide. */
const refused = async (service: Service) => (await service.stats()).byStatus[400] ?? 0

describe.each(Lines.all)("window widths learned from the service ($name)", (line) => {
  it("transfers over a year against a 30-day maximum: learned from one refusal, shared by the client's streams", () =>
    withReferenceService({ maxWindow: { transfers: "30 days" } }, async (service) => {
      // A transfer every three days over the year, two in some milliseconds.
      const rows = Array.from({ length: 150 }, (_, i) => transferRow(1 + i, END - Math.floor(i / 1.25) * 3 * day))
      await service.insertTransfers(rows)
      const expected = (since: number) =>
        rows.filter((r) => r.timestamp >= since)
          .sort((a, b) => a.timestamp - b.timestamp || Number(a.tranId) - Number(b.tranId))
          .map((r) => r.tranId)
      return line.withClient(clientSettings(service), async (client) => {
        const since = END - 365 * day
        const first = success(await client.transfers({ ...base, since, until: END, limit: 100 }))
        expect(first.map(TransferRecord.key)).toEqual(expected(since))
        // The refusal states the maximum: one refused window, then windows of exactly 30 days.
        expect(await refused(service)).toBe(1)

        // Every later stream of the client plans within it from its first window: sequential,
        // fetched ahead, followed together.
        const later = END - 200 * day
        const second = success(await client.transfers({ ...base, since: later, until: END, limit: 100 }))
        expect(second.map(TransferRecord.key)).toEqual(expected(later))
        const ahead = success(
          await client.transferChanges({ ...base, since, until: END, limit: 20, concurrency: 4 })
        )
        expect(ahead.map((c) => c.record.tranId)).toEqual(expected(since))
        expect(await refused(service)).toBe(1)
      })
    }))

  it("deposits configured wider than the service allows: the configured maximum is a bound, the service's is learned", () =>
    withReferenceService(
      { seed: { seed: 5, transfers: 0, deposits: 800, end: END, years: 1 } },
      (service) =>
        line.withClient(clientSettings(service, { maxWindow: { deposits: "60 days" } }), async (client) => {
          // The service refuses deposit windows over 10 days (its default), stating the width: both
          // 60-day windows in flight are refused, then every window is at most 10 days.
          const since = END - 365 * day
          const got = success(await client.deposits({ since, until: END, limit: 1000, concurrency: 2 }))
          const expected = (await service.allDeposits()).filter((d) => d.insertTime >= since)
          expect(got.map(DepositRecord.key)).toEqual(
            [...expected].sort((a, b) =>
              a.insertTime - b.insertTime || (DepositRecord.key(a) < DepositRecord.key(b) ? -1 : 1)
            ).map(DepositRecord.key)
          )
          const first = await refused(service)
          expect(first).toBeGreaterThan(0)
          expect(first).toBeLessThanOrEqual(2)
          success(await client.deposits({ since: END - 100 * day, until: END, limit: 1000 }))
          expect(await refused(service)).toBe(first)
        })
    ))
})
