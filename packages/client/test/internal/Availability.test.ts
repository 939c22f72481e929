import { BrokerError } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Schedule } from "effect"
import * as fc from "fast-check"
import * as Availability from "../../src/internal/Availability.js"
import * as RideOut from "../../src/internal/RideOut.js"

const failure = (at: number, message = "transferHistory failed with a server error (503)"): Availability.Failure => ({
  at,
  message,
  tag: "ServerError"
})

/** A request of a simulated layer: it begins (noting the successes so far) and later ends. */
type Event =
  | { readonly _tag: "Begin"; readonly request: number }
  | { readonly _tag: "Succeed"; readonly request: number }
  | { readonly _tag: "Fail"; readonly request: number; readonly announce: boolean }

/**
 * Random interleavings of up to 8 concurrent requests: each begins, then succeeds or fails (a
 * follower announces its failure), in any order across requests.
 */
const eventsArb = fc.array(
  fc.record({ outcome: fc.constantFrom("Succeed", "Fail"), announce: fc.boolean(), lag: fc.nat({ max: 6 }) }),
  { maxLength: 60 }
).map((requests) => {
  const events: Array<Event> = []
  const pending: Array<{ readonly at: number; readonly event: Event }> = []
  requests.forEach((r, request) => {
    events.push({ _tag: "Begin", request })
    pending.push({
      at: request + r.lag,
      event: r.outcome === "Succeed" ? { _tag: "Succeed", request } : { _tag: "Fail", request, announce: r.announce }
    })
    for (const done of pending.filter((p) => p.at <= request)) events.push(done.event)
    pending.splice(0, pending.length, ...pending.filter((p) => p.at > request))
  })
  for (const p of pending) events.push(p.event)
  return events
})

interface Run {
  readonly logged: Array<string>
  readonly state: Availability.State
  readonly checks: Array<string>
}

/** Folds the events through the state machine, time advancing by 1 per event; records what is logged. */
const run = (events: ReadonlyArray<Event>): Run => {
  let state = Availability.initial
  const begun = new Map<number, number>()
  const logged: Array<string> = []
  const checks: Array<string> = []
  events.forEach((event, at) => {
    switch (event._tag) {
      case "Begin":
        begun.set(event.request, state.successes)
        return
      case "Succeed": {
        const [next, ended] = Availability.succeeded(state, at)
        if (ended !== undefined) logged.push(`ended:${ended.since}`)
        state = next
        if (Availability.view(state).unavailableSince !== undefined) checks.push(`outage after a success at ${at}`)
        return
      }
      case "Fail": {
        const before = state
        state = Availability.failed(state, failure(at), begun.get(event.request)!)
        if (begun.get(event.request)! < before.successes && state !== before) checks.push(`stale failure at ${at}`)
        if (event.announce) {
          const [next, started] = Availability.announced(state)
          if (started !== undefined) logged.push(`started:${started.since}`)
          state = next
        }
      }
    }
  })
  return { logged, state, checks }
}

describe("Availability", () => {
  it("an outage starts with the first failure and ends with the next success, logged once each", () => {
    let state = Availability.succeeded(Availability.initial, 10)[0]
    expect(Availability.view(state)).toEqual({ lastSuccess: 10, unavailableSince: undefined, lastFailure: undefined })
    state = Availability.failed(state, failure(20, "first line\nmore"), 1)
    state = Availability.failed(state, failure(30, "second"), 1)
    expect(Availability.view(state)).toEqual({ lastSuccess: 10, unavailableSince: 20, lastFailure: "first line" })
    const [announced, started] = Availability.announced(state)
    expect(started).toMatchObject({ since: 20, failure: "first line", tag: "ServerError", failures: 2 })
    expect(Availability.announced(announced)[1]).toBeUndefined()
    const [after, ended] = Availability.succeeded(Availability.failed(announced, failure(40), 1), 50)
    expect(ended).toEqual({ since: 20, at: 50, failures: 3 })
    expect(Availability.view(after)).toEqual({ lastSuccess: 50, unavailableSince: undefined, lastFailure: undefined })
  })

  it("an outage no follower rode out ends without a log line; a failure begun before the last success starts none", () => {
    const down = Availability.failed(Availability.initial, failure(5), 0)
    expect(Availability.succeeded(down, 6)[1]).toBeUndefined()
    const [up] = Availability.succeeded(Availability.initial, 10)
    // Begun when no request had succeeded yet: its attempts straddled the success at 10.
    const stale = Availability.failed(up, failure(12), 0)
    expect(stale).toBe(up)
    expect(Availability.announced(stale)[1]).toBeUndefined()
  })

  it("a long Retry-After is logged once per wait, however many streams meet it", () => {
    expect(Availability.waiting(Availability.initial, 0, 100)[1]).toBe(false)
    const down = Availability.failed(Availability.initial, failure(10), 0)
    const [first, logFirst] = Availability.waiting(down, 10, 310)
    expect(logFirst).toBe(true)
    // Other streams refused while it runs: no line, the latest end kept.
    const [second, logSecond] = Availability.waiting(first, 12, 312)
    expect(logSecond).toBe(false)
    expect(second.outage?.resumesAt).toBe(312)
    // Refused again after it ended: a new wait, a new line.
    expect(Availability.waiting(second, 312, 612)[1]).toBe(true)
  })

  it("property: any interleaving of concurrent requests logs starts and ends alternately, each end after its start", () =>
    fc.assert(fc.property(eventsArb, (events) => {
      const { checks, logged, state } = run(events)
      expect(checks).toEqual([])
      logged.forEach((line, i) => expect(line.split(":")[0]).toBe(i % 2 === 0 ? "started" : "ended"))
      for (let i = 1; i < logged.length; i += 2) expect(logged[i]!.split(":")[1]).toBe(logged[i - 1]!.split(":")[1])
      // A log ending on a start is an outage still on, and only then.
      expect(logged.length % 2 === 1).toBe(state.outage?.announced === true)
    })))

  it("property: requests in flight when the service comes back log no second outage", () =>
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }), (inFlight, later) => {
      // `inFlight` followers begin during the outage; one succeeds, then the others' last attempts
      // (begun before that success) fail; then `later` requests succeed.
      const events: Array<Event> = [{ _tag: "Begin", request: 0 }, { _tag: "Fail", request: 0, announce: true }]
      for (let r = 1; r <= inFlight; r++) events.push({ _tag: "Begin", request: r })
      events.push({ _tag: "Succeed", request: 1 })
      for (let r = 2; r <= inFlight; r++) events.push({ _tag: "Fail", request: r, announce: true })
      for (let r = 0; r < later; r++) {
        events.push({ _tag: "Begin", request: 100 + r }, { _tag: "Succeed", request: 100 + r })
      }
      expect(run(events).logged).toEqual(["started:1", `ended:1`])
    })))
})

describe("RideOut.schedule", () => {
  const retry = {
    maxRetries: 5,
    baseDelay: Duration.millis(200),
    maxDelay: Duration.seconds(10),
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
