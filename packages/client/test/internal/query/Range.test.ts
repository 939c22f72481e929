import { Duration, Effect } from "effect"
import * as fc from "fast-check"
import * as Effects from "../../../src/internal/line/Effects.js"
import * as Results from "../../../src/internal/line/Results.js"
import * as StreamQuery from "../../../src/internal/line/StreamQuery.js"
import * as Range from "../../../src/internal/query/Range.js"
import type * as ServerClock from "../../../src/ServerClock.js"
import type * as StreamOptions from "../../../src/StreamOptions.js"
import { describe, expect, it } from "../../support/line/Testing.js"

const day = 86_400_000
const NOW = Date.UTC(2026, 0, 1)

/** A clock at NOW that counts how often the server's time was asked for. */
const clock = () => {
  let asked = 0
  const serverNow = Effect.sync(() => {
    asked++
    return NOW
  })
  const service: Effects.ServiceOf<ServerClock.ServerClock> = {
    now: Effect.succeed(NOW),
    offset: Effect.succeed(0),
    sync: Effect.succeed(0),
    serverNow
  }
  return { service, asked: () => asked }
}

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

/** The options decoded (`StreamQuery`), then resolved on a clock at NOW. */
const resolve = (
  query: StreamOptions.ChangeOptions,
  maxWindow?: number,
  c: { readonly service: Effects.ServiceOf<ServerClock.ServerClock>; readonly asked: () => number } = clock()
) =>
  Effect.map(
    Effects.result(
      Effect.flatMap(
        Effects.fromResult(StreamQuery.transfers.changes({ ...base, ...query })),
        (decoded) => Range.resolve("transferHistory", decoded, maxWindow, c.service)
      )
    ),
    (result) => ({ result, asked: c.asked() })
  )

describe("Range: a stream query's range, pinned on the server's clock", () => {
  it.effect("defaults: the endpoint's page size, one window at a time, a year back from the server's now", () =>
    Effect.gen(function*() {
      const { asked, result } = yield* resolve({})
      expect(Results.successOrUndefined(result)).toMatchObject({
        since: NOW - 365 * day,
        until: NOW,
        limit: 500,
        concurrency: 1,
        maxWindow: undefined
      })
      // `until` is pinned once.
      expect(asked).toBe(1)
    }))

  it.effect("a given until asks nothing of the server; a resume without since starts at its checkpoint", () =>
    Effect.gen(function*() {
      const resume = { time: 5, ids: ["a"] }
      const { asked, result } = yield* resolve({ until: NOW, resume }, day)
      expect(Results.successOrUndefined(result)).toMatchObject({ since: 5, until: NOW, resume, maxWindow: day })
      expect(asked).toBe(0)
    }))

  it.effect("until may be after the server's now by the clock-skew allowance, and is kept as given", () =>
    Effect.gen(function*() {
      const until = NOW + Range.untilAllowance
      const { asked, result } = yield* resolve({ since: NOW - day, until })
      expect(Results.successOrUndefined(result)).toMatchObject({ since: NOW - day, until })
      // After the clock's estimate of the server's now: checked against the server's time.
      expect(asked).toBe(1)
    }))

  it.effect("an until after the local estimate is checked against the server's time, which may be ahead", () =>
    Effect.gen(function*() {
      // The local estimate is an hour behind the server: an until 30 minutes after it is in the server's past.
      const behind = clock()
      const { result } = yield* resolve({ since: 0, until: NOW - 1_800_000 }, undefined, {
        ...behind,
        service: { ...behind.service, now: Effect.succeed(NOW - 3_600_000) }
      })
      expect(Results.successOrUndefined(result)).toMatchObject({ since: 0, until: NOW - 1_800_000 })
    }))

  it.effect("until later than the server's now plus the allowance fails with InvalidQuery(until) naming both, and what to do", () =>
    Effect.gen(function*() {
      const until = NOW + Range.untilAllowance + 1
      const { asked, result } = yield* resolve({ since: NOW - day, until: new Date(until) })
      expect(asked).toBe(1)
      const error = Results.failureOrUndefined(result)
      if (error?._tag !== "InvalidQuery") throw new Error("expected InvalidQuery")
      expect(error.parameter).toBe("until")
      expect(error.rule).toBe(
        "must not be after the server's now (2026-01-01T00:00:00.000Z) by more than 1 minute (allowed for clock " +
          "skew); it is 2026-01-01T00:01:00.001Z"
      )
      expect(error.fix).toBe("omit it to read up to the server's now")
    }))

  it.effect("follow: the interval, the settlement (a day unless given) and the server's now", () =>
    Effect.gen(function*() {
      const { result } = yield* resolve({ until: NOW, since: 0, follow: { interval: "30 seconds" } })
      const range = Results.successOrUndefined(result)
      if (range === undefined) throw new Error("expected a range")
      expect(Duration.toMillis(range.follow!.interval)).toBe(30_000)
      expect(range.follow!.settlement).toBe(day)
    }))

  it.effect.each(
    [
      // Only a `since` after the server's now needs the server's time to be found out.
      [{ since: NOW + 1 }, "since", 1],
      // An `until` after it, beyond the allowance for clock skew, is refused like such a `since`.
      [{ until: Date.UTC(2027, 0, 1) }, "until", 1],
      [{ since: NOW + 2 * 60_000, until: NOW + 3 * 60_000 }, "until", 1],
      // A checkpoint after `until`, without `since`: the stream would start after its end.
      [{ until: 1_000, resume: { time: 2_000, ids: [] } }, "since", 0]
    ] as const
  )(
    "%j fails with InvalidQuery(%s), asking the server's time %d times",
    ([query, parameter, times]) =>
      Effect.gen(function*() {
        const { asked, result } = yield* resolve(query)
        expect(Results.failureOrUndefined(result)).toMatchObject({ _tag: "InvalidQuery", parameter })
        expect(asked).toBe(times)
      })
  )

  it.effect.prop(
    "property: a valid range is kept as given, since ≤ until ≤ the server's now plus the allowance",
    {
      ends: fc.tuple(
        fc.integer({ min: 0, max: NOW + Range.untilAllowance }),
        fc.integer({ min: 0, max: NOW + Range.untilAllowance })
      ),
      limit: fc.integer({ min: 1, max: 500 }),
      concurrency: fc.integer({ min: 1, max: 16 })
    },
    ({ concurrency, ends, limit }) =>
      Effect.gen(function*() {
        const [since, until] = [Math.min(...ends), Math.max(...ends)]
        const { result } = yield* resolve({ since: new Date(since), until, limit, concurrency })
        expect(Results.successOrUndefined(result)).toMatchObject({ since, until, limit, concurrency })
      })
  )
})
