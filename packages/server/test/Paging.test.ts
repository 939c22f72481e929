import * as Prng from "@broker-history/core/random/Prng"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import type { Store } from "../src/index.js"
import { depositsPath, json, signedGet, transfersPath } from "./support/Requests.js"
import { unlimited, withServer } from "./support/Server.js"

// Every run writes its own records under names no other run uses (a sub-account per run for
// transfers, a coin per run for deposits), so one server serves every run and each run's filter
// sees exactly the records that run wrote.
let run = 0
let nextTranId = 999_990 // ids cross from 6 to 7 digits in the first run

interface Walked {
  readonly pages: ReadonlyArray<ReadonlyArray<Record<string, unknown>>>
  readonly ids: ReadonlyArray<string>
}

const walk = (
  baseUrl: string,
  path: string,
  params: ReadonlyArray<readonly [string, string]>,
  limit: number,
  idOf: (record: Record<string, unknown>) => string,
  expectedCount: number
) =>
  Effect.gen(function*() {
    const pages: Array<ReadonlyArray<Record<string, unknown>>> = []
    for (let page = 1; page <= Math.floor(expectedCount / limit) + 2; page++) {
      const reply = yield* signedGet(
        baseUrl,
        path,
        [...params, ["page", String(page)], ["limit", String(limit)]],
        ApiKeys.demo
      )
      expect(reply.status).toBe(200)
      const records = json(reply) as Array<Record<string, unknown>>
      pages.push(records)
      // A short page (fewer than limit) is the end.
      if (records.length < limit) break
    }
    return { pages, ids: pages.flat().map(idOf) } satisfies Walked
  })

const checkPages = (walked: Walked, expected: ReadonlyArray<string>, limit: number) => {
  // Union of the pages = the filtered set, in order, with no duplicates.
  expect(walked.ids).toEqual(expected)
  expect(new Set(walked.ids).size).toBe(walked.ids.length)
  const pages = walked.pages
  for (const page of pages.slice(0, -1)) expect(page.length).toBe(limit)
  expect(pages[pages.length - 1]!.length).toBeLessThan(limit)
  // An exact multiple of the limit ends with an empty page; otherwise the last page is short.
  expect(pages.length).toBe(Math.floor(expected.length / limit) + 1)
  expect(pages[pages.length - 1]!.length).toBe(expected.length % limit)
}

const pairs = [["SPOT", "SPOT"], ["SPOT", "FUTURES"], ["FUTURES", "SPOT"], ["FUTURES", "FUTURES"]] as const

// Small limits are drawn often too, so that small data sets still span several pages.
const transferScenario = fc.oneof(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 20 })).chain((limit) =>
  fc.record({
    limit: fc.constant(limit),
    count: fc.oneof(
      fc.integer({ min: 0, max: 3 * limit + 2 }),
      fc.constantFrom(0, limit - 1, limit, 2 * limit, 2 * limit + 1)
    ),
    route: fc.constantFrom("masterToSub", "subToMaster", "subToSub"),
    pair: fc.constantFrom(...pairs),
    // Records fall in [0, distinctMillis) ms of the run's second: few distinct values, many ties.
    distinctMillis: fc.integer({ min: 30, max: 60 }),
    startTime: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    endTime: fc.option(fc.integer({ min: 25, max: 60 }), { nil: undefined }),
    byClientTranId: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
    seed: fc.integer()
  })
)

const depositScenario = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 20 })).chain((limit) =>
  fc.record({
    limit: fc.constant(limit),
    count: fc.oneof(fc.integer({ min: 0, max: 2 * limit + 2 }), fc.constantFrom(0, limit, 2 * limit, limit + 1)),
    byStatus: fc.boolean(),
    explicitWindow: fc.boolean(),
    distinctMillis: fc.integer({ min: 1, max: 60 }),
    seed: fc.integer()
  })
)

const base = 1_600_000_000_000

withServer({ rateLimit: unlimited })("paging invariants over HTTP", (it) => {
  it.effect.prop(
    "transfers: for random data, filters and limits 1..500, the pages are exactly the filtered set, newest first",
    { scenario: transferScenario },
    ({ scenario }) =>
      Effect.gen(function*() {
        const { baseUrl, store } = yield* ReferenceServer.ReferenceServer
        const next = Prng.mulberry32(scenario.seed)
        run++
        const sub = `paging-${run}@broker.test`
        const other = `paging-${run}-other@broker.test`
        const clientTranId = `R${String(run).padStart(31, "0")}`
        const [fromType, toType] = scenario.pair
        // Master -> master is left out: those rows would be shared by every run.
        const route = {
          fromAccount: scenario.route === "masterToSub" ? null : sub,
          toAccount: scenario.route === "subToMaster" ? null : scenario.route === "subToSub" ? other : sub
        }
        const rows: Array<Store.TransferRow> = []
        const make = (overrides: Partial<Store.TransferRow>): Store.TransferRow => ({
          tranId: String(nextTranId += Prng.int(next, 1, 3)),
          clientTranId: next() < 0.5 ? clientTranId : null,
          ...route,
          asset: "USDT",
          amount: "0.10000000",
          fromAccountType: fromType,
          toAccountType: toType,
          fromSymbol: "",
          toSymbol: "",
          status: "SUCCESS",
          timestamp: base + run * 1000 + Prng.int(next, 0, scenario.distinctMillis - 1),
          ...overrides
        })
        for (let i = 0; i < scenario.count; i++) rows.push(make({}))
        // Decoys: same accounts with the other account-type pair, and the reversed direction.
        const otherPair = pairs.find(([f, t]) => f !== fromType || t !== toType)!
        for (let i = 0; i < 5; i++) {
          rows.push(make({ fromAccountType: otherPair[0], toAccountType: otherPair[1] }))
          rows.push(make({ fromAccount: route.toAccount, toAccount: route.fromAccount }))
        }
        yield* store.insertTransfers(rows)

        const start = scenario.startTime === undefined ? undefined : base + run * 1000 + scenario.startTime
        const end = scenario.endTime === undefined ? undefined : base + run * 1000 + scenario.endTime
        const params: Array<readonly [string, string]> = []
        if (scenario.byClientTranId) params.push(["clientTranId", clientTranId])
        if (route.fromAccount !== null) params.push(["fromAccount", route.fromAccount])
        if (route.toAccount !== null) params.push(["toAccount", route.toAccount])
        params.push(["fromAccountType", fromType], ["toAccountType", toType])
        if (start !== undefined) params.push(["startTime", String(start)])
        if (end !== undefined) params.push(["endTime", String(end)])

        // The expected set, computed here from the generated rows.
        const expected = rows
          .filter((r) =>
            r.fromAccount === route.fromAccount && r.toAccount === route.toAccount && r.fromAccountType === fromType
            && r.toAccountType === toType && (!scenario.byClientTranId || r.clientTranId === clientTranId)
            && (start === undefined || r.timestamp >= start) && (end === undefined || r.timestamp <= end)
          )
          .sort((a, b) => b.timestamp - a.timestamp || Number(b.tranId) - Number(a.tranId))
          .map((r) => r.tranId)
        const walked = yield* walk(baseUrl, transfersPath, params, scenario.limit, (r) =>
          String(r.tranId), expected.length)
        checkPages(walked, expected, scenario.limit)
      }),
    { timeout: 90_000, fastCheck: { numRuns: 80 } }
  )

  it.effect.prop(
    "deposits: for random data, filters and limits 1..1000, the pages are exactly the filtered set, newest first",
    { scenario: depositScenario },
    ({ scenario }) =>
      Effect.gen(function*() {
        const { baseUrl, store } = yield* ReferenceServer.ReferenceServer
        const next = Prng.mulberry32(scenario.seed)
        run++
        const coin = `COIN${run}`
        // Inside the default window (the last 10 days) so that omitting both bounds also finds them.
        const t0 = Date.now() - 2 * 24 * 3600 * 1000 + run * 1000
        const rows: Array<Store.DepositRow> = []
        for (let i = 0; i < scenario.count + 10; i++) {
          rows.push({
            amount: "1.5",
            coin: i < scenario.count ? coin : `${coin}X`,
            network: "NET",
            status: Prng.int(next, 1, 12),
            address: `addr-${run}-${i}`,
            addressTag: null,
            txId: `tx-${run}-${i}`,
            unlockConfirm: "1",
            confirmTimes: "1",
            insertTime: t0 + Prng.int(next, 0, scenario.distinctMillis - 1),
            memo: null
          })
        }
        yield* store.insertDeposits(rows)
        const status = rows[0]?.status ?? 5
        const params: Array<readonly [string, string]> = [["coin", coin]]
        if (scenario.byStatus) params.push(["status", String(status)])
        if (scenario.explicitWindow) params.push(["startTime", String(t0)], ["endTime", String(t0 + 60)])
        const order = new Map(rows.map((r, i) => [r.txId, i]))
        const expected = rows
          .filter((r) => r.coin === coin && (!scenario.byStatus || r.status === status))
          .sort((a, b) => b.insertTime - a.insertTime || order.get(b.txId)! - order.get(a.txId)!)
          .map((r) => r.txId)
        const walked = yield* walk(
          baseUrl,
          depositsPath,
          params,
          scenario.limit,
          (r) => String(r.txId),
          expected.length
        )
        checkPages(walked, expected, scenario.limit)
      }),
    { timeout: 90_000, fastCheck: { numRuns: 40 } }
  )

  it.effect("examples: empty result, short last page, exact multiple of the limit", () =>
    Effect.gen(function*() {
      const { baseUrl, store } = yield* ReferenceServer.ReferenceServer
      const sub = "examples@broker.test"
      const rows: Array<Store.TransferRow> = Array.from({ length: 12 }, (_, i) => ({
        tranId: String(50_000_000 + i),
        clientTranId: null,
        fromAccount: sub,
        toAccount: null,
        asset: "BTC",
        amount: "0.00100000",
        fromAccountType: "FUTURES",
        toAccountType: "SPOT",
        fromSymbol: "",
        toSymbol: "",
        status: "SUCCESS",
        timestamp: base + Math.floor(i / 3)
      }))
      yield* store.insertTransfers(rows)
      const expected = [...rows].reverse().map((r) => r.tranId)
      const params = [["fromAccount", sub], ["fromAccountType", "FUTURES"], ["toAccountType", "SPOT"]] as const
      const idOf = (r: Record<string, unknown>) => String(r.tranId)
      // Empty: a filter nothing matches answers [] on page 1.
      const empty = yield* walk(baseUrl, transfersPath, [...params, ["endTime", String(base - 1)]], 5, idOf, 0)
      checkPages(empty, [], 5)
      expect(empty.pages).toEqual([[]])
      // Short last page: 12 = 5 + 5 + 2.
      const short = yield* walk(baseUrl, transfersPath, params, 5, idOf, 12)
      checkPages(short, expected, 5)
      expect(short.pages.map((p) => p.length)).toEqual([5, 5, 2])
      // Exact multiple: 12 = 4 + 4 + 4, then an empty page.
      const exact = yield* walk(baseUrl, transfersPath, params, 4, idOf, 12)
      checkPages(exact, expected, 4)
      expect(exact.pages.map((p) => p.length)).toEqual([4, 4, 4, 0])
      // A page far past the end is empty, not an error.
      const far = yield* signedGet(baseUrl, transfersPath, [...params, ["page", "9007199254740991"]], ApiKeys.demo)
      expect([far.status, json(far)]).toEqual([200, []])
    }))
})
