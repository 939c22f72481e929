// The full-history streams against the reference service on every line: for any seeded history and
// range, every record of the range exactly once, ascending by time then id; a change stream resumed
// from any checkpoint goes on exactly where it stopped; the sub-account list whole, in order.
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { clientSettings, spotToFutures, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const base = spotToFutures.query

/** Ascending by time, ties by id: the streams' order. */
const ascending = <A>(records: ReadonlyArray<A>, compare: (a: A, b: A) => number) =>
  records.every((r, i) => i === 0 || compare(records[i - 1]!, r) < 0)

const range = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  from: fc.integer({ min: 0, max: 700 }),
  days: fc.integer({ min: 1, max: 200 }),
  limit: fc.constantFrom(7, 50, 500),
  concurrency: fc.constantFrom(1, 3)
})

describe.each(Lines.all)("full-history streams ($name)", (line) => {
  it("transfers: every record of the range once, ascending", () =>
    fc.assert(
      fc.asyncProperty(range, ({ concurrency, days, from, limit, seed }) =>
        withReferenceService({ seed: { seed, transfers: 1500, deposits: 0, end: END, years: 2 } }, (service) =>
          line.withClient(clientSettings(service), async (client) => {
            const since = END - (from + days) * day
            const until = END - from * day
            const got = success(await client.transfers({ ...base, since, until, limit, concurrency }))
            const expected = (await service.allTransfers(spotToFutures.filter))
              .filter((r) =>
                r.timestamp >= since && r.timestamp <= until
              )
            expect(got.map(TransferRecord.key)).toEqual(expected.map((r) =>
              r.tranId
            ))
            expect(ascending(got, TransferRecord.compare)).toBe(true)
            expect(got.map((r) => r.amount)).toEqual(expected.map((r) => r.amount))
          }))),
      { numRuns: 6 }
    ))

  it("deposits: every record of the range once, ascending", () =>
    fc.assert(
      fc.asyncProperty(range, ({ concurrency, days, from, seed }) =>
        withReferenceService({ seed: { seed, transfers: 0, deposits: 800, end: END, years: 2 } }, (service) =>
          line.withClient(clientSettings(service), async (client) => {
            const since = END - (from + days) * day
            const until = END - from * day
            const got = success(await client.deposits({ since, until, concurrency }))
            const expected = (await service.allDeposits()).filter((d) =>
              d.insertTime >= since && d.insertTime <= until
            )
            expect(new Set(got.map(DepositRecord.key)).size).toBe(got.length)
            expect([...got.map(DepositRecord.key)].sort()).toEqual(expected.map(DepositRecord.key).sort())
            expect(ascending(got, DepositRecord.compare)).toBe(true)
          }))),
      { numRuns: 5 }
    ))

  it("changes resumed from any checkpoint continue exactly where they stopped", () =>
    fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 300 }), (seed, cut) =>
        withReferenceService({ seed: { seed, transfers: 600, deposits: 0, end: END, years: 1 } }, (service) =>
          line.withClient(clientSettings(service), async (client) => {
            const query = { ...base, since: END - 365 * day, until: END, limit: 50 }
            const whole = success(await client.transferChanges(query))
            const first = success(await client.transferChanges(query, cut))
            const at = first.at(-1)
            const rest = at === undefined
              ? whole
              : success(await client.transferChanges({ ...query, resume: at.checkpoint }))
            expect([...first, ...rest].map((c) =>
              c.record.tranId
            )).toEqual(whole.map((c) => c.record.tranId))
            expect(whole.every((c) => c.kind === "new")).toBe(true)
          }))),
      { numRuns: 4 }
    ))

  it("subAccounts: the whole list once, in the service's order", () =>
    withReferenceService(
      { seed: { seed: 5, transfers: 10, deposits: 0, subAccounts: 450, end: END } },
      (service) =>
        line.withClient(clientSettings(service), async (client) => {
          const listed = success(await client.subAccounts())
          expect(listed.map((s) => s.subAccount)).toEqual((await service.allSubAccounts()).map((s) => s.name))
          const five = success(await client.subAccounts({}, 5))
          expect(five.map((s) => s.subAccount)).toEqual(listed.slice(0, 5).map((s) => s.subAccount))
        })
    ))
})
