// BrokerConfig on both lines: the defaults and the environment's settings as each line resolves
// them (its durations, its retry schedule, its redacted secrets), the refusals its own values reach
// core's rules through, and the delays of its retry and follow schedules. The rules and defaults
// themselves are core's (core/test/config/Settings.test.ts).
import { describe, expect, it } from "vitest"
import type { Resolution, Resolved } from "../src/Config.js"
import * as Configs from "../src/Configs.js"

const credentials = { apiKey: "k", secretKey: "s" }
const day = 86_400_000

const settingsOf = (resolution: Resolution): Resolved => {
  if (resolution._tag === "Success") return resolution.settings
  throw new Error(`expected settings, got: ${resolution.text}`)
}
const failureText = (resolution: Resolution): string => resolution._tag === "Failure" ? resolution.text : ""

/** Each delay within 50–100 % of `full(i)` (jittered), in whole milliseconds when `whole`. */
const expectJittered = (delays: ReadonlyArray<number>, full: (i: number) => number, whole = true) =>
  delays.forEach((delay, i) => {
    if (whole) expect(Number.isInteger(delay)).toBe(true)
    expect(delay).toBeGreaterThanOrEqual(Math.floor(full(i) / 2))
    expect(delay).toBeLessThanOrEqual(full(i))
  })

describe.each(Configs.all)("BrokerConfig ($name)", (line) => {
  it("fills in defaults", () => {
    expect(settingsOf(line.resolve(credentials))).toMatchObject({
      baseUrl: "https://api.mexc.com",
      apiKeyHeader: "X-MEXC-APIKEY",
      recvWindow: undefined,
      requestTimeout: 10_000,
      retries: 5,
      rateLimit: { limit: 20, interval: 1000, margin: 25 },
      maxWindow: { deposits: 10 * day, transfers: undefined },
      maxRetryAfter: 60_000,
      followMaxDelay: 60_000,
      maxResponseBytes: 16 * 1024 * 1024,
      maxPagesPerMillisecond: 20,
      onIncomplete: "fail"
    })
  })

  it("reads the robustness settings from the environment", () => {
    const settings = settingsOf(line.fromVariables({
      BROKER_API_KEY: "k",
      BROKER_SECRET_KEY: "s",
      BROKER_MAX_RETRY_AFTER: "30 seconds",
      BROKER_FOLLOW_RETRY_MAX_DELAY: "2 minutes",
      BROKER_MAX_RESPONSE_BYTES: "1048576",
      BROKER_MAX_PAGES_PER_MILLISECOND: "5",
      BROKER_ON_INCOMPLETE: "warn"
    }))
    expect(settings).toMatchObject({
      maxRetryAfter: 30_000,
      followMaxDelay: 120_000,
      maxResponseBytes: 1_048_576,
      maxPagesPerMillisecond: 5,
      onIncomplete: "warn"
    })
    expect(failureText(line.fromVariables({ BROKER_API_KEY: "k ", BROKER_SECRET_KEY: "s" }))).toContain(
      "apiKey (from BROKER_API_KEY) has leading or trailing whitespace"
    )
  })

  // The rules are core's (its Settings tests); these are the ones this line's durations, schedules and
  // redacted credentials reach it through.
  it.each([
    [{ requestTimeout: 0 }, "requestTimeout"],
    [{ retry: { baseDelay: "2 seconds", maxDelay: "1 second" } }, "retry.maxDelay"],
    [{ rateLimit: { interval: "0 millis" } }, "rateLimit.interval"],
    [{ rateLimit: { margin: "Infinity" } }, "rateLimit.margin"],
    [{ secretKey: "" }, "secretKey"],
    [{ apiKey: " key" }, "apiKey"],
    [{ retry: { maxRetryAfter: "0 millis" } }, "retry.maxRetryAfter"],
    [{ retry: { schedule: "recurs(1)", maxRetries: 3 } }, "retry.schedule"],
    [{ retry: { schedule: "recurs(1)", maxDelay: "1 second" } }, "retry.schedule"],
    [{ retry: { schedule: { recurs: 1 } } }, "retry.schedule"],
    [{ retry: { followMaxDelay: "100 millis" } }, "retry.followMaxDelay"]
  ])("refuses %j naming %s", (override, name) => {
    // "recurs(1)" stands for the line's own Schedule.recurs(1); `{ recurs: 1 }` is not a schedule.
    const retry = (override as { retry?: Record<string, unknown> }).retry
    const options = retry?.["schedule"] === "recurs(1)"
      ? { ...override, retry: { ...retry, schedule: line.recurs(1) } }
      : override
    const result = line.resolve({ ...credentials, ...options })
    expect(result._tag).toBe("Failure")
    expect(failureText(result)).toContain(name)
  })

  it("reads the environment, keeping secrets redacted", () => {
    const settings = settingsOf(line.fromVariables({
      BROKER_BASE_URL: "http://127.0.0.1:9999",
      BROKER_API_KEY: "env-key",
      BROKER_SECRET_KEY: "env-secret",
      BROKER_RECV_WINDOW: "7000",
      BROKER_REQUEST_TIMEOUT: "3 seconds",
      BROKER_MAX_RETRIES: "2",
      BROKER_RATE_LIMIT: "5",
      BROKER_RATE_LIMIT_INTERVAL: "2 seconds",
      BROKER_DEPOSIT_MAX_WINDOW: "5 days",
      BROKER_TRANSFER_MAX_WINDOW: "30 days"
    }))
    expect(settings.baseUrl).toBe("http://127.0.0.1:9999")
    expect(settings.secretKey.value).toBe("env-secret")
    for (const shown of settings.secretKey.shown) expect(shown).not.toContain("env-secret")
    expect(settings).toMatchObject({
      recvWindow: 7000,
      requestTimeout: 3000,
      retries: 2,
      rateLimit: { limit: 5 },
      maxWindow: { deposits: 5 * day, transfers: 30 * day }
    })
  })

  it("names the missing or bad variable", () => {
    expect(failureText(line.fromVariables({ BROKER_API_KEY: "k" }))).toContain("BROKER_SECRET_KEY")
    expect(
      failureText(line.fromVariables({ BROKER_API_KEY: "k", BROKER_SECRET_KEY: "s", BROKER_RECV_WINDOW: "70000" }))
    )
      .toContain("BROKER_RECV_WINDOW")
    expect(
      failureText(line.fromVariables({ BROKER_API_KEY: "k", BROKER_SECRET_KEY: "s", BROKER_BASE_URL: "http://x.test" }))
    ).toContain("BROKER_ALLOW_INSECURE_HTTP")
  })
})

describe.each(Configs.all)("the line's schedules ($name)", (line) => {
  it("the default retry schedule: 5 retries, waits doubling from 200 ms to at most 10 s, jittered to 50–100 %", () => {
    const delays = line.delays.retryDefault(20)
    expect(delays).toHaveLength(5)
    expectJittered(delays, (i) => Math.min(200 * 2 ** i, 10_000), false)
  })

  it("Outage.backoff: doubling from the base delay to the cap, jittered to 50–100 %, whole ms, without limit", () => {
    const delays = line.delays.outageBackoff("100 millis", "1 second", 12)
    expect(delays).toHaveLength(12)
    expectJittered(delays, (i) => Math.min(1_000, 100 * 2 ** i))
  })

  describe("a follow stream's backoff (RideOut.schedule)", () => {
    const retry = { baseDelay: 200, maxRetryAfter: 60_000, followMaxDelay: 60_000 }
    const request = { endpoint: "transferHistory" }

    it("doubles from the base delay up to followMaxDelay, jittered to 50–100 %, without limit", () => {
      const delays = line.delays.rideOut(
        retry,
        Array.from({ length: 40 }, () => ({ _tag: "ServerError", fields: { request, status: 503, attempts: 6 } }))
      )
      expect(delays).toHaveLength(40)
      expectJittered(delays, (n) => Math.min(200 * 2 ** n, 60_000))
    })

    it("waits a RateLimited's Retry-After as sent, and stops at a permanent failure", () => {
      const rateLimited = {
        _tag: "RateLimited",
        fields: { request, status: 429, code: 429, msg: "Too many requests.", retryAfterMillis: 300_000, attempts: 1 }
      }
      const delays = line.delays.rideOut(retry, [
        rateLimited,
        {
          _tag: "TransportError",
          fields: { request, reason: "Connect", description: "ECONNREFUSED", attempts: 6 }
        },
        {
          _tag: "AuthenticationError",
          fields: { request, status: 401, code: 700001, msg: "Api key info invalid", reason: "ApiKey" }
        },
        rateLimited
      ])
      expect(delays[0]).toBe(300_000)
      expect(delays[1]).toBeGreaterThanOrEqual(200)
      expect(delays[1]).toBeLessThanOrEqual(400)
      // The permanent failure ends the schedule: nothing after it is retried.
      expect(delays).toHaveLength(2)
    })
  })
})
