// The service's answers as the lines' typed errors (the error table of docs/wire-contract.md), the
// retries, the clock resync, the client's rate limiter and the server text in errors, over the mock
// transport on the virtual clock, on both lines.
import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
import { describe, expect, it } from "vitest"
import { transferWire } from "../../../client/test/support/MockService.js"
import type { Outcome } from "../../src/Line.js"
import { failure as failureOf } from "../../src/Line.js"
import type { Answer, RunOptions, Seen, Settings } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const transfers = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  startTime: 1000,
  endTime: 2000,
  page: 3
} as const

const row = (r: ErrorBody.ErrorRow, headers?: Record<string, string>): Answer => ({
  status: r.status,
  body: { code: r.code, msg: r.msg },
  ...(headers ? { headers } : {})
})

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/

const gapsOf = (seen: ReadonlyArray<Seen>) => seen.slice(1).map((s, i) => s.at - seen[i]!.at)

describe.each(Simulations.all)("the error table of docs/wire-contract.md → tagged errors ($name)", (line) => {
  /** One transfer page call over `answer` (its n-th request), every retry wait let pass. */
  const call = async (
    answer: (n: number, seen: Seen) => Answer,
    settings: Settings = {},
    options: Partial<RunOptions> = {}
  ) => {
    let result: {
      readonly outcome: Outcome<unknown>
      readonly seen: ReadonlyArray<Seen>
      readonly timeRequests: ReadonlyArray<number>
    } | undefined
    await line.run({ answer: (s) => answer(s.n, s) }, { start: 0, settings, ...options }, async (sim) => {
      const pending = sim.call("transferHistory", transfers)
      await sim.adjust(30_000)
      result = { outcome: await pending, seen: sim.requests, timeRequests: sim.timeRequests }
    })
    return result!
  }

  const failure = async (answer: (n: number) => Answer, settings: Settings = {}, options: Partial<RunOptions> = {}) => {
    const { outcome, seen, timeRequests } = await call(answer, settings, options)
    return { error: failureOf(outcome), seen, timeRequests }
  }

  it.each(
    [
      ["700001 unknown key", ErrorBody.Errors.invalidApiKey, "AuthenticationError", "ApiKey"],
      ["700002 bad signature", ErrorBody.Errors.badSignature, "AuthenticationError", "Signature"],
      ["700007 no permission", ErrorBody.Errors.noPermission, "AuthenticationError", "Permission"],
      ["700004 mandatory", ErrorBody.Errors.mandatoryParameter("timestamp"), "ApiError", undefined],
      ["700005 recvWindow", ErrorBody.Errors.recvWindowOutOfRange, "ApiError", undefined],
      ["33333 invalid param", ErrorBody.Errors.invalidParameter("limit"), "ApiError", undefined]
    ] as const
  )("%s → %s, sent once, never retried", async (_name, r, tag, reason) => {
    const { error, seen } = await failure(() => row(r))
    expect(error._tag).toBe(tag)
    if (reason !== undefined) expect(error.fields["reason"]).toBe(reason)
    expect(error.fields).toMatchObject({ status: r.status, code: r.code, msg: r.msg })
    expect(seen.length).toBe(1)
    expect(error.fields["request"]).toEqual({ endpoint: "transferHistory", startTime: 1000, endTime: 2000, page: 3 })
    expect(error.message).toContain("transferHistory")
    expect(error.message).toContain("page 3")
  })

  it("AuthenticationError messages name the setting to check, however the configuration was made", async () => {
    // Options: the option alone.
    expect((await failure(() => row(ErrorBody.Errors.invalidApiKey))).error.message).toContain(
      "check the API key, apiKey: the service does not know this key."
    )
    expect((await failure(() => row(ErrorBody.Errors.badSignature))).error.message).toContain(
      "check the secret key, secretKey: it must be the secret of this API key."
    )
    expect((await failure(() => row(ErrorBody.Errors.noPermission))).error.message).toContain("SPOT_TRANSFER_READ")
    // The BROKER_* variables: the option and the variable it came from.
    const fromEnvironment = await failure(() => row(ErrorBody.Errors.badSignature), {}, {
      config: { variables: { BROKER_API_KEY: "key", BROKER_SECRET_KEY: "secret" } }
    })
    expect(fromEnvironment.error.message).toContain(
      "check the secret key, secretKey (from BROKER_SECRET_KEY): it must be the secret of this API key."
    )
    // The user's own Config (MEXC_*): the option only, never a variable the user did not use.
    const own = await failure(() => row(ErrorBody.Errors.badSignature), {}, {
      config: {
        variables: { MEXC_KEY: "key", MEXC_SECRET: "secret" },
        names: { apiKey: "MEXC_KEY", secretKey: "MEXC_SECRET" }
      }
    })
    expect(own.error.message).toContain("check the secret key, secretKey: it must be")
    expect(own.error.message).not.toContain("BROKER_")
  })

  it("a 4xx without a {code,msg} body is still typed (401 → AuthenticationError, 404 → ApiError)", async () => {
    expect((await failure(() => ({ status: 401, text: "nope" }))).error._tag).toBe("AuthenticationError")
    const notFound = await failure(() => ({ status: 404, text: "<html>not found</html>" }))
    expect(notFound.error).toMatchObject({ _tag: "ApiError", fields: { status: 404, msg: "<html>not found</html>" } })
  })

  it("429 → RateLimited after the retry budget, each retry waiting Retry-After", async () => {
    const { error, seen } = await failure(() => row(ErrorBody.Errors.tooManyRequests, { "retry-after": "7" }))
    expect(error).toMatchObject({
      _tag: "RateLimited",
      fields: { status: 429, code: 429, retryAfterMillis: 7000, attempts: 4 }
    })
    expect(seen.length).toBe(4)
    expect(gapsOf(seen)).toEqual([7000, 7000, 7000])
  })

  it("418 is rate limiting too", async () => {
    const { error } = await failure(() => ({ status: 418, body: { code: 418, msg: "banned" } }))
    expect(error._tag).toBe("RateLimited")
  })

  it("500 → ServerError after retries, each attempt with a fresh timestamp and signature", async () => {
    const { error, seen } = await failure(() => row(ErrorBody.Errors.internal))
    expect(error).toMatchObject({ _tag: "ServerError", fields: { status: 500, code: 500, attempts: 4 } })
    expect(seen.length).toBe(4)
    expect(new Set(seen.map((s) => s.params.get("timestamp"))).size).toBe(4)
    expect(new Set(seen.map((s) => s.params.get("signature"))).size).toBe(4)
  })

  it("a 503 with an HTML body is a ServerError", async () => {
    const { error } = await failure(() => ({ status: 503, text: "<html>busy</html>" }))
    expect(error).toMatchObject({ _tag: "ServerError", fields: { status: 503 } })
  })

  it("transport failures are retried, re-signed, and end as TransportError without the URL", async () => {
    const { error, seen } = await failure(() => ({ transport: "connect ECONNREFUSED 127.0.0.1:9" }))
    expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Connect", attempts: 4 } })
    expect(seen.length).toBe(4)
    expect(new Set(seen.map((s) => s.params.get("signature"))).size).toBe(4)
    expect(error.message).not.toContain("signature")
  })

  it("408 is retried as a timeout", async () => {
    const { error, seen } = await failure(() => ({ status: 408, text: "" }))
    expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Timeout" } })
    expect(seen.length).toBe(4)
  })

  it("a damaged (non-JSON) 200 body is retried, then ResponseDecodeError(InvalidJson)", async () => {
    const { error, seen } = await failure(() => ({ status: 200, text: "[{\"tranId\":\"1\",\"amo" }))
    expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "InvalidJson", attempts: 4 } })
    expect(seen.length).toBe(4)
  })

  it("recovers when a retry succeeds", async () => {
    const { outcome, seen } = await call((n) =>
      n === 1
        ? row(ErrorBody.Errors.internal)
        : n === 2
        ? { transport: "socket hang up" }
        : n === 3
        ? row(ErrorBody.Errors.tooManyRequests, { "retry-after": "2" })
        : { status: 200, body: [transferWire("9", 1500)] }
    )
    expect(outcome._tag).toBe("Success")
    expect(seen.length).toBe(4)
    expect(seen[3]!.at - seen[2]!.at).toBe(2000)
  })

  it("retries back off exponentially within the configured bounds", async () => {
    const { seen } = await failure(() => row(ErrorBody.Errors.internal), {
      retry: { maxRetries: 4, baseDelay: "100 millis", maxDelay: "250 millis" }
    })
    const gaps = gapsOf(seen)
    expect(gaps.length).toBe(4)
    // 100, 200, 250 (capped), 250 (capped): each jittered to 50–100 %.
    const caps = [100, 200, 250, 250]
    gaps.forEach((gap, i) => {
      expect(gap).toBeLessThanOrEqual(1000)
      expect(gap).toBeGreaterThanOrEqual(Math.floor(caps[i]! / 2))
    })
  })

  it("maxRetries 0 sends exactly once", async () => {
    const { seen } = await failure(() => row(ErrorBody.Errors.internal), { retry: { maxRetries: 0 } })
    expect(seen.length).toBe(1)
  })

  describe("timestamp rejection", () => {
    it("700003 → clock resync, re-signed, retried once with the server's time", async () => {
      const serverOffset = 60_000
      await line.run(
        {
          answer: (s) =>
            Number(s.params.get("timestamp")) < s.at + serverOffset - 5000
              ? row(ErrorBody.Errors.timestampOutsideRecvWindow)
              : { status: 200, body: [] },
          time: (_n, at) => ({ status: 200, body: { serverTime: at + serverOffset } })
        },
        { start: 0 },
        async (sim) => {
          const pending = sim.call("transferHistory", transfers)
          await sim.adjust(0)
          expect(await pending).toEqual({ _tag: "Success", value: [] })
          expect(sim.requests.length).toBe(2)
          expect(sim.timeRequests.length).toBe(1)
          const [first, second] = sim.requests
          expect(Number(second!.params.get("timestamp")) - Number(first!.params.get("timestamp")))
            .toBeGreaterThanOrEqual(serverOffset - 10)
          expect(second!.params.get("signature")).not.toBe(first!.params.get("signature"))
        }
      )
    })

    it("a second 700003 after the resync is TimestampRejected (no loop)", async () => {
      const { error, seen, timeRequests } = await failure(() => row(ErrorBody.Errors.timestampOutsideRecvWindow))
      expect(error._tag).toBe("TimestampRejected")
      expect(error.message).toContain("check the machine clock or raise recvWindow (max 60000)")
      expect(seen.length).toBe(2)
      expect(timeRequests.length).toBe(1)
    })
  })

  describe("client rate limiter", () => {
    it("the default margin of 25 ms widens the interval, so jitter cannot trip the service's limit", async () => {
      await line.run({ answer: () => ({ status: 200, body: [] }) }, {
        start: 0,
        settings: { rateLimit: { limit: 1, interval: "1 second" } }
      }, async (sim) => {
        const calls = (async () => {
          for (let i = 0; i < 3; i++) await sim.call("depositHistory", {})
        })()
        await sim.adjust(5_000)
        await calls
        expect(sim.requests.map((s) => s.at)).toEqual([0, 1025, 2050])
      })
    })

    it("spaces requests to the budget, shared by concurrent calls", async () => {
      await line.run({ answer: () => ({ status: 200, body: [] }) }, {
        start: 0,
        settings: { rateLimit: { limit: 4, interval: "1 second", margin: "0 millis" } }
      }, async (sim) => {
        const six = async (run: () => Promise<unknown>) => {
          for (let i = 0; i < 6; i++) await run()
        }
        const calls = Promise.all([
          six(() => sim.call("transferHistory", transfers)),
          six(() => sim.call("depositHistory", {}))
        ])
        await sim.adjust(10)
        // 4 may start at once; the 5th waits until the first is 1 s old.
        expect(sim.requests.length).toBe(4)
        await sim.adjust(980)
        expect(sim.requests.length).toBe(4)
        await sim.adjust(20)
        expect(sim.requests.length).toBe(8)
        await sim.adjust(10_000)
        await calls
        expect(sim.requests.length).toBe(12)
        // Over any window of 1 s, no more than 4 requests start.
        const times = sim.requests.map((s) => s.at)
        for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(4)
        expect(times[11]! - times[0]!).toBeGreaterThanOrEqual(2000)
      })
    })
  })

  describe("a 2xx whose body is a {code,msg} refusal is classified by the error table", () => {
    it.each(
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
    )("200 {code: %s} → %s, sent once", async (_name, body, tag, reason) => {
      const { error, seen } = await failure(() => ({ status: 200, body }))
      expect(error._tag).toBe(tag)
      if (reason !== undefined) expect(error.fields["reason"]).toBe(reason)
      expect(error.fields).toMatchObject({ status: 200, code: Number(body.code), msg: body.msg })
      expect(seen.length).toBe(1)
    })

    it("200 {code:700003} → clock resync and one re-signed retry, then TimestampRejected", async () => {
      const { error, seen, timeRequests } = await failure(() => ({
        status: 200,
        body: { code: 700003, msg: "outside" }
      }))
      expect(error).toMatchObject({ _tag: "TimestampRejected", fields: { status: 200, code: 700003 } })
      expect(seen.length).toBe(2)
      expect(timeRequests.length).toBe(1)
    })

    it("200 {code:429} → RateLimited, retried as a 429 is", async () => {
      const { error, seen } = await failure(() => ({ status: 200, body: { code: 429, msg: "Too many requests." } }))
      expect(error).toMatchObject({ _tag: "RateLimited", fields: { status: 200, code: 429, attempts: 4 } })
      expect(seen.length).toBe(4)
    })

    it("anything else of the wrong shape is a ResponseDecodeError with a short description", async () => {
      for (const body of [{ code: "abc", msg: "x" }, { code: 1 }, { foo: 1, bar: [1, 2, 3] }, [1, 2, 3]]) {
        const { error, seen } = await failure(() => ({ status: 200, body }))
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "UnexpectedShape" } })
        expect(seen.length).toBe(1)
        expect(String(error.fields["description"]).length).toBeLessThanOrEqual(200)
        expect(error.message).not.toContain("\n")
      }
      const { error } = await failure(() => ({ status: 200, body: { foo: 1 } }))
      expect(error.fields["description"]).toBe("body: expected an array, got an object with fields foo")
    })

    it("a record field holding 100,000 nested arrays is described in one bounded line", async () => {
      const deep = "[".repeat(100_000) + "]".repeat(100_000)
      const { error } = await failure(() => ({
        status: 200,
        text: `[{"tranId":${deep},"asset":"USDT","amount":"1","timestamp":1}]`
      }))
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "UnexpectedShape" } })
      expect(error.fields["description"]).toBe("[0].tranId: expected a non-empty identifier, got an array of 1 element")
      expect(error.message.length).toBeLessThanOrEqual(600)
    })
  })

  describe("server text in errors", () => {
    it("a refusal's msg loses its control characters and is cut to a few hundred characters", async () => {
      const msg = "\u001b[2J\u001b]0;owned\u0007bad\r\nline\u009b" + "y".repeat(10_000)
      const { error } = await failure(() => ({ status: 400, body: { code: 33333, msg } }))
      const refused = String(error.fields["msg"])
      expect(error._tag).toBe("ApiError")
      expect(refused).not.toMatch(controls)
      expect(refused.startsWith("\uFFFD[2J\uFFFD]0;owned\uFFFDbad\uFFFD\uFFFDline\uFFFDyyy")).toBe(true)
      expect(refused.length).toBeLessThanOrEqual(301)
      expect(refused.endsWith("…")).toBe(true)
      expect(error.message).not.toMatch(controls)
    })

    it("a damaged body's excerpt and the parser's description carry no control characters", async () => {
      const { error } = await failure(() => ({ status: 200, text: "\u001b[31m{oops\u0085" }), {
        retry: { maxRetries: 0 }
      })
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "InvalidJson" } })
      expect(error.fields["excerpt"]).not.toMatch(controls)
      expect(error.fields["description"]).not.toMatch(controls)
      expect(error.message).not.toMatch(controls)
    })
  })

  describe("Retry-After beyond retry.maxRetryAfter, and absurd ones", () => {
    const retry = { maxRetries: 3, baseDelay: "100 millis", maxDelay: "1 second", maxRetryAfter: "5 seconds" } as const
    const limited = (retryAfter: string): Answer => ({
      status: 429,
      body: { code: 429, msg: "Too many requests." },
      headers: { "retry-after": retryAfter }
    })

    it("a wait within maxRetryAfter is obeyed; a longer one fails at once, carrying the wait", async () => {
      const within = await failure(() => limited("5"), { retry })
      expect(within.error).toMatchObject({ _tag: "RateLimited", fields: { retryAfterMillis: 5000, attempts: 4 } })
      expect(within.seen.length).toBe(4)
      const beyond = await failure(() => limited("6"), { retry })
      expect(beyond.error).toMatchObject({
        _tag: "RateLimited",
        fields: { retryAfterMillis: 6000, maxRetryAfterMillis: 5000, attempts: 1 }
      })
      expect(beyond.seen.length).toBe(1)
      expect(beyond.error.message).toContain("asked to wait 6s")
      expect(beyond.error.message).toContain("raise retry.maxRetryAfter to wait that long")
      expect(beyond.error.message).not.toContain("\n")
    })

    it.each([
      ["a date far in the future", "Fri, 31 Dec 9999 23:59:59 GMT"],
      ["a number of seconds beyond any date", "99999999999999999999999"]
    ])("%s fails at once", async (_name, value) => {
      const { error, seen } = await failure(() => limited(value), { retry })
      expect(error).toMatchObject({ _tag: "RateLimited", fields: { maxRetryAfterMillis: 5000, attempts: 1 } })
      expect(error.fields["retryAfterMillis"]).toBeGreaterThan(5000)
      expect(seen.length).toBe(1)
    })

    it.each([["-5"], ["NaN"], ["1.5"], ["soon"], ["Thu, 01 Jan 1970 00:00:00 GMT"], [""]])(
      "Retry-After %j asks for no usable wait: retried with backoff",
      async (value) => {
        // A fixed budget, so only the backoff spaces the attempts (100, 200, 400 ms at most).
        const rateLimit = { limit: 1000, interval: "1 second", adaptive: false } as const
        const { error, seen } = await failure(() => limited(value), { retry, rateLimit })
        expect(error).toMatchObject({ _tag: "RateLimited", fields: { retryAfterMillis: 0, attempts: 4 } })
        expect(seen.length).toBe(4)
        // The jittered waits are fractions of a millisecond: a gap between two such times may exceed
        // its wait by a rounding step.
        for (const gap of gapsOf(seen)) expect(gap).toBeLessThanOrEqual(400 + 1e-6)
      }
    )

    it("a 418 ban longer than maxRetryAfter fails its request at once and does not hold back the next", async () => {
      await line.run(
        {
          answer: (s) =>
            s.n === 1
              ? { status: 418, body: { code: 418, msg: "banned" }, headers: { "retry-after": "100000" } }
              : { status: 200, body: [] }
        },
        { start: 0, settings: { retry } },
        async (sim) => {
          const both = (async () => {
            const banned = await sim.call("transferHistory", transfers)
            const page = await sim.call("transferHistory", transfers)
            return [banned, page] as const
          })()
          await sim.adjust(10_000)
          const [banned, page] = await both
          expect(failureOf(banned)).toMatchObject({
            _tag: "RateLimited",
            fields: { status: 418, retryAfterMillis: 100_000_000, attempts: 1 }
          })
          expect(page).toEqual({ _tag: "Success", value: [] })
          expect(sim.requests.length).toBe(2)
        }
      )
    })
  })
})
