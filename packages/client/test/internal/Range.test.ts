import { Endpoint } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import * as fc from "fast-check"
import * as Range from "../../src/internal/Range.js"
import type * as ServerClock from "../../src/ServerClock.js"

const day = 86_400_000
const NOW = Date.UTC(2026, 0, 1)

/** A clock at NOW that counts how often the server's time was asked for. */
const clock = () => {
  let asked = 0
  const serverNow = Effect.sync(() => {
    asked++
    return NOW
  })
  const service: ServerClock.ServerClock["Type"] = {
    now: Effect.succeed(NOW),
    offset: Effect.succeed(0),
    sync: Effect.succeed(0),
    serverNow
  }
  return { service, asked: () => asked }
}

const resolve = (query: Parameters<typeof Range.resolve>[1], maxWindow?: number) => {
  const c = clock()
  return Effect.map(
    Effect.either(Range.resolve(Endpoint.transferHistory, query, maxWindow, c.service)),
    (result) => ({ result, asked: c.asked() })
  )
}

describe("Range: a stream query's range and reading options", () => {
  it.effect("defaults: the endpoint's page size, one window at a time, a year back from the server's now", () =>
    Effect.gen(function*() {
      const { asked, result } = yield* resolve({})
      expect(result).toMatchObject({
        _tag: "Right",
        right: { since: NOW - 365 * day, until: NOW, limit: 500, concurrency: 1, maxWindow: undefined }
      })
      // `until` is pinned once.
      expect(asked).toBe(1)
    }))

  it.effect("a given until asks nothing of the server; a resume without since starts at its checkpoint", () =>
    Effect.gen(function*() {
      const resume = { time: 5, ids: ["a"] }
      const { asked, result } = yield* resolve({ until: NOW, resume }, day)
      expect(result).toMatchObject({ _tag: "Right", right: { since: 5, until: NOW, resume, maxWindow: day } })
      expect(asked).toBe(0)
    }))

  it.effect("follow: the interval, the settlement (a day unless given) and the server's now", () =>
    Effect.gen(function*() {
      const { result } = yield* resolve({ until: NOW, since: 0, follow: { interval: "30 seconds" } })
      if (result._tag !== "Right") throw new Error("expected a range")
      expect(Duration.toMillis(result.right.follow!.interval)).toBe(30_000)
      expect(result.right.follow!.settlement).toBe(day)
    }))

  it.effect.each(
    [
      [{ limit: 0 }, "limit", 0],
      [{ limit: 501 }, "limit", 0],
      [{ concurrency: 17 }, "concurrency", 0],
      [{ resume: { time: -1, ids: [] } }, "resume", 0],
      [{ follow: { interval: "0 millis" } }, "follow.interval", 0],
      [{ follow: { interval: "1 second", settlement: "Infinity" } }, "follow.settlement", 0],
      [{ since: "yesterday-ish" }, "since", 0],
      [{ since: -5 }, "since", 0],
      [{ since: 10, until: 5 }, "since", 0],
      // Only a `since` after the server's now needs the server's time to be found out.
      [{ since: NOW + 1 }, "since", 1]
    ] as const
  )(
    "%j fails with InvalidQuery(%s), asking the server's time %d times",
    ([query, parameter, times]) =>
      Effect.gen(function*() {
        const { asked, result } = yield* resolve(query as Parameters<typeof Range.resolve>[1])
        expect(result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidQuery", parameter } })
        expect(asked).toBe(times)
      })
  )

  it.effect.prop(
    "property: a valid range is kept as given, since ≤ until",
    {
      since: fc.integer({ min: 0, max: NOW }),
      length: fc.integer({ min: 0, max: 800 * day }),
      limit: fc.integer({ min: 1, max: 500 }),
      concurrency: fc.integer({ min: 1, max: 16 })
    },
    ({ concurrency, length, limit, since }) =>
      Effect.gen(function*() {
        const until = since + length
        const { result } = yield* resolve({ since: new Date(since), until, limit, concurrency })
        expect(result).toMatchObject({ _tag: "Right", right: { since, until, limit, concurrency } })
      })
  )
})
