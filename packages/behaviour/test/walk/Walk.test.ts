// The full-history walk's requests and output, against an in-memory endpoint, on both lines.
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Endpoint, Options, Request } from "../../src/Walk.js"
import { expectEnd, failureOf, values } from "../../src/Walk.js"
import * as Walks from "../../src/Walks.js"

interface R {
  readonly id: string
  readonly t: number
}

const newestFirst = (a: R, b: R) => b.t - a.t || (a.id < b.id ? 1 : -1)
const ascending = (rows: ReadonlyArray<R>) => [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1))

/** An in-memory endpoint over `rows`, newest first; `visibleAt` hides a record until the clock's `now`. */
const endpoint = (
  rows: ReadonlyArray<R>,
  visibleAt: (r: R, now: number) => boolean = () => true
): Endpoint<R> =>
({ endTime, limit, now, page, startTime }) =>
  rows.filter((r) => r.t >= startTime && r.t <= endTime && visibleAt(r, now)).sort(newestFirst)
    .slice((page - 1) * limit, page * limit)

/** An endpoint over `rows` whose pages past `pages` come back empty (a service that stops paging). */
const stopsAfter = (rows: ReadonlyArray<R>, pages: number): Endpoint<R> => {
  const inner = endpoint(rows)
  return (request) => request.page > pages ? [] : inner(request)
}

const options = (overrides: Partial<Options<R>> = {}): Options<R> => ({
  time: (r) => r.t,
  key: (r) => r.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  fingerprint: (r) => r.id,
  limit: 5,
  maxWindow: undefined,
  since: 0,
  until: 9_999,
  concurrency: 1,
  ...overrides
})

const text = (q: Request) => `${q.startTime}..${q.endTime}#${q.page}`

const rowsArb = fc.array(fc.record({ t: fc.integer({ min: 0, max: 9_999 }), n: fc.integer({ min: 1, max: 8 }) }), {
  maxLength: 30
}).map((clusters) => clusters.flatMap(({ n, t }, c) => Array.from({ length: n }, (_, i) => ({ id: `${c}-${i}`, t }))))

/** A deterministic random source from a seed (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
  return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296
}

describe.each(Walks.all)("Walk ($name): the requests of the full-history walk", (line) => {
  const records = (ep: Endpoint<R>, overrides: Partial<Options<R>> = {}, take?: number) =>
    line.run(ep, [{ kind: "records", options: options(overrides), take }]).then(({ requests, walks }) => ({
      requests,
      walk: walks[0]!
    }))

  it("every record once, ascending; every window from one short page", async () => {
    const rows = Array.from({ length: 23 }, (_, i) => ({ id: `r${i}`, t: i * 400 }))
    const { requests, walk } = await records(endpoint(rows))
    expectEnd(walk, "Done")
    expect(values(walk)).toEqual(ascending(rows))
    // Windows follow each other from `since` to `until`, each read once, page 1 only.
    expect(requests.every((q) => q.page === 1)).toBe(true)
    expect(requests[0]!.startTime).toBe(0)
    expect(requests[requests.length - 1]!.endTime).toBe(9_999)
  })

  it("resumed, starts after the checkpoint", async () => {
    const rows = [{ id: "a", t: 4_000 }, { id: "b", t: 5_000 }, { id: "c", t: 5_000 }, { id: "d", t: 6_000 }]
    const { requests, walk } = await records(endpoint(rows), { resume: { time: 5_000, ids: ["b"] } })
    expect(requests.map(text)).toEqual(["5000..9999#1"])
    expect(values<R>(walk).map((r) => r.id)).toEqual(["c", "d"])
  })

  it("a millisecond with more than a page is paged through, to its short page", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 }))
    const { requests, walk } = await records(endpoint(rows), { until: 999 })
    expect(values<R>(walk).map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort())
    expect(requests.map(text).filter((q) => q.startsWith("700..700#"))).toEqual([
      "700..700#1",
      "700..700#2",
      "700..700#3"
    ])
  })

  it("an exact multiple of a page in one millisecond: one page of another size tells it from a service that stops", async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, t: 700 }))
    const { requests, walk } = await records(endpoint(rows), { until: 999 })
    expect(values(walk)).toHaveLength(10)
    // Page 3 came back empty: page 3 of 4 (records 9 and 10) shows that nothing follows the tenth.
    expect(requests.filter((q) => q.startTime === 700 && q.endTime === 700).map((q) => `#${q.page}/${q.limit}`))
      .toEqual(["#1/5", "#2/5", "#3/5", "#3/4"])
  })

  it("a service that stops paging a millisecond fails the walk: IncompleteHistory (EmptyPage)", async () => {
    const rows = [...Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 })), { id: "later", t: 800 }]
    const { walk } = await records(stopsAfter(rows, 2), { until: 999 })
    expect(failureOf(walk)).toMatchObject({
      _tag: "IncompleteHistory",
      fields: {
        time: 700,
        received: 10,
        pages: 2,
        reason: "EmptyPage",
        request: { endpoint: "history", startTime: 700, endTime: 700, page: 3 }
      }
    })
  })

  it("at most maxPagesPerMillisecond pages of one millisecond: IncompleteHistory (PageLimit)", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, t: 700 }))
    const { requests, walk } = await records(endpoint(rows), {
      until: 999,
      maxPagesPerMillisecond: 3,
      endpoint: "transferHistory"
    })
    expect(failureOf(walk)).toMatchObject({
      _tag: "IncompleteHistory",
      fields: {
        time: 700,
        received: 15,
        pages: 3,
        reason: "PageLimit",
        request: { endpoint: "transferHistory", startTime: 700, endTime: 700, page: 4 }
      }
    })
    expect(requests.map(text).filter((q) => q.startsWith("700..700#"))).toEqual([
      "700..700#1",
      "700..700#2",
      "700..700#3"
    ])
  })

  it("a service that ignores page (the same page again): IncompleteHistory (NothingNew)", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 }))
    const inner = endpoint(rows)
    const { walk } = await records((q) => inner({ ...q, page: 1 }), { until: 999 })
    expect(failureOf(walk)).toMatchObject({
      _tag: "IncompleteHistory",
      fields: { received: 5, pages: 1, reason: "NothingNew" }
    })
  })

  it("onIncomplete that goes on: told once, the records received are emitted, the walk continues", async () => {
    const rows = [
      { id: "early", t: 100 },
      ...Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 })),
      { id: "later", t: 800 }
    ]
    const told: Array<unknown> = []
    const { walk } = await records(stopsAfter(rows, 2), { until: 999, onIncomplete: (e) => void told.push(e) })
    expectEnd(walk, "Done")
    expect(told).toEqual([
      expect.objectContaining({
        _tag: "IncompleteHistory",
        fields: expect.objectContaining({ received: 10, reason: "EmptyPage" })
      })
    ])
    const ids = values<R>(walk).map((r) => r.id)
    expect(ids).toContain("early")
    expect(ids).toContain("later")
    expect(ids.filter((id) => id.startsWith("r"))).toHaveLength(10)
  })

  it("a service that ignores the window fails at the first page: OutsideQuery naming the record", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, t: i * 200 }))
    // Every record, a page at a time, whatever the window: without the check, the walk narrows each
    // window to one millisecond and pages the whole history there, for every millisecond.
    let sent = 0
    const ignoresWindow: Endpoint<R> = ({ limit, page }) => {
      if (++sent > 100) throw new Error("more than 100 requests")
      return rows.slice((page - 1) * limit, page * limit)
    }
    const { requests, walk } = await records(ignoresWindow, { since: 1_000, until: 1_999 })
    const failure = failureOf(walk)
    expect(failure).toMatchObject({
      _tag: "ResponseDecodeError",
      fields: { reason: "OutsideQuery", request: { startTime: 1_000, endTime: 1_999, page: 1 } }
    })
    expect(failure.message).toContain(`record "r0" at 1970-01-01T00:00:00.000Z is outside the query's window`)
    expect(requests).toHaveLength(1)
  })

  it("take: only the requests needed", async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, t: i * 90 }))
    const { requests, walk } = await records(endpoint(rows), {}, 1)
    expect(values(walk)).toEqual([rows[0]])
    // The whole range, narrowed until a window fits a page.
    expect(requests.length).toBeLessThanOrEqual(6)
  })

  it("property: a hostile service (random answers) ends the walk, completed or failed, within a bounded number of requests", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer(),
          mode: fc.constantFrom("inside", "strays", "ignoresWindow", "ignoresPage"),
          limit: fc.integer({ min: 1, max: 6 }),
          until: fc.integer({ min: 0, max: 300 }),
          maxPagesPerMillisecond: fc.integer({ min: 1, max: 4 }),
          concurrency: fc.integer({ min: 1, max: 3 }),
          goOn: fc.boolean()
        }),
        async ({ concurrency, goOn, limit, maxPagesPerMillisecond, mode, seed, until }) => {
          const next = random(seed)
          const range = until + 1
          // Narrowing a window to one millisecond, its pages and the page of another size, for every millisecond.
          const bound = range * (Math.ceil(Math.log2(range)) + 4 + maxPagesPerMillisecond)
          // "ignoresWindow": a history of a few pages around the range, paged whatever the window.
          const history = Array.from(
            { length: (2 + Math.floor(next() * 20)) * limit },
            (_, i) => ({ id: `h${i}`, t: Math.floor(next() * (range + 200)) - 100 })
          )
          let sent = 0
          const hostile: Endpoint<R> = ({ endTime: e, page, startTime: s }) => {
            if (++sent > bound) throw new Error(`more than ${bound} requests`)
            if (mode === "ignoresWindow") return history.slice((page - 1) * limit, page * limit)
            // Mostly full pages (the walk narrows and pages), of records at random times of the window
            // (some outside it with "strays"), ids from a small pool (repeats); "ignoresPage" answers
            // every page of a window alike.
            const draw = mode === "ignoresPage" ? random(seed ^ (s * 31 + e)) : next
            const n = draw() < 0.7 ? limit : Math.floor(draw() * (limit + 2))
            return Array.from({ length: n }, () => ({
              id: `r${Math.floor(draw() * 3 * limit)}`,
              t: mode === "strays" && draw() < 0.05 ? e + 1 : s + Math.floor(draw() * (e - s + 1))
            }))
          }
          const { requests, walk } = await records(hostile, {
            limit,
            until,
            maxPagesPerMillisecond,
            concurrency,
            onIncomplete: goOn ? () => {} : undefined
          })
          // Completed, or failed with what the service did wrong; never the request bound.
          expectEnd(walk, "Done", "Failure")
          if (walk.end._tag === "Failure") {
            const failure = walk.end.failure
            if (failure._tag === "IncompleteHistory") expect(goOn).toBe(false)
            else expect(failure).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
          }
          expect(requests.length).toBeLessThanOrEqual(bound)
        }
      ),
      { numRuns: 60 }
    )
  })

  it("property: with windows fetched ahead, the same records in the same order, in disjoint windows", async () => {
    await fc.assert(
      fc.asyncProperty(
        rowsArb,
        fc.integer({ min: 2, max: 4 }),
        fc.option(fc.integer({ min: 50, max: 5_000 }), { nil: undefined }),
        async (rows, concurrency, maxWindow) => {
          const one = await records(endpoint(rows), { maxWindow })
          const many = await records(endpoint(rows), { maxWindow, concurrency })
          expect(values(one.walk)).toEqual(ascending(rows))
          expect(values(many.walk)).toEqual(ascending(rows))
          if (maxWindow !== undefined) {
            for (const q of many.requests) expect(q.endTime - q.startTime + 1).toBeLessThanOrEqual(maxWindow)
          }
        }
      ),
      { numRuns: 40 }
    )
  })
})

describe.each(Walks.all)("Walk ($name): follow, on the virtual clock", (line) => {
  it("after the walk, a settlement, then every interval a poll of the settlement window", async () => {
    const rows = [{ id: "a", t: 9_000 }, { id: "late", t: 10_500 }]
    // "late" exists from 10 s on the clock.
    const service = endpoint(rows, (r, now) => r.id !== "late" || now >= 10_000)
    const follow = { interval: 10_000, settlement: 2_000, now: (clock: number) => 9_999 + clock }
    const { requests, walks } = await line.run(service, [{ kind: "changes", options: options({ follow }) }], {
      advance: [1, 10_000, 60_000]
    })
    const walk = walks[0]!
    expectEnd(walk, "Interrupted")
    expect(walk.emitted.map(({ at, value }) => ({ at, value }))).toEqual([
      { at: 0, value: expect.objectContaining({ kind: "new", record: rows[0] }) },
      // The poll (its sleep began at 0 on the clock) reads from `until` − settlement + 1 to the server's now.
      { at: 10_000, value: expect.objectContaining({ kind: "new", record: rows[1] }) }
    ])
    expect(requests.filter((q) => q.now > 0).map(text).slice(0, 1)).toEqual(["8000..19999#1"])
    // A poll every interval, each of the settlement window up to the server's now.
    expect(requests.filter((q) => q.now > 0).map((q) => q.now)).toEqual(
      Array.from({ length: 7 }, (_, i) => 10_000 * (i + 1))
    )
  })

  it("a crowded millisecond that every poll reads again is told once", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 9_500 }))
    const told: Array<unknown> = []
    const follow = { interval: 10_000, settlement: 2_000, now: () => 9_999 }
    const { requests } = await line.run(stopsAfter(rows, 2), [{
      kind: "records",
      options: options({ follow, onIncomplete: (e) => void told.push(e.fields["time"]) })
    }], { advance: [1, 10_000, 10_000, 10_000] })
    // The walk and three polls read millisecond 9500 (each its first two pages).
    expect(requests.map(text).filter((q) => q === "9500..9500#2")).toHaveLength(4)
    expect(told).toEqual([9_500])
  })

  it("with windows fetched ahead: the polls go on from the first pass", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, t: i * 250 }))
    const follow = { interval: 1_000, settlement: 1_000, now: () => 9_999 }
    const { requests, walks } = await line.run(endpoint(rows), [{
      kind: "records",
      options: options({ follow, concurrency: 3 })
    }], { advance: [1, 1_000] })
    expect(values(walks[0]!)).toEqual(rows)
    expect(requests.filter((q) => q.now > 0).map(text)).toEqual(["9000..9999#1"])
  })
})
