// The walk against services that refuse windows wider than a maximum they do not publish: widths
// learned from the refusals, shared by the walks given the same `windowWidths`.
import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
import { Cause, Clock, Duration, Effect, Fiber, Logger, Option, References, Stream } from "effect"
import * as fc from "fast-check"
import { ApiError } from "../../../src/BrokerError.js"
import * as FullHistory from "../../../src/FullHistory.js"
import { describe, expect, it } from "../../support/EffectTest.js"
import * as VirtualClock from "../../support/VirtualClock.js"

interface R {
  readonly id: string
  readonly t: number
}

const day = 86_400_000

/** How the service words its refusal: stating its maximum (as the reference service), not, or wrongly. */
type Wording = "stated" | "plain" | "misstated"

const refusalText = (wording: Wording, max: number, width: number): string =>
  wording === "stated"
    ? `Param is error: endTime - startTime must not exceed ${max - 1} ms`
    : wording === "plain"
    ? "Param is error: time window too large"
    : `Param is error: the time range of ${width} ms is longer than ${3 * max} ms`

/**
 * An in-memory service over `rows` (newest first) that refuses a window wider than `max` ms with the
 * `ApiError` a real refusal produces (400, 33333), counting requests, refusals and the most requests
 * in flight at once. Rows are visible once the clock's `now(clock)` reaches their time. Past `cap`
 * requests it dies, so that a walk that crawls fails the test instead of running for hours.
 */
const service = (
  rows: ReadonlyArray<R>,
  max: number,
  wording: Wording,
  now: (clock: number) => number = () => Infinity,
  cap = 100_000
) => {
  const counts = { requests: 0, refused: 0, inFlight: 0, mostInFlight: 0, widest: 0 }
  const widths: Array<number> = []
  const fetch = (startTime: number, endTime: number, page: number, limit: number) =>
    Effect.suspend(() => {
      if (++counts.requests > cap) return Effect.die(`more than ${cap} requests`)
      counts.inFlight++
      counts.mostInFlight = Math.max(counts.mostInFlight, counts.inFlight)
      const width = endTime - startTime + 1
      widths.push(width)
      // Yield, so that windows fetched ahead are in flight together.
      return Effect.andThen(
        Effect.yieldNow,
        Effect.flatMap(Clock.currentTimeMillis, (clock) => {
          if (width > max) {
            counts.refused++
            return Effect.fail(
              new ApiError({
                request: { endpoint: "transferHistory", startTime, endTime, page },
                status: 400,
                code: 33333,
                msg: refusalText(wording, max, width)
              })
            )
          }
          counts.widest = Math.max(counts.widest, width)
          const visible = now(clock)
          return Effect.succeed(
            rows.filter((r) => r.t >= startTime && r.t <= endTime && r.t <= visible)
              .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
              .slice((page - 1) * limit, page * limit)
          )
        })
      ).pipe(Effect.ensuring(Effect.sync(() => void counts.inFlight--)))
    })
  return { fetch, counts, widths }
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
  limit: 10,
  maxWindow: undefined,
  since: 0,
  until: 365 * day - 1,
  concurrency: 1,
  endpoint: "transferHistory",
  maxWindowSetting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)",
  ...overrides
})

const ascending = (rows: ReadonlyArray<R>) => [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1))

const collect = <A, E>(stream: Stream.Stream<A, E>) => Stream.runCollect(stream)

/**
 * Random histories over [0, range): scattered records and crowded clusters, ids unique. The range
 * spans from ten minutes to two years, so that maxima from just over the floor to wider than the
 * range are met.
 */
const historyArb = fc.integer({ min: 10 * 60_000, max: 2 * 365 * day }).chain((range) =>
  fc.record({
    range: fc.constant(range),
    rows: fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        n: fc.integer({ min: 1, max: 6 })
      }),
      { maxLength: 40 }
    ).map((clusters) =>
      clusters.flatMap(({ at, n }, c) =>
        Array.from({ length: n }, (_, i) => ({ id: `${c}-${i}`, t: Math.floor(at * range) }))
      )
    ),
    // The service's maximum, as a share of the range (from a half to a thousandth), never under the floor.
    maxShare: fc.tuple(fc.integer({ min: 1, max: 10 }), fc.double({ min: 1, max: 2, noNaN: true })).map(([k, f]) =>
      f / Math.pow(2, k)
    )
  })
)

/**
 * The bound on refused requests of one layer: at most one per width the walks tried that the service
 * refused at most as many times as requests were in flight at once (every window sent wider than
 * the maximum before the first refusal of it came back is in flight when it does). The widths refused:
 * halving from the range to below the maximum (⌈log2(range / maximum)⌉), the bisection to within 1/32
 * (5 steps), a width the message stated (1), the first window over the range (1), and one for the
 * stated width taken as the maximum.
 */
const refusalBound = (range: number, max: number, inFlight: number) =>
  inFlight * (Math.max(0, Math.ceil(Math.log2(range / max))) + 9)

/**
 * A bound on the requests of one walk over `range` holding `records` at `times` distinct times,
 * against a service accepting windows of at most `max` ms: two requests per record (a window narrowed
 * per record at worst), a search for each time (⌈log2 range⌉ + 4 requests), three windows per maximum
 * width over the range (what is learned is within 1/32 below the maximum), and for each poll the
 * searches again and the settlement window's windows. Not a cost to meet: it catches a walk that
 * crawls in windows far narrower than the service accepts.
 */
const requestBound = (records: number, times: number, range: number, max: number, polls = 0, settlement = 0) =>
  2 * records + (times + 1) * (Math.ceil(Math.log2(range)) + 4) * (1 + polls) + 3 * Math.ceil(range / max) +
  polls * Math.ceil(settlement / max)

const timesOf = (rows: ReadonlyArray<R>) => new Set(rows.map((r) => r.t)).size

describe("Walk: window widths learned from the service's refusals", () => {
  it.effect.prop(
    "property: every record once, ascending, the refused requests bounded, with windows fetched ahead and two streams sharing what they learn",
    {
      history: historyArb,
      wording: fc.constantFrom<Wording>("stated", "plain", "misstated"),
      limit: fc.integer({ min: 5, max: 30 }),
      concurrency: fc.integer({ min: 1, max: 4 }),
      together: fc.boolean(),
      // Mostly no configured maximum; sometimes one, which stays the upper bound.
      configured: fc.oneof(
        { weight: 3, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.double({ min: 0.01, max: 2, noNaN: true }) }
      )
    },
    ({ concurrency, configured, history, limit, together, wording }) =>
      Effect.gen(function*() {
        const { range, rows } = history
        const max = Math.max(WindowLimit.floor + 1, Math.floor(range * history.maxShare))
        const maxWindow = configured === undefined ? undefined : Math.max(1, Math.floor(range * configured))
        // Two walks, each within the request bound (the configured maximum may be the narrower).
        const narrowest = Math.min(max, maxWindow ?? max)
        const cap = 2 * requestBound(rows.length, timesOf(rows), range, narrowest)
        const { counts, fetch, widths } = service(rows, max, wording, undefined, cap)
        const windowWidths = FullHistory.windowWidths()
        const walk = (since: number) =>
          collect(
            FullHistory.records(
              options(fetch, { limit, concurrency, maxWindow, since, until: range - 1, windowWidths })
            )
          )
        // Two streams of one layer: one after the other, or at the same time.
        const [first, second] = yield* Effect.all([walk(0), walk(Math.floor(range / 3))], {
          concurrency: together ? 2 : 1
        })
        expect(first).toEqual(ascending(rows))
        expect(second).toEqual(ascending(rows.filter((r) => r.t >= Math.floor(range / 3))))
        expect(counts.refused).toBeLessThanOrEqual(refusalBound(range, max, counts.mostInFlight))
        expect(counts.requests).toBeLessThanOrEqual(cap)
        // The configured maximum stays an upper bound; what was learned is what the service accepts.
        if (maxWindow !== undefined) expect(Math.max(...widths)).toBeLessThanOrEqual(maxWindow)
        expect(windowWidths.current.accepted).toBeLessThanOrEqual(max)
        expect(windowWidths.current.accepted).toBe(counts.widest)
      }),
    { fastCheck: { numRuns: 40 } }
  )

  it.effect.prop(
    "property: follow mode (sequential or fetched ahead): every record once, new, ascending, the refused requests bounded",
    {
      history: historyArb,
      wording: fc.constantFrom<Wording>("stated", "plain", "misstated"),
      concurrency: fc.integer({ min: 1, max: 3 }),
      settlementShare: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
      polls: fc.integer({ min: 1, max: 4 })
    },
    ({ concurrency, history, polls, settlementShare, wording }) =>
      Effect.gen(function*() {
        const { range } = history
        const max = Math.max(WindowLimit.floor + 1, Math.floor(range * history.maxShare))
        // The walk reads to 2/3 of the range; the records after it appear as the server's now passes
        // them, a poll every second of the clock taking the server's now a twelfth of the range on.
        const until = Math.floor(2 * range / 3)
        const step = Math.max(1, Math.floor(range / 12))
        const now = (clock: number) => until + Math.floor(clock / 1_000) * step
        const settlement = Math.max(1, Math.floor(range * settlementShare))
        const cap = requestBound(history.rows.length, timesOf(history.rows), range, max, polls, settlement)
        const { counts, fetch } = service(history.rows, max, wording, now, cap)
        const seen: Array<{ readonly kind: string; readonly record: R }> = []
        const follow = {
          interval: Duration.seconds(1),
          settlement,
          now: Effect.map(Clock.currentTimeMillis, now)
        }
        const fiber = yield* FullHistory.changes(
          options(fetch, { limit: 10, concurrency, until, follow, windowWidths: FullHistory.windowWidths() })
        ).pipe(Stream.runForEach((c) => Effect.sync(() => void seen.push(c))), Effect.forkChild)
        yield* VirtualClock.adjust("1 millis")
        for (let i = 0; i < polls; i++) yield* VirtualClock.adjust("1 second")
        yield* Fiber.interrupt(fiber)
        const exit = yield* Fiber.await(fiber)
        // Interrupted while it waits for its next poll: it did not fail (nor die at the request cap).
        if (exit._tag === "Failure") expect(Cause.hasInterruptsOnly(exit.cause), Cause.pretty(exit.cause)).toBe(true)
        expect(seen.every((c) => c.kind === "new")).toBe(true)
        const records = seen.map((c) => c.record)
        expect(records).toEqual(ascending(records))
        expect(new Set(records.map((r) => r.id)).size).toBe(records.length)
        // Every record up to the last poll's end was read, none after the server's now.
        const lastUntil = now(polls * 1_000)
        expect(records).toEqual(ascending(history.rows.filter((r) => r.t <= lastUntil)))
        expect(counts.refused).toBeLessThanOrEqual(refusalBound(range, max, counts.mostInFlight))
        expect(counts.requests).toBeLessThanOrEqual(cap)
      }).pipe(VirtualClock.run()),
    { fastCheck: { numRuns: 40 } }
  )

  it.effect("a second stream of the same widths sends no window too wide", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, t: i * 7 * day }))
      const { counts, fetch, widths } = service(rows, 30 * day, "plain")
      const windowWidths = FullHistory.windowWidths()
      const first = yield* collect(FullHistory.records(options(fetch, { limit: 100, windowWidths })))
      expect(first).toEqual(rows.filter((r) => r.t < 365 * day))
      const refusedFirst = counts.refused
      expect(refusedFirst).toBeGreaterThan(0)
      // Settled within 1/32 below the maximum: not at half of it.
      expect(windowWidths.current.accepted).toBeLessThanOrEqual(30 * day)
      expect(windowWidths.current.accepted).toBeGreaterThanOrEqual(30 * day * 31 / 32)
      widths.length = 0
      const second = yield* collect(FullHistory.records(options(fetch, { limit: 100, windowWidths, since: 100 * day })))
      expect(second).toEqual(rows.filter((r) => r.t >= 100 * day && r.t < 365 * day))
      expect(counts.refused).toBe(refusedFirst)
      expect(Math.max(...widths)).toBeLessThanOrEqual(30 * day)
    }))

  it.effect("a 33333 that says nothing of the window fails at once, after one request", () =>
    Effect.gen(function*() {
      let requests = 0
      const refuses = (startTime: number, endTime: number, page: number) =>
        Effect.suspend(() => {
          requests++
          return Effect.fail(
            new ApiError({
              request: { endpoint: "transferHistory", startTime, endTime, page },
              status: 400,
              code: 33333,
              msg: "Param is error: fromAccountType must be SPOT or FUTURES"
            })
          )
        })
      for (const concurrency of [1, 3]) {
        requests = 0
        const error = yield* Effect.flip(collect(FullHistory.records(options(refuses, { concurrency }))))
        expect(error).toMatchObject({ _tag: "ApiError", code: 33333 })
        expect((error as ApiError).window).toBeUndefined()
        expect(error.message).toContain("change the request as the message says")
        expect(requests).toBe(1)
      }
    }))

  it.effect("too wide even at the floor: ApiError naming the setting, after ⌈log2(range / floor)⌉ + 1 refusals", () =>
    Effect.gen(function*() {
      const { counts, fetch } = service([{ id: "a", t: 5 }], 30_000, "plain")
      const error = yield* Effect.flip(collect(FullHistory.records(options(fetch))))
      expect(error).toMatchObject({
        _tag: "ApiError",
        code: 33333,
        window: { refused: WindowLimit.floor, accepted: 0, setting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)" }
      })
      expect(error.message).toContain(
        "the service refuses windows of 1m as too wide even after narrowing; " +
          "set maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW) to a window it always accepts."
      )
      expect(counts.refused).toBe(Math.ceil(Math.log2(365 * day / WindowLimit.floor)) + 1)
    }))

  it.effect("refused as too wide after a wider window was accepted: fails at once, naming the setting", () =>
    Effect.gen(function*() {
      // Accepts the first window (the whole range), then refuses everything as too wide.
      let requests = 0
      const fickle = (startTime: number, endTime: number, page: number, limit: number) =>
        Effect.suspend(() =>
          ++requests === 1
            ? Effect.succeed(Array.from({ length: limit }, (_, i) => ({ id: `r${i}`, t: startTime + i })))
            : Effect.fail(
              new ApiError({
                request: { endpoint: "transferHistory", startTime, endTime, page },
                status: 400,
                code: 33333,
                msg: "time window too large"
              })
            )
        )
      const error = yield* Effect.flip(collect(FullHistory.records(options(fickle))))
      expect(error).toMatchObject({ _tag: "ApiError", window: { accepted: 365 * day } })
      expect(error.message).toContain("after accepting one of 365d: it holds to no one maximum")
      expect(requests).toBe(2)
    }))

  it.effect("what is learned is said at debug level, annotated with the endpoint and the widths", () =>
    Effect.gen(function*() {
      const lines: Array<{ level: string; message: string; annotations: Record<string, unknown> }> = []
      const logger = Logger.make(({ fiber, logLevel, message }) => {
        lines.push({
          level: logLevel.toUpperCase(),
          message: Array.isArray(message) ? message.join(" ") : String(message),
          annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
        })
      })
      const { fetch } = service([{ id: "a", t: 5 }], 30 * day, "stated")
      yield* collect(FullHistory.records(options(fetch))).pipe(
        Effect.provide(Logger.layer([logger])),
        Effect.provideService(References.MinimumLogLevel, "Debug")
      )
      expect(lines).toEqual([
        {
          level: "DEBUG",
          message:
            "transferHistory: the service refused a window of 365d as too wide; windows are now planned at most 29d 23h 59m 59s 999ms wide",
          annotations: {
            endpoint: "transferHistory",
            refusedMillis: 365 * day,
            acceptedMillis: 0,
            widestMillis: 30 * day - 1
          }
        },
        {
          level: "DEBUG",
          message:
            "transferHistory: the service accepts windows of 29d 23h 59m 59s 999ms; windows are planned within it from now on",
          annotations: {
            endpoint: "transferHistory",
            acceptedMillis: 30 * day - 1,
            refusedMillis: 30 * day,
            widestMillis: 30 * day - 1
          }
        }
      ])
    }))

  it.effect("an interrupted walk's failure stays as it is: only a refusal of a window is looked at", () =>
    Effect.gen(function*() {
      const dies = () => Effect.die("boom")
      const exit = yield* Effect.exit(collect(FullHistory.records(options(dies))))
      expect(exit._tag === "Failure" && Option.isNone(Cause.findErrorOption(exit.cause)) && Cause.hasDies(exit.cause))
        .toBe(true)
    }))
})
