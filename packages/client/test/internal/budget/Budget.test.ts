import { Clock, Duration, Effect, Fiber, Metric } from "effect"
import * as BrokerConfig from "../../../src/BrokerConfig.js"
import * as BrokerHttpClient from "../../../src/BrokerHttpClient.js"
import * as Effects from "../../../src/internal/line/Effects.js"
import * as Results from "../../../src/internal/line/Results.js"
import { describe, expect, fork, it, withEnvironment } from "../../support/line/Testing.js"
import type { Answer, Seen } from "../../support/MockService.js"
import { limited, testOptions } from "../../support/MockService.js"
import * as TestPipeline from "../../support/TestPipeline.js"
import * as VirtualClock from "../../support/VirtualClock.js"

interface Drive {
  /** The client's budget per second. */
  readonly budget: number
  /** The service's limit per second, and from which second on it is `raisedTo`. */
  readonly serviceLimit: number
  readonly raisedTo?: { readonly at: number; readonly limit: number }
  readonly seconds: number
  readonly adaptive?: boolean
  /** Callers that always want another page (default 4), and the latency of every answer (default 0). */
  readonly callers?: number
  readonly latencyMillis?: number
  /** Each request reaches the service up to this much later than it started (seeded), default 0. */
  readonly jitterMillis?: number
  /** The bound on requests on their way before the first refusal (default: the budget's own). */
  readonly onTheirWayAtFirst?: number
}

/**
 * One page request through the pipeline (TestPipeline) over `answer`, which sees when each request
 * arrives (`seen`). A 1 ms margin: with none, a start exactly one interval after another may land a
 * rounding error inside the service's window (times here are fractional milliseconds).
 */
const pipeline = (
  answer: (seen: Seen) => Answer,
  options: Omit<TestPipeline.Options, "marginMillis"> & {
    /** Latency of every answer, or of the n-th (default 0). */
    readonly latencyMillis?: number | ((n: number) => number) | undefined
  }
) =>
  Effect.gen(function*() {
    const seen: Array<number> = []
    const latency = options.latencyMillis ?? 0
    const latencyOf = typeof latency === "number" ? () => latency : latency
    const page = yield* TestPipeline.make((at, n) => {
      seen.push(at)
      const a = answer({ n, at } as Seen)
      if (!("body" in a)) throw new Error("the service here answers with a body")
      return {
        status: a.status,
        retryAfter: a.headers?.["retry-after"],
        body: JSON.stringify(a.body),
        latencyMillis: latencyOf(n)
      }
    }, { ...options, marginMillis: 1 })
    return { seen, page }
  })

/**
 * Callers that always want another page (as a stream fetching ahead does) through the pipeline
 * against a service that enforces its limit, for `seconds` on a virtual clock. Returns when the
 * service saw each request, when it refused, and the gauge of the allowed rate at the end.
 */
const drive = (d: Drive) =>
  Effect.gen(function*() {
    const service = limited(d.serviceLimit, 1000, () => ({ status: 200, body: [] }))
    const { page, seen } = yield* pipeline(service.answer, d)
    const caller = Effect.forever(Effects.result(page))
    const fibers = yield* Effect.forEach(Array.from({ length: d.callers ?? 4 }), () => fork(caller))
    if (d.raisedTo !== undefined) {
      yield* VirtualClock.adjust(Duration.seconds(d.raisedTo.at))
      service.control.limit = d.raisedTo.limit
    }
    yield* VirtualClock.adjust(Duration.seconds(d.seconds - (d.raisedTo?.at ?? 0)))
    yield* Effect.forEach(fibers, Fiber.interrupt)
    const gauge = yield* Metric.value(BrokerHttpClient.metrics.rateLimitCurrent)
    return { seen, refusedAt: service.control.refusedAt, gauge: gauge.value }
  }).pipe(VirtualClock.run())

/** Times in `[from, to)` seconds. */
const between = (times: ReadonlyArray<number>, from: number, to: number) =>
  times.filter((t) => t >= from * 1000 && t < to * 1000).length

/** The most requests on their way at once (started in `[from, to)` ms, each answered `latency` ms later). */
const onTheirWay = (seen: ReadonlyArray<number>, latency: number, from: number, to: number) => {
  const starts = seen.filter((t) => t >= from && t < to)
  return starts.reduce((most, t) => Math.max(most, starts.filter((u) => u <= t && u > t - latency).length), 0)
}

/** Requests the service accepted per second in `[from, to)` seconds. */
const acceptedRate = (
  run: { readonly seen: ReadonlyArray<number>; readonly refusedAt: ReadonlyArray<number> },
  from: number,
  to: number
) => (between(run.seen, from, to) - between(run.refusedAt, from, to)) / (to - from)

// How the adaptive rate converges, recovers and holds to a Retry-After through the layer is tested once
// for both lines in packages/behaviour/test/clock; here, the pipeline's own timings, to the millisecond.
describe("Budget (adaptive rate against a service that enforces its limit)", () => {
  it.effect("requests on their way when the first 429 comes: the first attempt refused sets the level, whatever order the 429s come in", () =>
    Effect.gen(function*() {
      // 16 callers, answers after 150 ms, starts spread evenly at the budget's 40 per 1,001 ms (the
      // 1 ms margin of these tests; 25.025 ms apart, rounded up to whole milliseconds; at 0 the first
      // and the three a late caller may make up): the service's 20 are taken by 401 ms, and the 7
      // requests started from 426 ms until the first 429 arrives (576 ms, the last in that very
      // millisecond) are refused; their answers arrive after the cut.
      const run = yield* drive({
        budget: 40,
        serviceLimit: 20,
        seconds: 10,
        callers: 16,
        latencyMillis: 150,
        onTheirWayAtFirst: Infinity
      })
      expect(run.refusedAt).toEqual([426, 451, 476, 501, 526, 551, 576])
      expect(acceptedRate(run, 2, 10)).toBeGreaterThanOrEqual(19.5)
      expect(acceptedRate(run, 2, 10)).toBeLessThanOrEqual(20)
    }))

  it.effect("a request started in the millisecond a cut takes effect was sent at the old rate: it cuts nothing again", () =>
    Effect.gen(function*() {
      // A scripted service refuses the 21st request and the 23rd, accepts every other. 20 start about
      // 25 ms apart (the budget's 40 per 1,001 ms; four at 0); the 21st at 426 ms (refused, answered
      // after 150 ms) and the 22nd at 451 ms (accepted, answered after 125 ms) by a caller that always
      // wants another page. Both answers arrive at 576 ms: the caller's next page (the 23rd) starts
      // then, at the budget's old rate, in the millisecond the cut takes effect.
      const refusedAt = [21, 23]
      const { page, seen } = yield* pipeline(
        (s) =>
          refusedAt.includes(s.n)
            ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "1" } }
            : { status: 200, body: [] },
        { budget: 40, latencyMillis: (n) => n === 22 ? 125 : 150, onTheirWayAtFirst: Infinity }
      )
      yield* Effect.forEach(Array.from({ length: 20 }), () => fork(Effects.result(page)))
      yield* VirtualClock.adjust("100 millis")
      yield* fork(Effects.result(page))
      yield* fork(Effect.forever(Effects.result(page)))
      yield* VirtualClock.adjust("700 millis")
      expect(seen.slice(19, 23)).toEqual([401, 426, 451, 576])
      // The service accepted 21 within one interval (20 from 0 to 401 ms, the 22nd at 451 ms): that
      // is the level, and the refusal of the 23rd, sent before the cut took effect, does not lower it.
      const gauge = yield* Metric.value(BrokerHttpClient.metrics.rateLimitCurrent)
      expect(gauge.value).toBe(21)
    }).pipe(VirtualClock.run()))

  it.effect("acceptances after a cut raise the level only to what the service's own window held", () =>
    Effect.gen(function*() {
      // The service takes 20 per second; answers after 150 ms. 20 start about 12.5 ms apart (the
      // budget's 80 per second, four at 0), one at 999 ms (refused: the cut, when its answer arrives
      // at 1,149 ms) and one at 1,000 ms (accepted: the window of the four at 0 has passed). 21
      // accepted lie within one interval plus the margin, but no window of the service held more
      // than 20.
      const service = limited(20, 1000, () => ({ status: 200, body: [] }))
      const { page, seen } = yield* pipeline(service.answer, {
        budget: 80,
        latencyMillis: 150,
        onTheirWayAtFirst: Infinity
      })
      yield* Effect.forEach(Array.from({ length: 20 }), () => fork(Effects.result(page)))
      yield* VirtualClock.adjust("999 millis")
      yield* fork(Effects.result(page))
      yield* VirtualClock.adjust("1 millis")
      yield* fork(Effects.result(page))
      yield* VirtualClock.adjust("200 millis")
      expect([seen.slice(19), service.control.refusedAt]).toEqual([[201, 999, 1000], [999]])
      // The next request reports the rate allowed then.
      yield* fork(Effects.result(page))
      yield* VirtualClock.adjust("1 second")
      const gauge = yield* Metric.value(BrokerHttpClient.metrics.rateLimitCurrent)
      expect(gauge.value).toBe(20)
    }).pipe(VirtualClock.run()))

  it.effect("slots reserved at the old rate are taken again at the new one when the first 429 arrives", () =>
    Effect.gen(function*() {
      // 64 callers, answers after 150 ms: starts about 25 ms apart at the budget's 40 per 1,001 ms
      // (four at 0), and the callers beyond them wait for slots reserved at that pace; the service's
      // 20 are taken by 401 ms, the starts from 426 ms are refused until the first 429 arrives at
      // 576 ms, and then every reserved slot is taken again at the new rate.
      const run = yield* drive({
        budget: 40,
        serviceLimit: 20,
        seconds: 10,
        callers: 64,
        latencyMillis: 150,
        onTheirWayAtFirst: Infinity
      })
      expect(run.refusedAt).toEqual([426, 451, 476, 501, 526, 551, 576])
      expect(acceptedRate(run, 2, 10)).toBeGreaterThanOrEqual(19.5)
    }))

  it.effect("until the first 429, at most 4 requests on their way: many streams' first crossing costs no more than one's", () =>
    Effect.gen(function*() {
      // 16 callers (four streams) and a budget of 4 × the service's limit: on their way at once, the
      // service's 20 would be taken in 250 ms and the 12 started in the round trip of the first 429
      // refused too. Four at a time, 4 / 150 ms = 26.7 per second, the first crossing costs at most 4.
      const run = yield* drive({ budget: 80, serviceLimit: 20, seconds: 10, callers: 16, latencyMillis: 150 })
      expect(run.refusedAt.length).toBeGreaterThan(0)
      expect(run.refusedAt.length).toBeLessThanOrEqual(4)
      expect(onTheirWay(run.seen, 150, 0, run.refusedAt[0]! + 150)).toBeLessThanOrEqual(4)
      expect(acceptedRate(run, 2, 10)).toBeGreaterThanOrEqual(19.5)
    }))

  it.effect("a budget the service keeps: the bound on requests on their way doubles every two busy intervals until it binds no more", () =>
    Effect.gen(function*() {
      // 80 per second, answers after 150 ms: 12 on their way at the full rate. In the first two
      // seconds 4 (26.7 per second), in the next two 8 (53), from the fifth 16: the budget's rate.
      const run = yield* drive({ budget: 80, serviceLimit: 80, seconds: 12, callers: 16, latencyMillis: 150 })
      expect(run.refusedAt).toEqual([])
      expect(onTheirWay(run.seen, 150, 0, 2000)).toBe(4)
      expect(onTheirWay(run.seen, 150, 2000, 4000)).toBe(8)
      expect(onTheirWay(run.seen, 150, 4200, 12_000)).toBeGreaterThanOrEqual(12)
      expect(acceptedRate(run, 5, 12)).toBeGreaterThanOrEqual(76)
    }))

  it.effect("the bound starts again with each busy period until a 429, and not after one", () =>
    Effect.gen(function*() {
      // Five busy seconds and a pause of two, twice. Against a service keeping the budget's 80 per
      // second the bound, grown to 16, is 4 again in the second busy period (the service's window
      // has emptied meanwhile, so its limit is as unknown as at first). Against one keeping 60, the
      // bound of 16 meets a 429 in the fifth second; the level learned (about 60 per second, 9 on
      // their way after 150 ms) rules the second busy period from its start.
      const busyTwice = (serviceLimit: number) =>
        Effect.gen(function*() {
          const origin = yield* Clock.currentTimeMillis
          const service = limited(serviceLimit, 1000, () => ({ status: 200, body: [] }))
          const { page, seen } = yield* pipeline(service.answer, { budget: 80, latencyMillis: 150 })
          for (let period = 0; period < 2; period++) {
            const fibers = yield* Effect.forEach(
              Array.from({ length: 16 }),
              () => fork(Effect.forever(Effects.result(page)))
            )
            yield* VirtualClock.adjust("5 seconds")
            yield* Effect.forEach(fibers, Fiber.interrupt)
            yield* VirtualClock.adjust("2 seconds")
          }
          return { seen: seen.map((t) => t - origin), refusedAt: service.control.refusedAt.map((t) => t - origin) }
        })
      const kept = yield* busyTwice(80)
      expect(kept.refusedAt).toEqual([])
      expect(onTheirWay(kept.seen, 150, 4200, 5000)).toBeGreaterThanOrEqual(12)
      expect(onTheirWay(kept.seen, 150, 7000, 8000)).toBe(4)
      const refused = yield* busyTwice(60)
      expect(refused.refusedAt.filter((t) => t < 4000)).toEqual([])
      expect(refused.refusedAt.filter((t) => t < 5000).length).toBeGreaterThan(0)
      expect(onTheirWay(refused.seen, 150, 7000, 8000)).toBeGreaterThanOrEqual(8)
    }).pipe(VirtualClock.run()))

  it.effect("requests bunched up on the way by more than the margin: the pacing widens, then the level steps down", () =>
    Effect.gen(function*() {
      // The 1 ms margin of these tests; each request reaches the service 0–40 ms after it started.
      // A refusal at the level the service accepted widens the pacing by 25 ms; another then lowers
      // the level by one (the margin back to 1 ms); a third may widen it again at that level.
      const run = yield* drive({ budget: 40, serviceLimit: 20, seconds: 30, latencyMillis: 150, jitterMillis: 40 })
      expect(between(run.refusedAt, 2, 30)).toBeLessThanOrEqual(3)
      expect(acceptedRate(run, 2, 30)).toBeGreaterThanOrEqual(18)
    }))
})

describe("rateLimit.adaptive", () => {
  it.effect("on by default, off from the option or BROKER_RATE_LIMIT_ADAPTIVE, anything else refused", () =>
    Effect.gen(function*() {
      const credentials = testOptions()
      const resolved = (adaptive: unknown) =>
        BrokerConfig.resolve({ ...credentials, rateLimit: { limit: 5, adaptive: adaptive as boolean } })
      expect(Results.successOrUndefined(BrokerConfig.resolve(credentials))?.rateLimit.adaptive).toBe(true)
      expect(Results.successOrUndefined(resolved(false))?.rateLimit.adaptive).toBe(false)
      const refused = Results.failureOrUndefined(resolved("no"))
      expect(refused !== undefined && String(refused)).toMatch(/rateLimit\.adaptive must be true or false/)
      const fromEnvironment = yield* withEnvironment(
        Effect.provide(BrokerConfig.BrokerConfig, BrokerConfig.layerConfig()),
        { BROKER_API_KEY: "k", BROKER_SECRET_KEY: "s", BROKER_RATE_LIMIT_ADAPTIVE: "false" }
      )
      expect(fromEnvironment.rateLimit.adaptive).toBe(false)
    }))
})
