// What a user's tracer and logger see of the client, on both lines over the mock transport: one
// client span per call with a child per attempt (the clock resync inside it), nothing with tracing
// disabled, and never a secret, an API key or a signature in a log, a span or an error.
import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
import { describe, expect, it } from "vitest"
import { transferWire } from "../../../client/test/support/MockService.js"
import type { Outcome } from "../../src/Line.js"
import { success } from "../../src/Line.js"
import type { Answer, AppClient, Captured } from "../../src/Simulation.js"
import { credentials, settled } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const query = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  startTime: 1000,
  endTime: 2000,
  page: 2,
  limit: 50
} as const

const capturedOf = (captured: Captured | undefined): Captured => {
  if (captured === undefined) throw new Error("the run was not capturing")
  return captured
}

describe.each(Simulations.all)("tracing ($name)", (line) => {
  /** One traced page call under the caller's span over `script`; its page, spans and requests. */
  const run = async (script: ReadonlyArray<Answer>, tracing: boolean) => {
    let result:
      | { page: ReadonlyArray<{ readonly tranId: string }>; spans: Captured["spans"]; requests: number }
      | undefined
    await line.run(
      { answer: (s) => script[s.n - 1] ?? { status: 200, body: [] } },
      {
        start: 0,
        settings: { retry: { maxRetries: 3, baseDelay: "10 millis", maxDelay: "10 millis" } },
        capture: true,
        tracing
      },
      async (sim) => {
        const page = await settled(sim, sim.call("transferHistory", query, { span: "caller" }))
        result = {
          page: success(page) as ReadonlyArray<{ readonly tranId: string }>,
          spans: capturedOf(sim.captured).spans,
          requests: sim.requests.length
        }
      }
    )
    return result!
  }

  it("one client span per call, under the caller's span, with a child per attempt", async () => {
    const { page, spans } = await run([
      { status: 503, body: { code: 503, msg: "busy" } },
      { status: 200, body: [transferWire("1", 1500), transferWire("2", 1600)] }
    ], true)
    expect(page.length).toBe(2)
    const get = spans.filter((s) => s.name === "BrokerHttpClient.get transferHistory")
    expect(get).toHaveLength(1)
    expect(get[0]).toMatchObject({
      kind: "client",
      parent: "caller",
      ended: true,
      attributes: {
        "broker.endpoint": "transferHistory",
        "http.request.method": "GET",
        "url.path": "/api/v3/broker/sub-account/universalTransfer",
        "broker.window.start": 1000,
        "broker.window.end": 2000,
        "broker.page": 2,
        "broker.limit": 50,
        "broker.records": 2
      }
    })
    const attempts = spans.filter((s) => s.name === "BrokerHttpClient.attempt")
    expect(attempts.map((s) => [s.parent, s.attributes["broker.attempt"], s.attributes["http.response.status_code"]]))
      .toEqual([
        ["BrokerHttpClient.get transferHistory", 1, 503],
        ["BrokerHttpClient.get transferHistory", 2, 200]
      ])
    expect(attempts.every((s) => s.ended)).toBe(true)
    // The failed attempt records its failure; a successful span does not keep the page it returned.
    expect(attempts[0]!.events.at(-1)).toContain("ServerError")
    expect(attempts[1]!.events.at(-1)).not.toContain("SUCCESS")
    expect(get[0]!.events.at(-1)).not.toContain("SUCCESS")
  })

  it("a clock resync after a timestamp rejection is traced inside the call", async () => {
    const { spans } = await run([
      { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
      { status: 200, body: [] }
    ], true)
    expect(spans.filter((s) => s.name === "ServerClock.sync").map((s) => s.parent)).toEqual([
      "BrokerHttpClient.get transferHistory"
    ])
    // The clock's own request is an attempt like any other, inside the sync's span.
    const attempts = spans.filter((s) => s.name === "BrokerHttpClient.attempt")
    expect(attempts.map((s) => [s.parent, s.attributes["broker.attempt"]])).toEqual([
      ["BrokerHttpClient.get transferHistory", 1],
      ["ServerClock.sync", 1],
      ["BrokerHttpClient.get transferHistory", 2]
    ])
  })

  it("with tracing disabled the call works the same: retried, decoded", async () => {
    const { page, requests, spans } = await run([
      { status: 503, body: { code: 503, msg: "busy" } },
      { status: 200, body: [transferWire("1", 1500)] }
    ], false)
    expect(page.map((r) => r.tranId)).toEqual(["1"])
    expect(requests).toBe(2)
    expect(spans.filter((s) => s.name.startsWith("BrokerHttpClient"))).toEqual([])
  })
})

describe.each(Simulations.all)("secrets never leak ($name)", (line) => {
  it("the secret, the API key and every signature sent are absent from logs, spans and errors", async () => {
    const script: Array<Answer> = [
      { status: 500, body: { code: 500, msg: "Internal error" } },
      { transport: "socket hang up" },
      { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "1" } },
      { status: 200, text: "[{\"broken" },
      { status: 200, body: [transferWire("1", 5)] },
      { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
      { status: 400, body: { code: 700003, msg: ErrorBody.Errors.timestampOutsideRecvWindow.msg } },
      { status: 401, body: { code: 700002, msg: ErrorBody.Errors.badSignature.msg } },
      { status: 403, body: { code: 700007, msg: ErrorBody.Errors.noPermission.msg } },
      { status: 200, body: [{ ...transferWire("2", 5), amount: 1 }] }
    ]
    await line.run(
      { answer: (s) => script[s.n - 1] ?? { transport: "ECONNRESET" } },
      {
        start: 0,
        settings: { retry: { maxRetries: 4, baseDelay: "10 millis", maxDelay: "50 millis" } },
        capture: true
      },
      async (sim) => {
        let failures = 0
        for (let i = 0; i < 6; i++) {
          const outcome = await settled(
            sim,
            sim.call("transferHistory", { fromAccountType: "SPOT", toAccountType: "FUTURES", page: 1 }, {
              span: "test-root"
            }),
            100
          )
          if (outcome._tag === "Failure") failures++
        }
        const captured = capturedOf(sim.captured)
        const signatures = sim.requests.map((s) => s.params.get("signature")!)
        expect(signatures.length).toBeGreaterThanOrEqual(10)
        expect(failures).toBeGreaterThanOrEqual(3)
        expect(captured.spans.length).toBeGreaterThan(10)
        const text = captured.text()
        expect(text).toContain("broker.endpoint")
        // Something was logged: the retries and the resync are.
        expect(text).toContain("\"level\"")
        for (const needle of [credentials.secretKey, credentials.apiKey, ...signatures]) {
          expect(text.includes(needle), `leaked ${needle.slice(0, 8)}…`).toBe(false)
        }
        // The key travels only in its header.
        expect(
          sim.requests.every((s) =>
            s.headers["x-mexc-apikey"] === credentials.apiKey && !s.query.includes(credentials.apiKey)
          )
        ).toBe(true)
      }
    )
  })
})

describe.each(Simulations.all)("any HttpClient ($name)", (line) => {
  /** One page call through the application's client `client`, the clock moved on until it ends. */
  const call = async (answer: (n: number) => Answer, client: AppClient) => {
    let result: { readonly outcome: Outcome<unknown>; readonly at: ReadonlyArray<number> } | undefined
    await line.run({ answer: (s) => answer(s.n) }, { start: 0, client }, async (sim) => {
      const pending = sim.call("transferHistory", {
        fromAccountType: "SPOT",
        toAccountType: "FUTURES",
        startTime: 1000,
        endTime: 2000,
        page: 1
      })
      await sim.adjust(30_000)
      result = { outcome: await pending, at: sim.requests.map((s) => s.at) }
    })
    return result!
  }

  it("a client failing on non-2xx: a wrong key is an AuthenticationError after one request", async () => {
    const { at, outcome } = await call(() => ({
      status: ErrorBody.Errors.invalidApiKey.status,
      body: { code: ErrorBody.Errors.invalidApiKey.code, msg: ErrorBody.Errors.invalidApiKey.msg }
    }), { _tag: "StatusOk" })
    expect(outcome._tag === "Failure" && outcome.failure._tag).toBe("AuthenticationError")
    expect(at.length).toBe(1)
  })

  it("a client failing on non-2xx: a 429 waits out its Retry-After, then the page is read", async () => {
    const { at, outcome } = await call((n) =>
      n === 1
        ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "3" } }
        : { status: 200, body: [] }, { _tag: "StatusOk" })
    expect(outcome._tag).toBe("Success")
    expect(at.length).toBe(2)
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(3000)
  })

  it("a failure the client describes (its own deadline) keeps that description", async () => {
    const { outcome } = await call(() => ({ status: 200, body: [] }), {
      _tag: "Failing",
      description: "the app's 2 s deadline passed"
    })
    expect(outcome._tag === "Failure" && outcome.failure._tag).toBe("TransportError")
    expect(outcome._tag === "Failure" && String(outcome.failure.fields["description"])).toContain(
      "the app's 2 s deadline passed"
    )
  })
})
