import { BrokerError } from "@broker-history/client-effect4"
import { Duration, Effect } from "effect"
import * as RideOut from "../src/internal/follow/RideOut.js"
import * as Outage from "../src/Outage.js"
import { describe, expect, it } from "./support/EffectTest.js"
import { delaysOf } from "./support/Schedules.js"

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
  const delaysFor = (inputs: ReadonlyArray<BrokerError.BrokerError>) =>
    Effect.runSync(delaysOf(RideOut.schedule(retry), inputs))

  it("doubles from the base delay up to followMaxDelay, jittered to 50–100 %, without limit", () => {
    const delays = delaysFor(
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
    const delays = delaysFor([
      rateLimited,
      new BrokerError.TransportError({ request, reason: "Connect", description: "ECONNREFUSED", attempts: 6 }),
      denied,
      rateLimited
    ])
    expect(delays[0]).toBe(300_000)
    expect(delays[1]).toBeGreaterThanOrEqual(200)
    expect(delays[1]).toBeLessThanOrEqual(400)
    // The permanent failure ends the schedule: nothing after it is retried.
    expect(delays).toHaveLength(2)
  })
})

describe("Outage.backoff", () => {
  it("backoff: doubling from the base delay to the cap, jittered to 50–100 %, whole ms, without limit", () => {
    const millis = Effect.runSync(
      delaysOf(Outage.backoff("100 millis", "1 second"), Array.from({ length: 12 }, () => undefined))
    )
    expect(millis).toHaveLength(12)
    millis.forEach((ms, i) => {
      const full = Math.min(1_000, 100 * 2 ** i)
      expect(Number.isInteger(ms)).toBe(true)
      expect(ms).toBeGreaterThanOrEqual(Math.floor(full / 2))
      expect(ms).toBeLessThanOrEqual(full)
    })
  })
})
