// Retries decided by the line's own `Schedule` (`BrokerConfig.Options.retry`), and the clock's
// requests through the same pipeline: the budget, the retries and the metrics count them as any
// other. On both lines over the mock transport.
import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
import { describe, expect, it } from "vitest"
import type { Outcome } from "../../src/Line.js"
import type { Answer, Seen, Settings } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const transfers = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1000, endTime: 2000, page: 1 }

const busy: Answer = { status: 503, body: { code: 503, msg: "busy" } }

const tagOf = (outcome: Outcome<unknown>) => outcome._tag === "Failure" ? outcome.failure._tag : outcome._tag

describe.each(Simulations.all)("retry as a Schedule ($name)", (line) => {
  /** One page call over `answer` with `settings`, the clock moved on until it ends. */
  const over = async (answer: (seen: Seen) => Answer, settings: Settings) => {
    let result: { readonly outcome: Outcome<unknown>; readonly seen: ReadonlyArray<Seen> } | undefined
    await line.run({ answer }, { start: 0, settings }, async (sim) => {
      const pending = sim.call("transferHistory", transfers)
      await sim.adjust(2 * 60_000)
      result = { outcome: await pending, seen: sim.requests }
    })
    return result!
  }

  it("Schedule.recurs(1): one retry, two requests, then the failure", async () => {
    const { outcome, seen } = await over(() => busy, { retry: line.schedule({ recurs: 1 }) })
    expect(tagOf(outcome)).toBe("ServerError")
    expect(seen.length).toBe(2)
  })

  it("`{ schedule }` with the waits it chooses", async () => {
    const { seen } = await over(() => busy, { retry: { schedule: line.schedule({ recurs: 3, spaced: 7000 }) } })
    expect(seen.length).toBe(4)
    expect(seen.slice(1).map((s, i) => s.at - seen[i]!.at)).toEqual([7000, 7000, 7000])
  })

  it("only retryable failures reach the schedule: a wrong key is sent once, even with Schedule.forever", async () => {
    const { outcome, seen } = await over(() => ({
      status: ErrorBody.Errors.invalidApiKey.status,
      body: { code: ErrorBody.Errors.invalidApiKey.code, msg: ErrorBody.Errors.invalidApiKey.msg }
    }), { retry: line.schedule({ forever: true }) })
    expect(tagOf(outcome)).toBe("AuthenticationError")
    expect(seen.length).toBe(1)
  })

  it("a 429's Retry-After decides its wait, not the schedule", async () => {
    const { outcome, seen } = await over(
      (s) =>
        s.n === 1
          ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "5" } }
          : { status: 200, body: [] },
      { retry: line.schedule({ recurs: 1_000, spaced: 30_000 }) }
    )
    expect(outcome._tag).toBe("Success")
    expect(seen.map((s) => s.at - seen[0]!.at)).toEqual([0, 5000])
  })

  it("the schedule's input is the failure: a schedule may stop on what failed", async () => {
    const { outcome, seen } = await over(
      (s) => s.n <= 2 ? busy : { transport: "connection reset" },
      { retry: line.schedule({ recurs: 10, whileTag: "ServerError" }) }
    )
    expect(tagOf(outcome)).toBe("TransportError")
    expect(seen.length).toBe(3)
  })
})

describe.each(Simulations.all)("the clock's requests ($name)", (line) => {
  it("go through the budget and the retries, and are counted per endpoint", async () => {
    let times = 0
    const service = {
      answer: () => ({ status: 200, body: [] }),
      // The first time request fails as the service is busy; the retry reads the clock.
      time: () => ++times === 1 ? busy : undefined
    }
    // A budget of one request per 2 seconds: the first page waits for the clock's two requests.
    const settings = {
      rateLimit: { limit: 1, interval: "2 seconds", margin: 0, adaptive: false },
      retry: { baseDelay: "100 millis" }
    }
    await line.run(service, { start: 1_000_000, settings }, async (sim) => {
      const before = {
        requests: await sim.counter("requests", "serverTime"),
        retries: await sim.counter("retries", "serverTime")
      }
      // Without `until`, the stream asks the server's time first.
      const stream = sim.take(1, "transfers", { fromAccountType: "SPOT", toAccountType: "FUTURES", since: 0 })
      await sim.adjust(20_000)
      expect(stream.end()).toEqual({ _tag: "Done" })
      expect(sim.timeRequests.length).toBe(2)
      expect(sim.requests[0]!.at - sim.timeRequests[1]!).toBeGreaterThanOrEqual(2000)
      expect(await sim.counter("requests", "serverTime") - before.requests).toBe(2)
      expect(await sim.counter("retries", "serverTime") - before.retries).toBe(1)
    })
  })
})
