import type { BrokerError } from "@broker-history/client-effect4"
import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Config, ConfigProvider, Duration, Effect, Fiber, Layer } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer } from "./support/MockService.js"
import { historyLayerSyncSigning, mockService, transferWire } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const transfers = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  startTime: 1000,
  endTime: 2000,
  page: 3
} as const

const call = (answer: (n: number) => Answer, overrides = {}) =>
  Effect.gen(function*() {
    const mock = mockService((s) => answer(s.n))
    const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
      Effect.flatMap((h) => h.transferHistory(transfers)),
      Effect.provide(historyLayerSyncSigning(mock, overrides)),
      Effect.result,
      Effect.forkChild
    )
    // Let every retry wait pass.
    yield* VirtualClock.adjust("30 seconds")
    const result = yield* Fiber.join(fiber)
    return { result, mock }
  }).pipe(VirtualClock.run())

const failure = (answer: (n: number) => Answer, overrides = {}) =>
  Effect.map(call(answer, overrides), ({ mock, result }) => {
    if (result._tag === "Success") throw new Error("expected a failure")
    return { error: result.failure as BrokerError.BrokerError, mock }
  })

/** The error of one page call over the mock with settings from `config` read from `variables`. */
const failureWith = (
  config: Layer.Layer<BrokerConfig.BrokerConfig, Config.ConfigError>,
  variables: Map<string, string>,
  r: ErrorBody.ErrorRow
) =>
  Effect.service(BrokerHistory.BrokerHistory).pipe(
    Effect.flatMap((h) => h.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES" })),
    Effect.flip,
    Effect.provide(BrokerHistory.layer.pipe(Layer.provide(config), Layer.provide(mockService(() => row(r)).client))),
    Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: Object.fromEntries(variables) }))
  )

const row = (r: ErrorBody.ErrorRow, headers?: Record<string, string>): Answer => ({
  status: r.status,
  body: { code: r.code, msg: r.msg },
  ...(headers ? { headers } : {})
})

describe("the error table of docs/wire-contract.md → tagged errors", () => {
  it.effect.each(
    [
      ["700001 unknown key", ErrorBody.Errors.invalidApiKey, "AuthenticationError", "ApiKey"],
      ["700002 bad signature", ErrorBody.Errors.badSignature, "AuthenticationError", "Signature"],
      ["700007 no permission", ErrorBody.Errors.noPermission, "AuthenticationError", "Permission"],
      ["700004 mandatory", ErrorBody.Errors.mandatoryParameter("timestamp"), "ApiError", undefined],
      ["700005 recvWindow", ErrorBody.Errors.recvWindowOutOfRange, "ApiError", undefined],
      ["33333 invalid param", ErrorBody.Errors.invalidParameter("limit"), "ApiError", undefined]
    ] as const
  )("%s → %s, sent once, never retried", ([_name, r, tag, reason]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => row(r))
      expect(error._tag).toBe(tag)
      if (reason !== undefined) expect((error as BrokerError.AuthenticationError).reason).toBe(reason)
      expect(error).toMatchObject({ status: r.status, code: r.code, msg: r.msg })
      expect(mock.seen.length).toBe(1)
      expect((error as BrokerError.ApiError).request).toEqual({
        endpoint: "transferHistory",
        startTime: 1000,
        endTime: 2000,
        page: 3
      })
      expect(error.message).toContain("transferHistory")
      expect(error.message).toContain("page 3")
    }))

  it.effect("AuthenticationError messages name the setting to check, however the configuration was made", () =>
    Effect.gen(function*() {
      // Options: the option alone.
      expect((yield* failure(() => row(ErrorBody.Errors.invalidApiKey))).error.message).toContain(
        "check the API key, apiKey: the service does not know this key."
      )
      expect((yield* failure(() => row(ErrorBody.Errors.badSignature))).error.message).toContain(
        "check the secret key, secretKey: it must be the secret of this API key."
      )
      expect((yield* failure(() => row(ErrorBody.Errors.noPermission))).error.message).toContain("SPOT_TRANSFER_READ")
      // The BROKER_* variables: the option and the variable it came from.
      const variables = new Map([["BROKER_API_KEY", "key"], ["BROKER_SECRET_KEY", "secret"]])
      const fromEnvironment = yield* failureWith(BrokerConfig.layerConfig(), variables, ErrorBody.Errors.badSignature)
      expect(fromEnvironment.message).toContain(
        "check the secret key, secretKey (from BROKER_SECRET_KEY): it must be the secret of this API key."
      )
      // The user's own Config (MEXC_*): the option only, never a variable the user did not use.
      const own = yield* failureWith(
        BrokerConfig.layerConfig({ apiKey: Config.Redacted("MEXC_KEY"), secretKey: Config.Redacted("MEXC_SECRET") }),
        new Map([["MEXC_KEY", "key"], ["MEXC_SECRET", "secret"]]),
        ErrorBody.Errors.badSignature
      )
      expect(own.message).toContain("check the secret key, secretKey: it must be")
      expect(own.message).not.toContain("BROKER_")
    }))

  it.effect("a 4xx without a {code,msg} body is still typed (401 → AuthenticationError, 404 → ApiError)", () =>
    Effect.gen(function*() {
      expect((yield* failure(() => ({ status: 401, text: "nope" }))).error._tag).toBe("AuthenticationError")
      const notFound = yield* failure(() => ({ status: 404, text: "<html>not found</html>" }))
      expect(notFound.error).toMatchObject({ _tag: "ApiError", status: 404, msg: "<html>not found</html>" })
    }))

  it.effect("429 → RateLimited after the retry budget, each retry waiting Retry-After", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => row(ErrorBody.Errors.tooManyRequests, { "retry-after": "7" }))
      expect(error).toMatchObject({ _tag: "RateLimited", status: 429, code: 429, retryAfterMillis: 7000, attempts: 4 })
      expect(mock.seen.length).toBe(4)
      const gaps = mock.seen.slice(1).map((s, i) => s.at - mock.seen[i]!.at)
      expect(gaps).toEqual([7000, 7000, 7000])
    }))

  it.effect("418 is rate limiting too", () =>
    Effect.gen(function*() {
      const { error } = yield* failure(() => ({ status: 418, body: { code: 418, msg: "banned" } }))
      expect(error._tag).toBe("RateLimited")
    }))

  it.effect("500 → ServerError after retries, each attempt with a fresh timestamp and signature", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => row(ErrorBody.Errors.internal))
      expect(error).toMatchObject({ _tag: "ServerError", status: 500, code: 500, attempts: 4 })
      expect(mock.seen.length).toBe(4)
      const timestamps = mock.seen.map((s) => s.params.get("timestamp"))
      const signatures = mock.seen.map((s) => s.params.get("signature"))
      expect(new Set(timestamps).size).toBe(4)
      expect(new Set(signatures).size).toBe(4)
    }))

  it.effect("a 503 with an HTML body is a ServerError", () =>
    Effect.gen(function*() {
      const { error } = yield* failure(() => ({ status: 503, text: "<html>busy</html>" }))
      expect(error).toMatchObject({ _tag: "ServerError", status: 503 })
    }))

  it.effect("transport failures are retried, re-signed, and end as TransportError without the URL", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ transport: "connect ECONNREFUSED 127.0.0.1:9" }))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Connect", attempts: 4 })
      expect(mock.seen.length).toBe(4)
      expect(new Set(mock.seen.map((s) => s.params.get("signature"))).size).toBe(4)
      expect(error.message).not.toContain("signature")
    }))

  it.effect("408 is retried as a timeout", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ status: 408, text: "" }))
      expect(error).toMatchObject({ _tag: "TransportError", reason: "Timeout" })
      expect(mock.seen.length).toBe(4)
    }))

  it.effect("a damaged (non-JSON) 200 body is retried, then ResponseDecodeError(InvalidJson)", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ status: 200, text: "[{\"tranId\":\"1\",\"amo" }))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "InvalidJson", attempts: 4 })
      expect(mock.seen.length).toBe(4)
    }))

  it.effect("recovers when a retry succeeds", () =>
    Effect.gen(function*() {
      const { mock, result } = yield* call((n) =>
        n === 1
          ? row(ErrorBody.Errors.internal)
          : n === 2
          ? { transport: "socket hang up" }
          : n === 3
          ? row(ErrorBody.Errors.tooManyRequests, { "retry-after": "2" })
          : { status: 200, body: [transferWire("9", 1500)] }
      )
      expect(result._tag).toBe("Success")
      expect(mock.seen.length).toBe(4)
      expect(mock.seen[3]!.at - mock.seen[2]!.at).toBe(2000)
    }))

  it.effect("retries back off exponentially within the configured bounds", () =>
    Effect.gen(function*() {
      const { mock } = yield* failure(() => row(ErrorBody.Errors.internal), {
        retry: { maxRetries: 4, baseDelay: "100 millis", maxDelay: "250 millis" }
      })
      const gaps = mock.seen.slice(1).map((s, i) => s.at - mock.seen[i]!.at)
      expect(gaps.length).toBe(4)
      // 100, 200, 250 (capped), 250 (capped): each jittered to 50–100 %.
      const caps = [100, 200, 250, 250]
      gaps.forEach((gap, i) => {
        expect(gap).toBeLessThanOrEqual(1000)
        expect(gap).toBeGreaterThanOrEqual(Math.floor(caps[i]! / 2))
      })
    }))

  it.effect("maxRetries 0 sends exactly once", () =>
    Effect.gen(function*() {
      const { mock } = yield* failure(() => row(ErrorBody.Errors.internal), { retry: { maxRetries: 0 } })
      expect(mock.seen.length).toBe(1)
    }))
})

describe("timestamp rejection", () => {
  it.effect("700003 → clock resync, re-signed, retried once with the server's time", () =>
    Effect.gen(function*() {
      const serverOffset = 60_000
      const mock = mockService(
        (s) =>
          Number(s.params.get("timestamp")) < s.at + serverOffset - 5000
            ? row(ErrorBody.Errors.timestampOutsideRecvWindow)
            : { status: 200, body: [] },
        { serverOffset }
      )
      const page = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) => h.transferHistory(transfers)),
        Effect.provide(historyLayerSyncSigning(mock))
      )
      expect(page).toEqual([])
      expect(mock.seen.length).toBe(2)
      expect(mock.timeRequests.length).toBe(1)
      const [first, second] = mock.seen
      expect(Number(second!.params.get("timestamp")) - Number(first!.params.get("timestamp"))).toBeGreaterThanOrEqual(
        serverOffset - 10
      )
      expect(second!.params.get("signature")).not.toBe(first!.params.get("signature"))
    }))

  it.effect("a second 700003 after the resync is TimestampRejected (no loop)", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => row(ErrorBody.Errors.timestampOutsideRecvWindow))
      expect(error._tag).toBe("TimestampRejected")
      expect(error.message).toContain("check the machine clock or raise recvWindow (max 60000)")
      expect(mock.seen.length).toBe(2)
      expect(mock.timeRequests.length).toBe(1)
    }))
})

describe("client rate limiter", () => {
  it.effect("the default margin of 25 ms widens the interval, so jitter cannot trip the service's limit", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({ status: 200, body: [] }))
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) => Effect.replicateEffect(h.depositHistory({}), 3)),
        Effect.provide(historyLayerSyncSigning(mock, { rateLimit: { limit: 1, interval: "1 second" } })),
        Effect.forkChild
      )
      yield* VirtualClock.adjust("5 seconds")
      yield* Fiber.join(fiber)
      expect(mock.seen.map((s) => s.at)).toEqual([0, 1025, 2050])
    }).pipe(VirtualClock.run()))

  it.effect("spaces requests to the budget, shared by concurrent calls", () =>
    Effect.gen(function*() {
      const mock = mockService(() => ({ status: 200, body: [] }))
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) =>
          Effect.all([
            Effect.replicateEffect(h.transferHistory(transfers), 6),
            Effect.replicateEffect(h.depositHistory({}), 6)
          ], { concurrency: 2 })
        ),
        Effect.provide(
          historyLayerSyncSigning(mock, { rateLimit: { limit: 4, interval: "1 second", margin: "0 millis" } })
        ),
        Effect.forkChild
      )
      yield* VirtualClock.adjust(Duration.millis(10))
      // 4 may start at once; the 5th waits until the first is 1 s old.
      expect(mock.seen.length).toBe(4)
      yield* VirtualClock.adjust(Duration.millis(980))
      expect(mock.seen.length).toBe(4)
      yield* VirtualClock.adjust(Duration.millis(20))
      expect(mock.seen.length).toBe(8)
      yield* VirtualClock.adjust("10 seconds")
      yield* Fiber.join(fiber)
      expect(mock.seen.length).toBe(12)
      // Over any window of 1 s, no more than 4 requests start.
      const times = mock.seen.map((s) => s.at)
      for (const t of times) {
        expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(4)
      }
      expect(times[11]! - times[0]!).toBeGreaterThanOrEqual(2000)
    }).pipe(VirtualClock.run()))
})

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/

describe("a 2xx whose body is a {code,msg} refusal is classified by the error table", () => {
  it.effect.each(
    [
      ["700001", { code: 700001, msg: "API-key format invalid." }, "AuthenticationError", "ApiKey"],
      [
        "700002 as text",
        { code: "700002", msg: "Signature for this request is not valid." },
        "AuthenticationError",
        "Signature"
      ],
      ["700007", { code: 700007, msg: "No permission to access the endpoint." }, "AuthenticationError", "Permission"],
      ["33333", { code: 33333, msg: "Param is error: limit" }, "ApiError", undefined]
    ] as const
  )("200 {code: %s} → %s, sent once", ([_name, body, tag, reason]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ status: 200, body }))
      expect(error._tag).toBe(tag)
      if (reason !== undefined) expect((error as BrokerError.AuthenticationError).reason).toBe(reason)
      expect(error).toMatchObject({ status: 200, code: Number(body.code), msg: body.msg })
      expect(mock.seen.length).toBe(1)
    }))

  it.effect("200 {code:700003} → clock resync and one re-signed retry, then TimestampRejected", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ status: 200, body: { code: 700003, msg: "outside" } }))
      expect(error).toMatchObject({ _tag: "TimestampRejected", status: 200, code: 700003 })
      expect(mock.seen.length).toBe(2)
      expect(mock.timeRequests.length).toBe(1)
    }))

  it.effect("200 {code:429} → RateLimited, retried as a 429 is", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => ({ status: 200, body: { code: 429, msg: "Too many requests." } }))
      expect(error).toMatchObject({ _tag: "RateLimited", status: 200, code: 429, attempts: 4 })
      expect(mock.seen.length).toBe(4)
    }))

  it.effect("anything else of the wrong shape is a ResponseDecodeError with a short description", () =>
    Effect.gen(function*() {
      for (const body of [{ code: "abc", msg: "x" }, { code: 1 }, { foo: 1, bar: [1, 2, 3] }, [1, 2, 3]]) {
        const { error, mock } = yield* failure(() => ({ status: 200, body }))
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "UnexpectedShape" })
        expect(mock.seen.length).toBe(1)
        expect((error as BrokerError.ResponseDecodeError).description.length).toBeLessThanOrEqual(200)
        expect(error.message).not.toContain("\n")
      }
      const { error } = yield* failure(() => ({ status: 200, body: { foo: 1 } }))
      expect((error as BrokerError.ResponseDecodeError).description).toBe(
        "body: expected an array, got an object with fields foo"
      )
    }))

  it.effect("a record field holding 100,000 nested arrays is described in one bounded line", () =>
    Effect.gen(function*() {
      const deep = "[".repeat(100_000) + "]".repeat(100_000)
      const { error } = yield* failure(() => ({
        status: 200,
        text: `[{"tranId":${deep},"asset":"USDT","amount":"1","timestamp":1}]`
      }))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "UnexpectedShape" })
      expect((error as BrokerError.ResponseDecodeError).description).toBe(
        "[0].tranId: expected a non-empty identifier, got an array of 1 element"
      )
      expect(error.message.length).toBeLessThanOrEqual(600)
    }))
})

describe("server text in errors", () => {
  it.effect("a refusal's msg loses its control characters and is cut to a few hundred characters", () =>
    Effect.gen(function*() {
      const msg = "\u001b[2J\u001b]0;owned\u0007bad\r\nline\u009b" + "y".repeat(10_000)
      const { error } = yield* failure(() => ({ status: 400, body: { code: 33333, msg } }))
      const refused = error as BrokerError.ApiError
      expect(refused.msg).not.toMatch(controls)
      expect(refused.msg.startsWith("\uFFFD[2J\uFFFD]0;owned\uFFFDbad\uFFFD\uFFFDline\uFFFDyyy")).toBe(true)
      expect(refused.msg.length).toBeLessThanOrEqual(301)
      expect(refused.msg.endsWith("…")).toBe(true)
      expect(error.message).not.toMatch(controls)
    }))

  it.effect("a damaged body's excerpt and the parser's description carry no control characters", () =>
    Effect.gen(function*() {
      const { error } = yield* failure(() => ({ status: 200, text: "\u001b[31m{oops\u0085" }), {
        retry: { maxRetries: 0 }
      })
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "InvalidJson" })
      const decodeError = error as BrokerError.ResponseDecodeError
      expect(decodeError.excerpt).not.toMatch(controls)
      expect(decodeError.description).not.toMatch(controls)
      expect(error.message).not.toMatch(controls)
    }))
})

describe("Retry-After beyond retry.maxRetryAfter, and absurd ones", () => {
  const retry = { maxRetries: 3, baseDelay: "100 millis", maxDelay: "1 second", maxRetryAfter: "5 seconds" } as const
  const limited = (retryAfter: string): Answer => ({
    status: 429,
    body: { code: 429, msg: "Too many requests." },
    headers: { "retry-after": retryAfter }
  })

  it.effect("a wait within maxRetryAfter is obeyed; a longer one fails at once, carrying the wait", () =>
    Effect.gen(function*() {
      const within = yield* failure(() => limited("5"), { retry })
      expect(within.error).toMatchObject({ _tag: "RateLimited", retryAfterMillis: 5000, attempts: 4 })
      expect(within.mock.seen.length).toBe(4)
      const beyond = yield* failure(() => limited("6"), { retry })
      expect(beyond.error).toMatchObject({
        _tag: "RateLimited",
        retryAfterMillis: 6000,
        maxRetryAfterMillis: 5000,
        attempts: 1
      })
      expect(beyond.mock.seen.length).toBe(1)
      expect(beyond.error.message).toContain("asked to wait 6s")
      expect(beyond.error.message).toContain("raise retry.maxRetryAfter to wait that long")
      expect(beyond.error.message).not.toContain("\n")
    }))

  it.effect.each([
    ["a date far in the future", "Fri, 31 Dec 9999 23:59:59 GMT"],
    ["a number of seconds beyond any date", "99999999999999999999999"]
  ])("%s fails at once", ([_name, value]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(() => limited(value), { retry })
      expect(error).toMatchObject({ _tag: "RateLimited", maxRetryAfterMillis: 5000, attempts: 1 })
      expect((error as BrokerError.RateLimited).retryAfterMillis).toBeGreaterThan(5000)
      expect(mock.seen.length).toBe(1)
    }))

  it.effect.each([["-5"], ["NaN"], ["1.5"], ["soon"], ["Thu, 01 Jan 1970 00:00:00 GMT"], [""]])(
    "Retry-After %j asks for no usable wait: retried with backoff",
    ([value]) =>
      Effect.gen(function*() {
        // A fixed budget, so only the backoff spaces the attempts (100, 200, 400 ms at most).
        const rateLimit = { limit: 1000, interval: "1 second", adaptive: false } as const
        const { error, mock } = yield* failure(() => limited(value), { retry, rateLimit })
        expect(error).toMatchObject({ _tag: "RateLimited", retryAfterMillis: 0, attempts: 4 })
        expect(mock.seen.length).toBe(4)
        const gaps = mock.seen.slice(1).map((s, i) => s.at - mock.seen[i]!.at)
        for (const gap of gaps) expect(gap).toBeLessThanOrEqual(400)
      })
  )

  it.effect("a 418 ban longer than maxRetryAfter fails its request at once and does not hold back the next", () =>
    Effect.gen(function*() {
      const mock = mockService((s) =>
        s.n === 1
          ? { status: 418, body: { code: 418, msg: "banned" }, headers: { "retry-after": "100000" } }
          : { status: 200, body: [] }
      )
      const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
        Effect.flatMap((h) => Effect.zip(Effect.flip(h.transferHistory(transfers)), h.transferHistory(transfers))),
        Effect.provide(historyLayerSyncSigning(mock, { retry })),
        Effect.forkChild
      )
      yield* VirtualClock.adjust("10 seconds")
      const [banned, page] = yield* Fiber.join(fiber)
      expect(banned).toMatchObject({ _tag: "RateLimited", status: 418, retryAfterMillis: 100_000_000, attempts: 1 })
      expect(page).toEqual([])
      expect(mock.seen.length).toBe(2)
    }).pipe(VirtualClock.run()))
})
