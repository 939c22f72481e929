// The full-history streams against the reference service on every line: for any seeded or clustered
// history and range, every record of the range exactly once, ascending by time then id, records
// inserted while streaming neither duplicated nor displaced; a change stream resumed from any
// checkpoint, as often as it is cut, goes on exactly where it stopped.
import * as Prng from "@broker-history/core/random/Prng"
import * as DepositRecord from "@broker-history/core/record/DepositRecord"
import * as TransferRecord from "@broker-history/core/record/TransferRecord"
import type { Store } from "@broker-history/server"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Service } from "../src/ReferenceService.js"
import { clientSettings, spotToFutures, transferRow, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const base = spotToFutures.query

/** Ascending by time, ties by id: the streams' order. */
const ascending = <A>(records: ReadonlyArray<A>, compare: (a: A, b: A) => number) =>
  records.every((r, i) => i === 0 || compare(records[i - 1]!, r) < 0)

/** The ids of the service's transfers of `spotToFutures` over [since, until], ascending. */
const expectedIds = async (service: Service, since: number, until: number) =>
  (await service.allTransfers(spotToFutures.filter))
    .filter((r) => r.timestamp >= since && r.timestamp <= until)
    .map((r) => r.tranId)

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
            const first = success(await client.transferChanges(query, { take: cut }))
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

  it(
    "clustered histories (crowded milliseconds, a service window maximum): every record once, ascending",
    () =>
      fc.assert(
        fc.asyncProperty(
          fc.record({
            clusters: fc.array(
              fc.record({ at: fc.integer({ min: 0, max: 400 }), n: fc.integer({ min: 1, max: 12 }) }),
              { maxLength: 25 }
            ),
            limit: fc.integer({ min: 2, max: 40 }),
            maxWindowDays: fc.constantFrom(undefined, 3, 30),
            concurrency: fc.integer({ min: 1, max: 3 })
          }),
          ({ clusters, concurrency, limit, maxWindowDays }) => {
            const rows: Array<Store.TransferRow> = []
            let id = 1
            // Days over ~400 days, several records per millisecond in some clusters.
            for (const c of clusters) {
              for (let k = 0; k < c.n; k++) rows.push(transferRow(id++, END - c.at * day + (k % 3)))
            }
            const since = END - 401 * day
            const maxWindow = maxWindowDays === undefined ? undefined : { transfers: `${maxWindowDays} days` as const }
            return withReferenceService({ maxWindow }, async (service) => {
              await service.insertTransfers(rows)
              return line.withClient(clientSettings(service, { maxWindow }), async (client) => {
                const got = success(await client.transfers({ ...base, since, until: END, limit, concurrency }))
                expect(got.map(TransferRecord.key)).toEqual(await expectedIds(service, since, END))
              })
            })
          }
        ),
        { numRuns: 12 }
      ),
    120_000
  )

  it("deposits: a seeded two-year history in 10-day windows, exactly the service's set, in order", () =>
    withReferenceService(
      { seed: { seed: 11, transfers: 0, deposits: 3000, end: END } },
      (service) =>
        line.withClient(clientSettings(service), async (client) => {
          const got = success(await client.deposits({ since: END - 731 * day, until: END, limit: 100, concurrency: 3 }))
          const expected = [...await service.allDeposits()].sort((a, b) =>
            a.insertTime - b.insertTime || (DepositRecord.key(a) < DepositRecord.key(b) ? -1 : 1)
          )
          expect(got.map(DepositRecord.key)).toEqual(expected.map(DepositRecord.key))
          expect(ascending(got, DepositRecord.compare)).toBe(true)
        })
    ))

  it(
    "records inserted while streaming: none duplicated, none displaced, none after until",
    () =>
      withReferenceService({}, async (service) => {
        const rows = Array.from({ length: 600 }, (_, i) => transferRow(1000 + i, END - 600 * 1000 + i * 1000))
        await service.insertTransfers(rows)
        let next = 100_000
        return line.withClient(clientSettings(service), async (client) => {
          const got = success(
            await client.transfers({ ...base, since: END - 700_000, until: END, limit: 20 }, {
              // After each record: one insert behind the reader, one ahead of it, one after `until`.
              each: (t) =>
                service.insertTransfers([
                  transferRow(next++, t.timestamp - 500),
                  transferRow(next++, Math.min(END, t.timestamp + 777)),
                  transferRow(next++, END + 1 + next)
                ])
            })
          )
          // Every record read was followed by its three inserts, and some inserted ahead were read.
          expect(next - 100_000).toBe(3 * got.length)
          expect(got.length).toBeGreaterThan(rows.length)
          const ids = got.map(TransferRecord.key)
          expect(new Set(ids).size).toBe(ids.length)
          for (const row of rows) expect(ids).toContain(row.tranId)
          expect(got.every((t) => t.timestamp <= END)).toBe(true)
          for (let i = 1; i < got.length; i++) expect(got[i - 1]!.timestamp).toBeLessThanOrEqual(got[i]!.timestamp)
        })
      }),
    60_000
  )

  it(
    "changes cut at random points, each time resumed from the last checkpoint, equal one run",
    () =>
      withReferenceService(
        { seed: { seed: 5, transfers: 4000, deposits: 0, end: END } },
        (service) =>
          line.withClient(clientSettings(service), async (client) => {
            const query = { ...base, since: END - 731 * day, until: END, limit: 25 }
            const full = await expectedIds(service, query.since, END)
            let checkpoint: unknown = undefined
            const got: Array<string> = []
            const next = Prng.mulberry32(17)
            while (got.length < full.length) {
              const part = success(
                await client.transferChanges({ ...query, resume: checkpoint }, { take: Prng.int(next, 1, 60) })
              )
              if (part.length === 0) {
                break
              }
              got.push(...part.map((c) => c.record.tranId))
              checkpoint = part.at(-1)!.checkpoint
            }
            expect(got).toEqual(full)
          })
      ),
    60_000
  )
})
