// The walk against services that refuse windows wider than a maximum they do not publish: widths
// learned from the refusals, shared by the walks given the same `windowWidths`; on both lines.
import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Endpoint, Options } from "../../src/Walk.js"
import { expectEnd, failureOf, refuse, values } from "../../src/Walk.js"
import * as Walks from "../../src/Walks.js"

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
 * An in-memory service over `rows` (newest first) that refuses a window wider than `max` ms (400,
 * 33333), counting requests, refusals and the most requests in flight at once. Rows are visible once
 * the clock's `now(clock)` reaches their time. Past `cap` requests it throws, so that a walk that
 * crawls fails the test instead of running for hours.
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
  const fetch: Endpoint<R> = async ({ endTime, limit, now: clock, page, startTime }) => {
    if (++counts.requests > cap) throw new Error(`more than ${cap} requests`)
    counts.inFlight++
    counts.mostInFlight = Math.max(counts.mostInFlight, counts.inFlight)
    const width = endTime - startTime + 1
    widths.push(width)
    // Settle later, so that windows fetched ahead are in flight together.
    await Promise.resolve()
    counts.inFlight--
    if (width > max) {
      counts.refused++
      return refuse(33333, refusalText(wording, max, width))
    }
    counts.widest = Math.max(counts.widest, width)
    const visible = now(clock)
    return rows.filter((r) => r.t >= startTime && r.t <= endTime && r.t <= visible)
      .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
      .slice((page - 1) * limit, page * limit)
  }
  return { fetch, counts, widths }
}

const options = (overrides: Partial<Options<R>> = {}): Options<R> => ({
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

describe.each(Walks.all)("Walk ($name): window widths learned from the service's refusals", (line) => {
  const records = (ep: Endpoint<R>, overrides: Partial<Options<R>> = {}) =>
    line.run(ep, [{ kind: "records", options: options(overrides) }]).then(({ walks }) => walks[0]!)

  it("property: every record once, ascending, the refused requests bounded, with windows fetched ahead and two streams sharing what they learn", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
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
        }),
        async ({ concurrency, configured, history, limit, together, wording }) => {
          const { range, rows } = history
          const max = Math.max(WindowLimit.floor + 1, Math.floor(range * history.maxShare))
          const maxWindow = configured === undefined ? undefined : Math.max(1, Math.floor(range * configured))
          // Two walks, each within the request bound (the configured maximum may be the narrower).
          const narrowest = Math.min(max, maxWindow ?? max)
          const cap = 2 * requestBound(rows.length, timesOf(rows), range, narrowest)
          const { counts, fetch, widths } = service(rows, max, wording, undefined, cap)
          const windowWidths: WindowLimit.WindowWidths = { current: WindowLimit.unknown }
          const walk = (since: number) => ({
            kind: "records" as const,
            options: options({ limit, concurrency, maxWindow, since, until: range - 1, windowWidths })
          })
          // Two streams of one layer: one after the other, or at the same time.
          const { walks } = await line.run(fetch, [walk(0), walk(Math.floor(range / 3))], { together })
          expectEnd(walks[0]!, "Done")
          expectEnd(walks[1]!, "Done")
          expect(values(walks[0]!)).toEqual(ascending(rows))
          expect(values(walks[1]!)).toEqual(ascending(rows.filter((r) => r.t >= Math.floor(range / 3))))
          expect(counts.refused).toBeLessThanOrEqual(refusalBound(range, max, counts.mostInFlight))
          expect(counts.requests).toBeLessThanOrEqual(cap)
          // The configured maximum stays an upper bound; what was learned is what the service accepts.
          if (maxWindow !== undefined) expect(Math.max(...widths)).toBeLessThanOrEqual(maxWindow)
          expect(windowWidths.current.accepted).toBeLessThanOrEqual(max)
          expect(windowWidths.current.accepted).toBe(counts.widest)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("property: follow mode (sequential or fetched ahead): every record once, new, ascending, the refused requests bounded", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          history: historyArb,
          wording: fc.constantFrom<Wording>("stated", "plain", "misstated"),
          concurrency: fc.integer({ min: 1, max: 3 }),
          settlementShare: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
          polls: fc.integer({ min: 1, max: 4 })
        }),
        async ({ concurrency, history, polls, settlementShare, wording }) => {
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
          const follow = { interval: 1_000, settlement, now }
          const { walks } = await line.run(fetch, [{
            kind: "changes",
            options: options({
              limit: 10,
              concurrency,
              until,
              follow,
              windowWidths: { current: WindowLimit.unknown }
            })
          }], { advance: [1, ...Array.from({ length: polls }, () => 1_000)] })
          // Interrupted while it waits for its next poll: it did not fail (nor die at the request cap).
          const walk = walks[0]!
          expectEnd(walk, "Interrupted")
          const seen = values<{ readonly kind: string; readonly record: R }>(walk)
          expect(seen.every((c) => c.kind === "new")).toBe(true)
          const got = seen.map((c) => c.record)
          expect(got).toEqual(ascending(got))
          expect(new Set(got.map((r) => r.id)).size).toBe(got.length)
          // Every record up to the last poll's end was read, none after the server's now.
          const lastUntil = now(polls * 1_000)
          expect(got).toEqual(ascending(history.rows.filter((r) => r.t <= lastUntil)))
          expect(counts.refused).toBeLessThanOrEqual(refusalBound(range, max, counts.mostInFlight))
          expect(counts.requests).toBeLessThanOrEqual(cap)
        }
      ),
      { numRuns: 40 }
    )
  })

  it("a second stream of the same widths sends no window too wide", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: `r${i}`, t: i * 7 * day }))
    const { counts, fetch, widths } = service(rows, 30 * day, "plain")
    const windowWidths: WindowLimit.WindowWidths = { current: WindowLimit.unknown }
    const first = await records(fetch, { limit: 100, windowWidths })
    expect(values(first)).toEqual(rows.filter((r) => r.t < 365 * day))
    const refusedFirst = counts.refused
    expect(refusedFirst).toBeGreaterThan(0)
    // Settled within 1/32 below the maximum: not at half of it.
    expect(windowWidths.current.accepted).toBeLessThanOrEqual(30 * day)
    expect(windowWidths.current.accepted).toBeGreaterThanOrEqual(30 * day * 31 / 32)
    widths.length = 0
    const second = await records(fetch, { limit: 100, windowWidths, since: 100 * day })
    expect(values(second)).toEqual(rows.filter((r) => r.t >= 100 * day && r.t < 365 * day))
    expect(counts.refused).toBe(refusedFirst)
    expect(Math.max(...widths)).toBeLessThanOrEqual(30 * day)
  })

  it("a 33333 that says nothing of the window fails at once, after one request", async () => {
    for (const concurrency of [1, 3]) {
      const refuses: Endpoint<R> = () => refuse(33333, "Param is error: fromAccountType must be SPOT or FUTURES")
      const { requests, walks } = await line.run(refuses, [{ kind: "records", options: options({ concurrency }) }])
      const failure = failureOf(walks[0]!)
      expect(failure).toMatchObject({ _tag: "ApiError", fields: { code: 33333 } })
      expect(failure.fields["window"]).toBeUndefined()
      expect(failure.message).toContain("change the request as the message says")
      expect(requests).toHaveLength(1)
    }
  })

  it("too wide even at the floor: ApiError naming the setting, after ⌈log2(range / floor)⌉ + 1 refusals", async () => {
    const { counts, fetch } = service([{ id: "a", t: 5 }], 30_000, "plain")
    const failure = failureOf(await records(fetch))
    expect(failure).toMatchObject({
      _tag: "ApiError",
      fields: {
        code: 33333,
        window: { refused: WindowLimit.floor, accepted: 0, setting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)" }
      }
    })
    expect(failure.message).toContain(
      "the service refuses windows of 1m as too wide even after narrowing; " +
        "set maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW) to a window it always accepts."
    )
    expect(counts.refused).toBe(Math.ceil(Math.log2(365 * day / WindowLimit.floor)) + 1)
  })

  it("refused as too wide after a wider window was accepted: fails at once, naming the setting", async () => {
    // Accepts the first window (the whole range), then refuses everything as too wide.
    let sent = 0
    const fickle: Endpoint<R> = ({ limit, startTime }) =>
      ++sent === 1
        ? Array.from({ length: limit }, (_, i) => ({ id: `r${i}`, t: startTime + i }))
        : refuse(33333, "time window too large")
    const failure = failureOf(await records(fickle))
    expect(failure).toMatchObject({ _tag: "ApiError", fields: { window: { accepted: 365 * day } } })
    expect(failure.message).toContain("after accepting one of 365d: it holds to no one maximum")
    expect(sent).toBe(2)
  })
})
