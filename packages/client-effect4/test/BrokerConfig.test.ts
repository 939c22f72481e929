import { BrokerConfig, BrokerError } from "@broker-history/client-effect4"
import { ConfigProvider, Duration, Effect, Option, Pull, Redacted, Result, Schedule } from "effect"
import { describe, expect, it } from "vitest"

const credentials = { apiKey: Redacted.make("k"), secretKey: Redacted.make("s") }

const fromEnv = (env: Record<string, string>) =>
  Effect.result(
    Effect.service(BrokerConfig.BrokerConfig).pipe(
      Effect.provide(BrokerConfig.layerConfig()),
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
  )

const failureText = <A, E>(result: Result.Result<A, E>): string =>
  Result.isFailure(result) ? String(result.failure) : ""

// How many retries a schedule allows a request that keeps failing with a retryable error.
const retriesOf = (schedule: Schedule.Schedule<unknown, BrokerError.BrokerError>) =>
  Effect.runSync(Effect.gen(function*() {
    const step = yield* Schedule.toStep(schedule)
    const failure = new BrokerError.ServerError({ request, status: 503, attempts: 1 })
    const next = () =>
      Pull.matchEffect(step(0, failure), {
        onSuccess: () => Effect.succeed(Option.some(true)),
        onDone: () => Effect.succeed(Option.none()),
        onFailure: Effect.failCause
      })
    let retries = 0
    while (retries < 200 && Option.isSome(yield* next())) retries++
    return retries
  }))
const request = { endpoint: "transferHistory" }

describe("BrokerConfig", () => {
  it("fills in defaults", () => {
    const settings = Result.getOrThrow(BrokerConfig.resolve(credentials))
    expect(settings.baseUrl).toBe("https://api.mexc.com")
    expect(settings.apiKeyHeader).toBe("X-MEXC-APIKEY")
    expect(settings.recvWindow).toBeUndefined()
    expect(Duration.toMillis(settings.requestTimeout)).toBe(10_000)
    expect(retriesOf(settings.retry.schedule)).toBe(5)
    expect(settings.rateLimit.limit).toBe(20)
    expect(Duration.toMillis(settings.rateLimit.interval)).toBe(1000)
    expect(Duration.toMillis(settings.rateLimit.margin)).toBe(25)
    expect(Duration.toDays(settings.maxWindow.deposits)).toBe(10)
    expect(settings.maxWindow.transfers).toBeUndefined()
    expect(Duration.toMillis(settings.retry.maxRetryAfter)).toBe(60_000)
    expect(Duration.toMillis(settings.retry.followMaxDelay)).toBe(60_000)
    expect(settings.maxResponseBytes).toBe(16 * 1024 * 1024)
    expect(settings.maxPagesPerMillisecond).toBe(20)
    expect(settings.onIncomplete).toBe("fail")
  })

  it("reads the robustness settings from the environment", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatMap(
        fromEnv({
          BROKER_API_KEY: "k",
          BROKER_SECRET_KEY: "s",
          BROKER_MAX_RETRY_AFTER: "30 seconds",
          BROKER_FOLLOW_RETRY_MAX_DELAY: "2 minutes",
          BROKER_MAX_RESPONSE_BYTES: "1048576",
          BROKER_MAX_PAGES_PER_MILLISECOND: "5",
          BROKER_ON_INCOMPLETE: "warn"
        }),
        Effect.fromResult
      )
      expect(Duration.toMillis(settings.retry.maxRetryAfter)).toBe(30_000)
      expect(Duration.toMillis(settings.retry.followMaxDelay)).toBe(120_000)
      expect(settings.maxResponseBytes).toBe(1_048_576)
      expect(settings.maxPagesPerMillisecond).toBe(5)
      expect(settings.onIncomplete).toBe("warn")
      const refused = yield* fromEnv({ BROKER_API_KEY: "k ", BROKER_SECRET_KEY: "s" })
      expect(failureText(refused)).toContain(
        "apiKey (from BROKER_API_KEY) has leading or trailing whitespace"
      )
    }).pipe(Effect.runSync))

  // The rules are core's (its Settings tests); these are the ones this line's durations, schedules and
  // redacted credentials reach it through.
  it.each([
    [{ requestTimeout: 0 }, "requestTimeout"],
    [{ retry: { baseDelay: "2 seconds", maxDelay: "1 second" } }, "retry.maxDelay"],
    [{ rateLimit: { interval: "0 millis" } }, "rateLimit.interval"],
    [{ rateLimit: { margin: "Infinity" } }, "rateLimit.margin"],
    [{ secretKey: Redacted.make("") }, "secretKey"],
    [{ apiKey: Redacted.make(" key") }, "apiKey"],
    [{ retry: { maxRetryAfter: "0 millis" } }, "retry.maxRetryAfter"],
    [{ retry: { schedule: Schedule.recurs(1), maxRetries: 3 } }, "retry.schedule"],
    [{ retry: { schedule: Schedule.recurs(1), maxDelay: "1 second" } }, "retry.schedule"],
    [{ retry: { schedule: { recurs: 1 } as unknown as Schedule.Schedule<unknown> } }, "retry.schedule"],
    [{ retry: { followMaxDelay: "100 millis" } }, "retry.followMaxDelay"]
  ])("refuses %j naming %s", (override, name) => {
    const result = BrokerConfig.resolve({ ...credentials, ...override } as BrokerConfig.Options)
    expect(Result.isFailure(result)).toBe(true)
    expect(failureText(result)).toContain(name)
  })

  it("reads the environment, keeping secrets redacted", () =>
    Effect.gen(function*() {
      const result = yield* fromEnv({
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
      })
      const settings = Result.getOrThrow(result)
      expect(settings.baseUrl).toBe("http://127.0.0.1:9999")
      expect(Redacted.value(settings.secretKey)).toBe("env-secret")
      expect(String(settings.secretKey)).not.toContain("env-secret")
      expect(JSON.stringify(settings)).not.toContain("env-secret")
      expect(settings.recvWindow).toBe(7000)
      expect(Duration.toMillis(settings.requestTimeout)).toBe(3000)
      expect(retriesOf(settings.retry.schedule)).toBe(2)
      expect(settings.rateLimit).toMatchObject({ limit: 5 })
      expect(Duration.toDays(settings.maxWindow.deposits)).toBe(5)
      expect(Duration.toDays(settings.maxWindow.transfers!)).toBe(30)
    }).pipe(Effect.runSync))

  it("names the missing or bad variable", () =>
    Effect.gen(function*() {
      const missing = yield* fromEnv({ BROKER_API_KEY: "k" })
      expect(failureText(missing)).toContain("BROKER_SECRET_KEY")
      const badWindow = yield* fromEnv({ BROKER_API_KEY: "k", BROKER_SECRET_KEY: "s", BROKER_RECV_WINDOW: "70000" })
      expect(failureText(badWindow)).toContain("BROKER_RECV_WINDOW")
      const insecure = yield* fromEnv({ BROKER_API_KEY: "k", BROKER_SECRET_KEY: "s", BROKER_BASE_URL: "http://x.test" })
      expect(failureText(insecure)).toContain("BROKER_ALLOW_INSECURE_HTTP")
    }).pipe(Effect.runSync))
})
