// A broken or malicious service on 127.0.0.1, on every line over every transport it has: every
// request ends with a typed error whose message is one bounded line free of control characters,
// memory stays bounded, nothing waits for longer than the settings allow, and redirects are
// reported, not followed (fetch's default mode follows them, the key header with it: why the
// transports ask it not to).
import { describe, expect, it } from "vitest"
import type { Failure, Settings } from "../src/Line.js"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Answer, Service } from "../src/ScriptedService.js"
import { announced, endless, withScriptedService } from "../src/ScriptedService.js"

const apiKey = "hostile-test-key-4c1d9e"
const secretKey = "hostile-test-secret-8e2a7b"
const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1000, endTime: 2000, page: 1 } as const
const MiB = 1024 * 1024

const settings = (service: Service, overrides: Partial<Settings>): Settings => ({
  baseUrl: service.baseUrl,
  apiKey,
  secretKey,
  retry: { maxRetries: 2, baseDelay: "10 millis", maxDelay: "20 millis" },
  requestTimeout: "15 seconds",
  ...overrides
})

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/

/** One line, no control character, at most `max` characters. */
const expectSafeMessage = (error: Failure, max = 1000) => {
  expect(error.message).not.toMatch(controls)
  expect(error.message.length).toBeLessThanOrEqual(max)
}

/** Heap and array buffers in use now. */
const memory = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** What `run` returns, and the most memory grew above its level before, sampled every 5 ms. */
const peakGrowth = async <A>(run: () => Promise<A>) => {
  const before = memory()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, memory())), 5)
  try {
    const result = await run()
    return { result, growth: Math.max(peak, memory()) - before }
  } finally {
    clearInterval(sampler)
  }
}

/** Whether the connection of an answer was closed before the answer was complete (bounded wait). */
const closedEarly = (service: Service, i: number) =>
  Promise.race([
    service.seen[i]!.closedEarly,
    new Promise<string>((resolve) => setTimeout(() => resolve("the connection stayed open 10 s"), 10_000))
  ])

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  json: body,
  headers
})

describe.each(Lines.carriers)("against a hostile service ($name)", ({ line, transport }) => {
  /** The failure of one page call against `service` over this carrier. */
  const refusal = (service: Service, overrides: Partial<Settings> = {}) =>
    line.withClient(
      settings(service, { transport, ...overrides }),
      async (client) => failure(await client.transferHistory(query))
    )

  it(
    "an endless 200 body fails at maxResponseBytes as TooLarge, not retried; the connection is closed and memory stays bounded",
    () =>
      withScriptedService(() => endless(), async (service) => {
        const { growth, result: error } = await peakGrowth(() => refusal(service, { maxResponseBytes: MiB }))
        expect(error).toMatchObject({
          _tag: "ResponseDecodeError",
          fields: { reason: "TooLarge", status: 200, attempts: 1 }
        })
        expect(error.message).toContain("1048576 bytes")
        expect(error.message).toContain("raise maxResponseBytes")
        expectSafeMessage(error)
        expect(service.seen).toHaveLength(1)
        expect(await closedEarly(service, 0)).toBe(true)
        // What the service got out before the client stopped reading: the limit plus socket buffers.
        expect(service.seen[0]!.written).toBeLessThan(64 * MiB)
        expect(growth).toBeLessThan(128 * MiB)
      }),
    60_000
  )

  it("a chunked body of exactly maxResponseBytes is read whole; one byte more is TooLarge, nothing of it kept", () => {
    let size = 4096
    // Chunked (no Content-Length): only counting can tell.
    const chunked: Answer = {
      raw: (response) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.write("[" + " ".repeat(size - 2))
        response.end("]")
      }
    }
    return withScriptedService(() => chunked, (service) =>
      line.withClient(
        settings(service, { transport, maxResponseBytes: 4096, retry: { maxRetries: 0 } }),
        async (client) => {
          expect(success(await client.transferHistory(query))).toEqual([])
          size = 4097
          const error = failure(await client.transferHistory(query))
          expect(error).toMatchObject({
            _tag: "ResponseDecodeError",
            fields: { reason: "TooLarge", status: 200, excerpt: "" }
          })
          expect(service.seen).toHaveLength(2)
        }
      ))
  }, 60_000)

  it(
    "a Content-Length above maxResponseBytes fails before the body is read, and the connection is closed",
    () =>
      withScriptedService(() => announced(10 * 1024 * MiB), async (service) => {
        const error = await refusal(service, { requestTimeout: "3 seconds", retry: { maxRetries: 1 } })
        expect(error).toMatchObject({
          _tag: "ResponseDecodeError",
          fields: { reason: "TooLarge", status: 200, attempts: 1 }
        })
        expect(error.message).toContain("10737418240")
        expectSafeMessage(error)
        expect(service.seen).toHaveLength(1)
        expect(await closedEarly(service, 0)).toBe(true)
      }),
    60_000
  )

  it(
    "200,000 nested [ are a one-line ResponseDecodeError, not a crash",
    () =>
      withScriptedService(() => ({ status: 200, text: "[".repeat(200_000) + "]".repeat(200_000) }), async (service) => {
        const error = await refusal(service)
        expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "UnexpectedShape", attempts: 1 } })
        expectSafeMessage(error, 600)
        expect(service.seen).toHaveLength(1)
      }),
    60_000
  )

  it(
    "a 200 carrying {code:700001,msg} is the refusal it says: AuthenticationError (ApiKey)",
    () =>
      withScriptedService(() => json(200, { code: 700001, msg: "API-key format invalid." }), async (service) => {
        const error = await refusal(service)
        expect(error).toMatchObject({
          _tag: "AuthenticationError",
          fields: { reason: "ApiKey", status: 200, code: 700001 }
        })
        expect(error.message).toContain("check the API key, apiKey")
        expectSafeMessage(error)
        expect(service.seen).toHaveLength(1)
      }),
    60_000
  )

  it(
    "a 302 is reported, not followed: its status and Location (no query, no control characters), once",
    () =>
      withScriptedService(() => json(200, []), (elsewhere) =>
        withScriptedService(
          () => json(302, {}, { location: `${elsewhere.baseUrl}/moved\u009b[2J?signature=0badc0de&x=1` }),
          async (service) => {
            const error = await refusal(service)
            expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Redirect", attempts: 1 } })
            expect(error.message).toContain("302")
            expect(error.message).toContain(`${elsewhere.baseUrl}/moved`)
            expect(error.message).toContain("check baseUrl")
            expect(error.message).not.toContain("0badc0de")
            expectSafeMessage(error)
            expect(service.seen).toHaveLength(1)
            expect(elsewhere.seen).toHaveLength(0)
          }
        )),
    60_000
  )

  it("escape sequences in a refusal's msg and in an HTML body never reach a message", () => {
    const msg = "\u001b]0;owned\u0007\u001b[2J\u001b[31mred\r\nsecond line\u009b1m\u007f"
    let answer = json(401, { code: 700002, msg })
    return withScriptedService(() => answer, async (service) => {
      const refused = await refusal(service)
      expect(refused).toMatchObject({ _tag: "AuthenticationError", fields: { reason: "Signature" } })
      expect(refused.message).toContain("red")
      expect(refused.message).toContain("second line")
      expectSafeMessage(refused)
      expect(refused.fields.msg).not.toMatch(controls)
      answer = { status: 503, text: `<html>\u001b[31mbusy\u001b[0m\r\n${"\u0007".repeat(100)}</html>` }
      const busy = await refusal(service, { retry: { maxRetries: 0 } })
      expect(busy).toMatchObject({ _tag: "ServerError", fields: { status: 503 } })
      expectSafeMessage(busy)
    })
  }, 60_000)

  it("a 5 MB msg is cut to a few hundred characters", () =>
    withScriptedService(
      () => json(400, { code: 33333, msg: "Param is error: " + "x".repeat(5_000_000) }),
      async (service) => {
        const error = await refusal(service)
        expect(error).toMatchObject({ _tag: "ApiError", fields: { status: 400, code: 33333 } })
        expect(error.message).toContain("Param is error: xxx")
        expect(error.message).toContain("…")
        expectSafeMessage(error)
      }
    ), 60_000)

  it(
    "Retry-After: 100000 fails at once with RateLimited carrying the wait, naming retry.maxRetryAfter",
    () =>
      withScriptedService(
        () => json(429, { code: 429, msg: "Too many requests." }, { "retry-after": "100000" }),
        async (service) => {
          const error = await refusal(service)
          expect(error).toMatchObject({
            _tag: "RateLimited",
            fields: { status: 429, retryAfterMillis: 100_000_000, attempts: 1 }
          })
          expect(error.message).toContain("raise retry.maxRetryAfter")
          expect(error.message).toContain("1d 3h 46m 40s")
          expectSafeMessage(error)
          expect(service.seen).toHaveLength(1)
        }
      ),
    60_000
  )
})

describe.each(Lines.all)("redirects over fetch in its default mode ($name)", (line) => {
  it("it follows a redirect, the key header with it: why the transports ask fetch not to", () =>
    withScriptedService(
      () => json(200, []),
      (elsewhere) =>
        withScriptedService(() => json(307, {}, { location: `${elsewhere.baseUrl}/moved` }), (service) =>
          line.withClient(settings(service, { transport: "fetchFollowingRedirects" }), async (client) => {
            expect(success(await client.transferHistory(query))).toEqual([])
            expect(elsewhere.seen).toHaveLength(1)
            expect(elsewhere.seen[0]!.headers["x-mexc-apikey"]).toBe(apiKey)
          }))
    ))
})
