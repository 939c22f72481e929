import { BrokerError } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Schedule } from "effect"
import * as RideOut from "../src/internal/follow/RideOut.js"
import * as Outage from "../src/Outage.js"

// The outage state (`Outage.initial`, `failed`, `succeeded`, …) is core's, tested there
// (packages/core/test/follow/Outage.test.ts); here, the line's schedules over it.
describe("RideOut.schedule", () => {
  const retry = {
    maxRetries: 5,
    baseDelay: Duration.millis(200),
    maxRetryAfter: Duration.minutes(1),
    followMaxDelay: Duration.minutes(1)
  }
  const request = { endpoint: "transferHistory" }
  const delaysOf = (inputs: ReadonlyArray<BrokerError.BrokerError>) =>
    Effect.runSync(Schedule.run(Schedule.delays(RideOut.schedule(retry)), 0, inputs)).pipe(
      Chunk.toReadonlyArray,
      (delays) => delays.map(Duration.toMillis)
    )

  it("doubles from the base delay up to followMaxDelay, jittered to 50–100 %, without limit", () => {
    const delays = delaysOf(
      Array.from({ length: 40 }, () => new BrokerError.ServerError({ request, status: 503, attempts: 6 }))
    )
    expect(delays).toHaveLength(40)
    delays.forEach((delay, n) => {
      const capped = Math.min(200 * 2 ** n, 60_000)
      expect(Number.isInteger(delay)).toBe(true)
      expect(delay).toBeGreaterThanOrEqual(Math.floor(capped / 2))
      expect(delay).toBeLessThanOrEqual(capped)
    })
  })

  it("waits a RateLimited's Retry-After as sent, and stops at a permanent failure", () => {
    const rateLimited = new BrokerError.RateLimited({
      request,
      status: 429,
      code: 429,
      msg: "Too many requests.",
      retryAfterMillis: 300_000,
      attempts: 1
    })
    const denied = new BrokerError.AuthenticationError({
      request,
      status: 401,
      code: 700001,
      msg: "Api key info invalid",
      reason: "ApiKey"
    })
    const delays = delaysOf([
      rateLimited,
      new BrokerError.TransportError({ request, reason: "Connect", description: "ECONNREFUSED", attempts: 6 }),
      denied,
      rateLimited
    ])
    expect(delays[0]).toBe(300_000)
    expect(delays[1]).toBeGreaterThanOrEqual(200)
    expect(delays[1]).toBeLessThanOrEqual(400)
    // The permanent failure ends the schedule (its step is the last, done, with no wait): nothing after it is retried.
    expect(delays).toHaveLength(3)
    expect(delays[2]).toBe(0)
  })
})

describe("Outage.backoff", () => {
  it("backoff: doubling from the base delay to the cap, jittered to 50–100 %, whole ms, without limit", () => {
    const delays = Effect.runSync(
      Schedule.run(Schedule.delays(Outage.backoff("100 millis", "1 second")), 0, Array.from({ length: 12 }, () => 0))
    )
    const millis = Chunk.toReadonlyArray(delays).map(Duration.toMillis)
    expect(millis).toHaveLength(12)
    millis.forEach((ms, i) => {
      const full = Math.min(1_000, 100 * 2 ** i)
      expect(Number.isInteger(ms)).toBe(true)
      expect(ms).toBeGreaterThanOrEqual(Math.floor(full / 2))
      expect(ms).toBeLessThanOrEqual(full)
    })
  })
})
