import * as Boundary from "@broker-history/core/walk/Boundary"
import * as Emission from "@broker-history/core/walk/Emission"
import { Cause, Clock, Duration, Effect, Fiber, Option, Stream } from "effect"
import * as fc from "fast-check"
import type * as FullHistory from "../../../src/FullHistory.js"
import * as Walk from "../../../src/internal/walk/Walk.js"
import { describe, expect, it } from "../../support/EffectTest.js"
import * as TestClock from "../../support/TestClock.js"

interface R {
  readonly id: string
  readonly t: number
}

/** An in-memory endpoint over `rows` (newest first), recording every request. */
const endpoint = (rows: ReadonlyArray<R>, visibleAt: (r: R, now: number) => boolean = () => true) => {
  const requests: Array<string> = []
  const sizes: Array<string> = []
  const fetch = (startTime: number, endTime: number, page: number, limit: number) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      requests.push(`${startTime}..${endTime}#${page}`)
      sizes.push(`${startTime}..${endTime}#${page}/${limit}`)
      return rows.filter((r) => r.t >= startTime && r.t <= endTime && visibleAt(r, now))
        .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
        .slice((page - 1) * limit, page * limit)
    })
  return { fetch, requests, sizes }
}

const options = (
  fetch: FullHistory.Options<R>["fetch"],
  overrides: Partial<FullHistory.Options<R>> = {}
): FullHistory.Options<R> => ({
  fetch,
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

/** The events as they come, chunk by chunk. */
const chunks = (stream: Stream.Stream<Emission.Event<R>, unknown>) =>
  Effect.map(
    Stream.runCollect(Stream.mapArray(stream, (a) => [a])),
    (cs) => cs.map((c) => [...c])
  )

const windows = (events: ReadonlyArray<Emission.Event<R>>) => events.flatMap((e) => e._tag === "Window" ? [e] : [])

const rowsArb = fc.array(fc.record({ t: fc.integer({ min: 0, max: 9_999 }), n: fc.integer({ min: 1, max: 8 }) }), {
  maxLength: 30
}).map((clusters) => clusters.flatMap(({ n, t }, c) => Array.from({ length: n }, (_, i) => ({ id: `${c}-${i}`, t }))))

describe("Walk: the requests of the full-history walk", () => {
  it.effect("nothing is sent before the stream runs; windows follow each other; each is released", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 23 }, (_, i) => ({ id: `r${i}`, t: i * 400 }))
      const { fetch, requests } = endpoint(rows)
      const stream = Walk.events(options(fetch), 0)
      expect(requests).toEqual([])
      const cs = yield* chunks(stream)
      // Every chunk is one event (a window's records never share a chunk with what follows).
      expect(cs.every((c) => c.length <= 1)).toBe(true)
      const events = cs.flat()
      events.forEach((e, i) => {
        if (e._tag === "Window" && e.records.length > 0) expect(events[i + 1]).toEqual({ _tag: "Release" })
      })
      const ws = windows(events)
      expect(ws[0]!.start).toBe(0)
      expect(ws[ws.length - 1]!.end).toBe(9_999)
      for (let i = 1; i < ws.length; i++) expect(ws[i]!.start).toBe(ws[i - 1]!.end + 1)
      expect(ws.flatMap((w) => w.records).map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort())
      // Every window came from one short page: only page 1 was asked for.
      expect(requests.every((q) => q.endsWith("#1"))).toBe(true)
    }))

  it.effect("starts where the boundary is", () =>
    Effect.gen(function*() {
      const { fetch, requests } = endpoint([])
      yield* chunks(Walk.events(options(fetch), 5_000))
      expect(requests).toEqual(["5000..9999#1"])
    }))

  it.effect("a millisecond with more than a page is paged through, to its short page", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 }))
      const { fetch, requests } = endpoint(rows)
      const ws = windows((yield* chunks(Walk.events(options(fetch, { until: 999 }), 0))).flat())
      const crowded = ws.find((w) => w.start === 700 && w.end === 700)!
      expect(crowded.records.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort())
      expect(requests.filter((q) => q.startsWith("700..700#"))).toEqual(["700..700#1", "700..700#2", "700..700#3"])
    }))

  it.effect("an exact multiple of a page in one millisecond: one page of another size tells it from a service that stops", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, t: 700 }))
      const { fetch, sizes } = endpoint(rows)
      const ws = windows((yield* chunks(Walk.events(options(fetch, { until: 999 }), 0))).flat())
      expect(ws.find((w) => w.start === 700 && w.end === 700)!.records).toHaveLength(10)
      // Page 3 came back empty: page 3 of 4 (records 9 and 10) shows that nothing follows the tenth.
      expect(sizes.filter((q) => q.startsWith("700..700#"))).toEqual([
        "700..700#1/5",
        "700..700#2/5",
        "700..700#3/5",
        "700..700#3/4"
      ])
    }))

  /** An endpoint over `rows` whose pages past `pages` come back empty (a service that stops paging). */
  const stopsAfter = (rows: ReadonlyArray<R>, pages: number) => {
    const inner = endpoint(rows)
    return {
      ...inner,
      fetch: (s: number, e: number, page: number, limit: number) =>
        page > pages ? Effect.as(inner.fetch(s, e, page, limit), []) : inner.fetch(s, e, page, limit)
    }
  }

  it.effect("a service that stops paging a millisecond fails the walk: IncompleteHistory (EmptyPage)", () =>
    Effect.gen(function*() {
      const rows = [...Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 })), { id: "later", t: 800 }]
      const { fetch } = stopsAfter(rows, 2)
      const error = yield* Effect.flip(chunks(Walk.events(options(fetch, { until: 999 }), 0)))
      expect(error).toMatchObject({
        _tag: "IncompleteHistory",
        time: 700,
        received: 10,
        pages: 2,
        reason: "EmptyPage",
        request: { endpoint: "history", startTime: 700, endTime: 700, page: 3 }
      })
    }))

  it.effect("at most maxPagesPerMillisecond pages of one millisecond: IncompleteHistory (PageLimit)", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, t: 700 }))
      const { fetch, requests } = endpoint(rows)
      const error = yield* Effect.flip(
        chunks(Walk.events(options(fetch, { until: 999, maxPagesPerMillisecond: 3, endpoint: "transferHistory" }), 0))
      )
      expect(error).toMatchObject({
        _tag: "IncompleteHistory",
        time: 700,
        received: 15,
        pages: 3,
        reason: "PageLimit",
        request: { endpoint: "transferHistory", startTime: 700, endTime: 700, page: 4 }
      })
      expect(requests.filter((q) => q.startsWith("700..700#"))).toEqual(["700..700#1", "700..700#2", "700..700#3"])
    }))

  it.effect("a service that ignores page (the same page again): IncompleteHistory (NothingNew)", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 }))
      const { fetch } = endpoint(rows)
      const stubborn = (s: number, e: number, _page: number, limit: number) => fetch(s, e, 1, limit)
      const error = yield* Effect.flip(chunks(Walk.events(options(stubborn, { until: 999 }), 0)))
      expect(error).toMatchObject({ _tag: "IncompleteHistory", received: 5, pages: 1, reason: "NothingNew" })
    }))

  it.effect("onIncomplete that goes on: told once, the records received are emitted, the walk continues", () =>
    Effect.gen(function*() {
      const rows = [
        { id: "early", t: 100 },
        ...Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 700 })),
        { id: "later", t: 800 }
      ]
      const { fetch } = stopsAfter(rows, 2)
      const told: Array<unknown> = []
      const onIncomplete = (e: unknown) => Effect.sync(() => void told.push(e))
      const ws = windows((yield* chunks(Walk.events(options(fetch, { until: 999, onIncomplete }), 0))).flat())
      expect(told).toEqual([expect.objectContaining({ _tag: "IncompleteHistory", received: 10, reason: "EmptyPage" })])
      const ids = ws.flatMap((w) => w.records.map((r) => r.id))
      expect(ids).toContain("early")
      expect(ids).toContain("later")
      expect(ids.filter((id) => id.startsWith("r"))).toHaveLength(10)
    }))

  it.effect("follow: a crowded millisecond that every poll reads again is told once", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, t: 9_500 }))
      const { fetch, requests } = stopsAfter(rows, 2)
      const told: Array<number> = []
      const onIncomplete = (e: { readonly time: number }) => Effect.sync(() => void told.push(e.time))
      const follow = { interval: Duration.seconds(10), settlement: 2_000, now: Effect.succeed(9_999) }
      const fiber = yield* Stream.runDrain(Walk.events(options(fetch, { follow, onIncomplete }), 0)).pipe(
        Effect.forkChild
      )
      yield* TestClock.adjust("1 millis")
      for (let i = 0; i < 3; i++) yield* TestClock.adjust("10 seconds")
      yield* Fiber.interrupt(fiber)
      // The walk and three polls read millisecond 9500 (each its first two pages).
      expect(requests.filter((q) => q === "9500..9500#2")).toHaveLength(4)
      expect(told).toEqual([9_500])
    }))

  it.effect("a service that ignores the window fails at the first page: OutsideQuery naming the record", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, t: i * 200 }))
      const requests: Array<string> = []
      // Every record, a page at a time, whatever the window: without the check, the walk narrows each
      // window to one millisecond and pages the whole history there, for every millisecond.
      const ignoresWindow = (s: number, e: number, page: number, limit: number) =>
        requests.length >= 100
          ? Effect.die("more than 100 requests")
          : Effect.sync(() => {
            requests.push(`${s}..${e}#${page}`)
            return rows.slice((page - 1) * limit, page * limit)
          })
      const error = yield* Effect.flip(
        chunks(Walk.events(options(ignoresWindow, { since: 1_000, until: 1_999, concurrency: 1 }), 1_000))
      )
      expect(error).toMatchObject({
        _tag: "ResponseDecodeError",
        reason: "OutsideQuery",
        request: { startTime: 1_000, endTime: 1_999, page: 1 }
      })
      expect((error as Error).message).toContain(
        `record "r0" at 1970-01-01T00:00:00.000Z is outside the query's window`
      )
      expect(requests).toHaveLength(1)
    }))

  /** A deterministic random source from a seed (mulberry32). */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296
  }

  it.effect.prop(
    "property: a hostile fetch (random answers) ends the walk, completed or failed, within a bounded number of requests",
    {
      seed: fc.integer(),
      mode: fc.constantFrom("inside", "strays", "ignoresWindow", "ignoresPage"),
      limit: fc.integer({ min: 1, max: 6 }),
      until: fc.integer({ min: 0, max: 300 }),
      maxPagesPerMillisecond: fc.integer({ min: 1, max: 4 }),
      concurrency: fc.integer({ min: 1, max: 3 }),
      goOn: fc.boolean()
    },
    ({ concurrency, goOn, limit, maxPagesPerMillisecond, mode, seed, until }) =>
      Effect.gen(function*() {
        const next = random(seed)
        const range = until + 1
        // Narrowing a window to one millisecond, its pages and the page of another size, for every millisecond.
        const bound = range * (Math.ceil(Math.log2(range)) + 4 + maxPagesPerMillisecond)
        // "ignoresWindow": a history of a few pages around the range, paged whatever the window.
        const history = Array.from(
          { length: (2 + Math.floor(next() * 20)) * limit },
          (_, i) => ({ id: `h${i}`, t: Math.floor(next() * (range + 200)) - 100 })
        )
        let requests = 0
        const hostile = (s: number, e: number, page: number) =>
          Effect.suspend(() => {
            if (++requests > bound) return Effect.die(`more than ${bound} requests`)
            if (mode === "ignoresWindow") return Effect.succeed(history.slice((page - 1) * limit, page * limit))
            // Mostly full pages (the walk narrows and pages), of records at random times of the window
            // (some outside it with "strays"), ids from a small pool (repeats); "ignoresPage" answers
            // every page of a window alike.
            const draw = mode === "ignoresPage" ? random(seed ^ (s * 31 + e)) : next
            const n = draw() < 0.7 ? limit : Math.floor(draw() * (limit + 2))
            return Effect.succeed(Array.from({ length: n }, () => ({
              id: `r${Math.floor(draw() * 3 * limit)}`,
              t: mode === "strays" && draw() < 0.05 ? e + 1 : s + Math.floor(draw() * (e - s + 1))
            })))
          })
        const onIncomplete = goOn ? () => Effect.void : undefined
        const exit = yield* Effect.exit(
          Stream.runDrain(
            Walk.events(options(hostile, { limit, until, maxPagesPerMillisecond, concurrency, onIncomplete }), 0)
          )
        )
        // Completed, or failed with what the service did wrong; never the request bound.
        if (exit._tag === "Failure") {
          expect(Cause.hasDies(exit.cause), Cause.pretty(exit.cause)).toBe(false)
          const failure = Option.getOrThrow(Cause.findErrorOption(exit.cause))
          if (failure._tag === "IncompleteHistory") expect(goOn).toBe(false)
          else expect(failure).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery" })
        }
        expect(requests).toBeLessThanOrEqual(bound)
      }),
    { fastCheck: { numRuns: 60 } }
  )

  it.effect("take: only the requests needed", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, t: i * 90 }))
      const { fetch, requests } = endpoint(rows)
      const first = yield* Stream.runCollect(Stream.take(Walk.events(options(fetch), 0), 1))
      expect(first[0]!._tag).toBe("Window")
      // The whole range, narrowed until a window fits a page.
      expect(requests.length).toBeLessThanOrEqual(6)
    }))

  it.effect.prop(
    "property: run folds the events as the event stream would, chunk for chunk",
    { rows: rowsArb, concurrency: fc.integer({ min: 1, max: 3 }) },
    ({ concurrency, rows }) =>
      Effect.gen(function*() {
        const opts = options(endpoint(rows).fetch, { concurrency })
        const boundary = Boundary.start(opts.since, undefined)
        const step = Emission.records({ ...opts, settlement: undefined, resumedAt: Number.NEGATIVE_INFINITY })
        const outputs = (stream: Stream.Stream<R, unknown>) =>
          Effect.map(
            Stream.runCollect(Stream.mapArray(stream, (a) => [a])),
            (cs) => cs.map((c) => [...c])
          )
        const folded = yield* outputs(Walk.run(opts, boundary.time, Emission.initial(boundary), step))
        const expected = yield* outputs(
          Stream.mapAccum(
            Walk.events(options(endpoint(rows).fetch, { concurrency }), 0),
            () => Emission.initial(boundary),
            step
          )
        )
        expect(folded.flat()).toEqual(expected.flat())
        expect(folded.flat().map((r) => r.id)).toEqual(
          [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1)).map((r) => r.id)
        )
        // (An Effect 4 stream carries no empty arrays: the release that follows a window is an event, not
        // an empty chunk, and the chunks above are the same as the event stream's.)
      })
  )

  it.effect.prop(
    "property: with windows fetched ahead, the same records in the same order, in disjoint windows",
    {
      rows: rowsArb,
      concurrency: fc.integer({ min: 2, max: 4 }),
      maxWindow: fc.option(fc.integer({ min: 50, max: 5_000 }), { nil: undefined })
    },
    ({ concurrency, maxWindow, rows }) =>
      Effect.gen(function*() {
        const one = endpoint(rows)
        const many = endpoint(rows)
        const sequential = windows((yield* chunks(Walk.events(options(one.fetch, { maxWindow }), 0))).flat())
        const prefetched = windows(
          (yield* chunks(Walk.events(options(many.fetch, { maxWindow, concurrency }), 0))).flat()
        )
        const sorted = (ws: ReadonlyArray<{ records: ReadonlyArray<R> }>) =>
          ws.map((w) => [...w.records].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1)))
        expect(sorted(prefetched).flat()).toEqual(sorted(sequential).flat())
        expect(prefetched[0]!.start).toBe(0)
        expect(prefetched[prefetched.length - 1]!.end).toBe(9_999)
        for (let i = 1; i < prefetched.length; i++) expect(prefetched[i]!.start).toBe(prefetched[i - 1]!.end + 1)
        if (maxWindow !== undefined) {
          for (const q of many.requests) {
            const [s, e] = q.split("#")[0]!.split("..").map(Number)
            expect(e! - s! + 1).toBeLessThanOrEqual(maxWindow)
          }
        }
      }),
    { fastCheck: { numRuns: 40 } }
  )

  it.effect("follow: after the walk, a settlement, then every interval a poll of the settlement window", () =>
    Effect.gen(function*() {
      const rows = [{ id: "a", t: 9_000 }, { id: "late", t: 10_500 }]
      // "late" exists from 10 s on the clock.
      const { fetch, requests } = endpoint(rows, (r, now) => r.id !== "late" || now >= 10_000)
      const seen: Array<Emission.Event<R>> = []
      const follow = {
        interval: Duration.seconds(10),
        settlement: 2_000,
        now: Effect.map(Clock.currentTimeMillis, (now) => 9_999 + now)
      }
      const fiber = yield* Walk.events(options(fetch, { follow }), 0).pipe(
        Stream.runForEach((e) => Effect.sync(() => seen.push(e))),
        Effect.forkChild
      )
      yield* TestClock.adjust("1 millis")
      expect(seen.filter((e) => e._tag !== "Release")).toEqual([
        { _tag: "Window", start: 0, end: 9_999, records: [rows[0]], mode: "walk" },
        { _tag: "Settled", until: 9_999 }
      ])
      seen.length = 0
      requests.length = 0
      yield* TestClock.adjust("10 seconds")
      // The poll (its sleep began at 0 on the clock) reads from `until` − settlement + 1 to the server's now.
      expect(requests).toEqual(["8000..19999#1"])
      expect(seen.filter((e) => e._tag !== "Release")).toEqual([
        { _tag: "Window", start: 8_000, end: 19_999, records: [rows[1], rows[0]], mode: "poll" },
        { _tag: "Settled", until: 19_999 }
      ])
      yield* Fiber.interrupt(fiber)
      const before = requests.length
      yield* TestClock.adjust("1 minute")
      expect(requests.length).toBe(before)
    }))

  it.effect("follow with windows fetched ahead: the polls go on from the first pass", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, t: i * 250 }))
      const { fetch, requests } = endpoint(rows)
      const follow = { interval: Duration.seconds(1), settlement: 1_000, now: Effect.succeed(9_999) }
      const fiber = yield* Walk.events(options(fetch, { follow, concurrency: 3 }), 0).pipe(
        Stream.runDrain,
        Effect.forkChild
      )
      yield* TestClock.adjust("1 millis")
      requests.length = 0
      yield* TestClock.adjust("1 second")
      expect(requests).toEqual(["9000..9999#1"])
      yield* Fiber.interrupt(fiber)
    }))
})
