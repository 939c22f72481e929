// What the full-history streams and page calls make of the service's answers (any order, repeats,
// strays, other accounts, a crowded millisecond), over the mock transport, on both lines.
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Ordering, Row } from "../../../client/test/support/MockHistory.js"
import { expected, transferService } from "../../../client/test/support/MockHistory.js"
import { transferWire } from "../../../client/test/support/MockService.js"
import { failure, success } from "../../src/Line.js"
import type { Handle, Service, Settings, Sim, StreamMethod } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"
import type { End } from "../../src/Walk.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const depositWire = {
  amount: "1.5",
  coin: "USDT",
  network: "TRC20",
  status: 5,
  address: "T1",
  addressTag: null,
  txId: "0xabc",
  unlockConfirm: 1,
  confirmTimes: 1,
  insertTime: 1_000,
  memo: null
}
const fast = { rateLimit: { limit: 10_000, interval: "1 millis" } } as const

const ids = (records: ReadonlyArray<unknown>) => (records as ReadonlyArray<{ tranId: string }>).map((r) => r.tranId)

/** The failure a stream ended with; any other end fails the test. */
const failed = (end: End | undefined) => {
  if (end?._tag === "Failure") return end.failure
  throw new Error(`expected a failure, the stream ended ${JSON.stringify(end)}`)
}

/**
 * Random histories: clustered times (ties, bursts), empty stretches. Each record's offset in its
 * cluster is drawn by fast-check (seeded by the run, shrinkable), folded into the cluster's spread.
 * With the rows comes the number of clusters (for the bound on requests).
 */
const historyArb = fc.array(
  fc.record({
    at: fc.integer({ min: 0, max: 100_000 }),
    spread: fc.integer({ min: 0, max: 50 }),
    offsets: fc.array(fc.nat({ max: 50 }), { minLength: 1, maxLength: 30 })
  }),
  { minLength: 0, maxLength: 8 }
).map((clusters) => {
  const rows: Array<Row> = []
  let id = 1000
  for (const c of clusters) {
    for (const offset of c.offsets) {
      rows.push({ tranId: String(id++), timestamp: c.at + offset % (c.spread + 1), status: "SUCCESS" })
    }
  }
  return { rows, clusters: clusters.length }
})

/**
 * The most requests a walk over a `historyArb` history may take: 1.15 × the pages its records need,
 * plus, per cluster (≤ 30 records within ≤ 51 ms), a binary search over the range to find where it
 * starts (⌈log2 range⌉ requests) and windows of fewer than `limit` records through it, each of which
 * may take one narrowing request (2 ⌈30 / (limit − 1)⌉); one more for the stretch after the last; and
 * with a maximum window, the ⌈range / maxWindow⌉ windows an empty range alone takes.
 */
const requestBound = (records: number, clusters: number, limit: number, range: number, maxWindow?: number) =>
  1.15 * Math.ceil(records / limit) +
  (clusters + 1) * (Math.ceil(Math.log2(range)) + 2 * Math.ceil(30 / Math.max(1, limit - 1))) +
  (maxWindow === undefined ? 0 : Math.ceil(range / maxWindow))

/** 12 transfers in millisecond 500 (and one before, one after), pages past 2 empty. */
const crowdedService = (): Service => {
  const rows: Array<Row> = [
    { tranId: "1", timestamp: 100, status: "SUCCESS" },
    ...Array.from({ length: 12 }, (_, i) => ({ tranId: String(100 + i), timestamp: 500, status: "SUCCESS" })),
    { tranId: "2", timestamp: 900, status: "SUCCESS" }
  ]
  const honest = transferService(rows)
  return { answer: (seen) => Number(seen.params.get("page")) > 2 ? { status: 200, body: [] } : honest(seen) }
}

describe.each(Simulations.all)("full-history streams ($name) against the service's answers", (line) => {
  /** Runs one stream to its end (the clock standing at `start`), returning it and the simulation. */
  const streamed = async (
    service: Service,
    method: StreamMethod,
    query: unknown,
    options: { readonly start?: number; readonly settings?: Settings; readonly take?: number } = {}
  ) => {
    let result: { stream: Handle; sim: Sim } | undefined
    await line.run(service, { start: options.start ?? 0, settings: { ...fast, ...options.settings } }, async (sim) => {
      const stream = options.take === undefined ? sim.start(method, query) : sim.take(options.take, method, query)
      await sim.adjust(0)
      result = { stream, sim }
    })
    return result!
  }

  it("property: any history, limit, window and server order → the expected set, ascending, exactly once, in a bounded number of requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          history: historyArb,
          limit: fc.integer({ min: 3, max: 30 }),
          maxWindow: fc.option(fc.integer({ min: 2_000, max: 40_000 }), { nil: undefined }),
          ordering: fc.constantFrom<Ordering>("newest-first", "oldest-first", "shuffled"),
          concurrency: fc.integer({ min: 1, max: 3 })
        }),
        async ({ concurrency, history: { clusters, rows }, limit, maxWindow, ordering }) => {
          const since = 0
          const until = 100_050
          // The service's now is after `until`, as for any range in the past.
          const { sim, stream } = await streamed(
            { answer: transferService(rows, { ordering }) },
            "transfers",
            { ...base, since, until, limit, concurrency },
            { start: until, settings: maxWindow === undefined ? {} : { maxWindow: { transfers: maxWindow } } }
          )
          expect(stream.end()).toEqual({ _tag: "Done" })
          const out = ids(stream.emitted)
          expect(out).toEqual(expected(rows, since, until))
          const bound = requestBound(out.length, clusters, limit, until - since + 1, maxWindow)
          expect(sim.requests.length, `${sim.requests.length} requests for ${out.length} records`)
            .toBeLessThanOrEqual(bound)
          if (maxWindow !== undefined) {
            for (const seen of sim.requests) {
              const width = Number(seen.params.get("endTime")) - Number(seen.params.get("startTime")) + 1
              expect(width).toBeLessThanOrEqual(maxWindow)
            }
          }
        }
      ),
      { numRuns: 40 }
    )
  })

  it("an exact multiple of the limit, and more than a page in one millisecond", async () => {
    const rows: Array<Row> = []
    for (let i = 0; i < 20; i++) rows.push({ tranId: String(100 + i), timestamp: 500, status: "SUCCESS" })
    for (let i = 0; i < 10; i++) rows.push({ tranId: String(200 + i), timestamp: 600 + i, status: "SUCCESS" })
    const { sim, stream } = await streamed({ answer: transferService(rows) }, "transfers", {
      ...base,
      since: 0,
      until: 1000,
      limit: 5
    })
    expect(ids(stream.emitted)).toEqual(expected(rows, 0, 1000))
    // Only the crowded millisecond is paged; no window is read past page 1 otherwise.
    const paged = sim.requests.filter((s) => s.params.get("page") !== "1")
    expect(paged.every((s) => s.params.get("startTime") === "500" && s.params.get("endTime") === "500")).toBe(true)
    expect(paged.length).toBeGreaterThan(0)
  })

  it("limit 1 still reads everything", async () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) => ({ tranId: String(10 + i), timestamp: (i % 4) * 100, status: "SUCCESS" })
    )
    const { stream } = await streamed({ answer: transferService(rows, { ordering: "shuffled" }) }, "transfers", {
      ...base,
      since: 0,
      until: 1000,
      limit: 1
    })
    expect(ids(stream.emitted)).toEqual(expected(rows, 0, 1000))
  })

  it("a record sent twice is emitted once", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ tranId: String(10 + i), timestamp: i * 7, status: "SUCCESS" }))
    const { stream } = await streamed({ answer: transferService(rows, { quirks: { repeat: true } }) }, "transfers", {
      ...base,
      since: 0,
      until: 300,
      limit: 8
    })
    expect(ids(stream.emitted)).toEqual(expected(rows, 0, 300))
  })

  it("a record outside the window is refused: OutsideQuery naming it and the request it came with", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ tranId: String(10 + i), timestamp: i * 7, status: "SUCCESS" }))
    const { sim, stream } = await streamed(
      { answer: transferService(rows, { quirks: { outside: true } }) },
      "transfers",
      { ...base, since: 0, until: 300, limit: 8 }
    )
    const error = failed(stream.end())
    expect(error).toMatchObject({
      _tag: "ResponseDecodeError",
      fields: { reason: "OutsideQuery", request: { page: 1 } }
    })
    const { endTime, startTime } = error.fields["request"] as { startTime: number; endTime: number }
    expect(error.message).toContain(
      `record "999999" at ${new Date(endTime + 1).toISOString()} is outside the query's window ${
        new Date(startTime).toISOString()
      }..${new Date(endTime).toISOString()}`
    )
    // The first short page (with its stray) ends the stream; the full pages before it were narrowed.
    const last = sim.requests[sim.requests.length - 1]!.params
    expect([startTime, endTime]).toEqual([Number(last.get("startTime")), Number(last.get("endTime"))])
  })

  it("records of another account than the query's are refused, in the streams and the page calls", async () => {
    // A service that answers every transfer query with transfers to "sub@x", whatever the query's accounts.
    const rows = [{ tranId: "1", timestamp: 100, status: "SUCCESS" }]
    const service = { answer: transferService(rows, { quirks: { ignoresAccounts: true } }) }
    const { stream } = await streamed(service, "transfers", { ...base, toAccount: "sub2@x", since: 0, until: 300 })
    const streamedError = failed(stream.end())
    expect(streamedError).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
    expect(streamedError.message).toContain(
      `record "1" at 1970-01-01T00:00:00.100Z has toAccount "sub@x", not "sub2@x"`
    )
    await line.run(service, { start: 0, settings: fast }, async (sim) => {
      const paged = failure(
        await sim.call("transferHistory", { ...base, fromAccountType: "FUTURES", toAccountType: "SPOT" })
      )
      expect(paged.message).toContain(`has fromAccountType "SPOT", not "FUTURES"`)
      // The query that matches is answered as it was.
      const matching = success(await sim.call("transferHistory", { ...base, toAccount: "sub@x" }))
      expect(ids(matching as ReadonlyArray<unknown>)).toEqual(["1"])
    })
  })

  it("an omitted account is the master account: one account across an answer", async () => {
    const wire = (tranId: string, toAccount: string) => ({ ...transferWire(tranId, 100), toAccount })
    const service = { answer: () => ({ status: 200, body: [wire("1", "sub1@x"), wire("2", "sub2@x")] }) }
    await line.run(service, { start: 0, settings: fast }, async (sim) => {
      const error = failure(await sim.call("transferHistory", base))
      expect(error.message).toContain(
        `record "2" at 1970-01-01T00:00:00.100Z has toAccount "sub2@x" where record "1" at 1970-01-01T00:00:00.100Z ` +
          `of the same answer has "sub1@x": the query omitted toAccount, which means the master account, one account`
      )
    })
  })

  it("page calls: a record outside the startTime/endTime asked for, or of another coin, is refused", async () => {
    const service: Service = {
      answer: (seen) =>
        seen.path.endsWith("subHisrec")
          ? { status: 200, body: [{ ...depositWire, coin: "BTC" }] }
          : { status: 200, body: [transferWire("7", 2_000)] }
    }
    await line.run(service, { start: 0, settings: fast }, async (sim) => {
      const outside = failure(await sim.call("transferHistory", { ...base, startTime: 0, endTime: 1_999 }))
      expect(outside).toMatchObject({
        _tag: "ResponseDecodeError",
        fields: { reason: "OutsideQuery", request: { endpoint: "transferHistory", startTime: 0, endTime: 1_999 } }
      })
      expect(outside.message).toContain(`record "7" at 1970-01-01T00:00:02.000Z is outside the query's window`)
      // Without a window in the query, any time is the service's to choose.
      expect(success(await sim.call("transferHistory", base))).toHaveLength(1)
      const coin = failure(await sim.call("depositHistory", { coin: "USDT" }))
      expect(coin.message).toContain(`has coin "BTC", not "USDT"`)
    })
  })

  it("a millisecond the service does not page through fails the stream: IncompleteHistory", async () => {
    const { stream } = await streamed(crowdedService(), "transfers", { ...base, since: 0, until: 1000, limit: 5 })
    expect(failed(stream.end())).toMatchObject({
      _tag: "IncompleteHistory",
      fields: {
        time: 500,
        received: 10,
        pages: 2,
        reason: "EmptyPage",
        request: { endpoint: "transferHistory", startTime: 500, endTime: 500, page: 3 }
      }
    })
  })

  it("resume: stopping anywhere and continuing from the checkpoint equals one run", async () => {
    const rows: Array<Row> = []
    let id = 1
    for (let t = 0; t < 60; t++) {
      for (let k = 0; k < (t % 4) + 1; k++) rows.push({ tranId: String(id++), timestamp: t * 10, status: "SUCCESS" })
    }
    const service = { answer: transferService(rows, { ordering: "shuffled" }) }
    const query = { ...base, since: 0, until: 1000, limit: 7 }
    const full = ids((await streamed(service, "transfers", query)).stream.emitted)
    for (const cut of [1, 2, 5, 13, 40, full.length - 1]) {
      const pieces: Array<string> = []
      let checkpoint: unknown = undefined
      for (let run = 0; run <= full.length && pieces.length < full.length; run++) {
        const { stream } = await streamed(service, "transferChanges", { ...query, resume: checkpoint }, { take: cut })
        const changes = stream.emitted as ReadonlyArray<{ record: { tranId: string }; checkpoint: unknown }>
        if (changes.length === 0) break
        pieces.push(...changes.map((c) => c.record.tranId))
        checkpoint = changes[changes.length - 1]!.checkpoint
      }
      expect(pieces).toEqual(full)
    }
  })

  it("resume without since continues from a checkpoint older than the default lookback", async () => {
    const year = 365 * 86_400_000
    const rows = [0, 1, 2].map((i) => ({ tranId: String(10 + i), timestamp: i * year, status: "SUCCESS" }))
    const { stream } = await streamed(
      { answer: transferService(rows) },
      "transfers",
      { ...base, until: 2 * year + 1, resume: { time: 0, ids: ["10"] } },
      { start: 2 * year + 1 }
    )
    expect(ids(stream.emitted)).toEqual(["11", "12"])
  })

  it("live inserts while paging: nothing duplicated or displaced; records after until are not emitted", async () => {
    const rows = Array.from(
      { length: 200 },
      (_, i) => ({ tranId: String(10_000 + i), timestamp: i * 50, status: "SUCCESS" })
    )
    const original = expected(rows, 0, 10_000)
    let next = 50_000
    const answer = transferService(rows, {
      beforeAnswer: (seen) => {
        // Every request: one record inside the current window, one after `until`.
        const start = Number(seen.params.get("startTime"))
        rows.push({ tranId: String(next++), timestamp: start, status: "SUCCESS" })
        rows.push({ tranId: String(next++), timestamp: 20_000 + seen.n, status: "SUCCESS" })
      }
    })
    const { stream } = await streamed({ answer }, "transfers", { ...base, since: 0, until: 10_000, limit: 9 })
    const out = ids(stream.emitted)
    expect(new Set(out).size).toBe(out.length)
    for (const id of original) expect(out).toContain(id)
    expect(out.every((id) => rows.find((r) => r.tranId === id)!.timestamp <= 10_000)).toBe(true)
  })

  it.each([
    [{ ...base, limit: 501 }, "limit"],
    [{ ...base, concurrency: 0 }, "concurrency"],
    [{ ...base, since: 10, until: 5 }, "since"],
    [{ ...base, since: "not a date" }, "since"],
    [{ ...base, resume: { time: -1, ids: [] } }, "resume"],
    [{ ...base, follow: { interval: "30 seconds" } }, "follow"],
    [{ ...base, clientTranId: "x" }, "clientTranId"],
    [{ ...base, pageSize: 3 }, "pageSize"]
  ])("rejects %j with InvalidQuery(%s) before any request", async (query, parameter) => {
    const { sim, stream } = await streamed({ answer: transferService([]) }, "transfers", query)
    expect(failed(stream.end())).toMatchObject({ _tag: "InvalidQuery", fields: { parameter } })
    expect(sim.requests.length + sim.timeRequests.length).toBe(0)
  })

  it("the change stream rejects a follow interval that is not positive, before any request", async () => {
    const { sim, stream } = await streamed({ answer: transferService([]) }, "transferChanges", {
      ...base,
      follow: { interval: "0 millis" }
    })
    expect(failed(stream.end())).toMatchObject({ _tag: "InvalidQuery", fields: { parameter: "follow.interval" } })
    expect(sim.requests.length + sim.timeRequests.length).toBe(0)
  })
})
