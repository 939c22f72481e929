import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Outage from "../../src/follow/Outage.js"

/** What `BrokerHistory.availability` shows of a state. */
const view = (state: Outage.State) => ({
  lastSuccess: state.lastSuccess,
  unavailableSince: state.outage?.since,
  lastFailure: state.outage?.failure
})

const failure = (at: number, message = "transferHistory failed with a server error (503)"): Outage.Failure => ({
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
  readonly state: Outage.State
  readonly checks: Array<string>
}

/** Folds the events through the state machine, time advancing by 1 per event; records what is logged. */
const run = (events: ReadonlyArray<Event>): Run => {
  let state = Outage.initial
  const begun = new Map<number, number>()
  const logged: Array<string> = []
  const checks: Array<string> = []
  events.forEach((event, at) => {
    switch (event._tag) {
      case "Begin":
        begun.set(event.request, state.successes)
        return
      case "Succeed": {
        const [next, ended] = Outage.succeeded(state, at)
        if (ended !== undefined) logged.push(`ended:${ended.since}`)
        state = next
        if (view(state).unavailableSince !== undefined) checks.push(`outage after a success at ${at}`)
        return
      }
      case "Fail": {
        const before = state
        state = Outage.failed(state, failure(at), begun.get(event.request)!)
        if (begun.get(event.request)! < before.successes && state !== before) checks.push(`stale failure at ${at}`)
        if (event.announce) {
          const [next, started] = Outage.announced(state)
          if (started !== undefined) logged.push(`started:${started.since}`)
          state = next
        }
      }
    }
  })
  return { logged, state, checks }
}

describe("Outage", () => {
  it("an outage starts with the first failure and ends with the next success, logged once each", () => {
    let state = Outage.succeeded(Outage.initial, 10)[0]
    expect(view(state)).toEqual({ lastSuccess: 10, unavailableSince: undefined, lastFailure: undefined })
    state = Outage.failed(state, failure(20, "first line\nmore"), 1)
    state = Outage.failed(state, failure(30, "second"), 1)
    expect(view(state)).toEqual({ lastSuccess: 10, unavailableSince: 20, lastFailure: "first line" })
    const [announced, started] = Outage.announced(state)
    expect(started).toMatchObject({ since: 20, failure: "first line", tag: "ServerError", failures: 2 })
    expect(Outage.announced(announced)[1]).toBeUndefined()
    const [after, ended] = Outage.succeeded(Outage.failed(announced, failure(40), 1), 50)
    expect(ended).toEqual({ since: 20, at: 50, failures: 3 })
    expect(view(after)).toEqual({ lastSuccess: 50, unavailableSince: undefined, lastFailure: undefined })
  })

  it("an outage no follower rode out ends without a log line; a failure begun before the last success starts none", () => {
    const down = Outage.failed(Outage.initial, failure(5), 0)
    expect(Outage.succeeded(down, 6)[1]).toBeUndefined()
    const [up] = Outage.succeeded(Outage.initial, 10)
    // Begun when no request had succeeded yet: its attempts straddled the success at 10.
    const stale = Outage.failed(up, failure(12), 0)
    expect(stale).toBe(up)
    expect(Outage.announced(stale)[1]).toBeUndefined()
  })

  it("a long Retry-After is logged once per wait, however many streams meet it", () => {
    expect(Outage.waiting(Outage.initial, 0, 100)[1]).toBe(false)
    const down = Outage.failed(Outage.initial, failure(10), 0)
    const [first, logFirst] = Outage.waiting(down, 10, 310)
    expect(logFirst).toBe(true)
    // Other streams refused while it runs: no line, the latest end kept.
    const [second, logSecond] = Outage.waiting(first, 12, 312)
    expect(logSecond).toBe(false)
    expect(second.outage?.resumesAt).toBe(312)
    // Refused again after it ended: a new wait, a new line.
    expect(Outage.waiting(second, 312, 612)[1]).toBe(true)
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

describe("Outage: one outage of any dependency", () => {
  const fail = (at: number, message: string) => ({ at, message, tag: "SqlError" })

  it("starts at the first failure, counts the others, is announced once and ends with a success", () => {
    let state = Outage.failed(Outage.initial, fail(1_000, "connect ECONNREFUSED"), 0)
    expect(state.outage).toEqual({
      since: 1_000,
      failure: "connect ECONNREFUSED",
      tag: "SqlError",
      failures: 1,
      announced: false,
      resumesAt: undefined
    })
    const [announced, started] = Outage.announced(state)
    expect(started?.since).toBe(1_000)
    expect(Outage.announced(announced)[1]).toBeUndefined()
    state = Outage.failed(announced, fail(2_000, "something else"), 0)
    expect(state.outage).toMatchObject({ since: 1_000, failure: "connect ECONNREFUSED", failures: 2 })
    const [after, ended] = Outage.succeeded(state, 21_500)
    expect(ended).toMatchObject({ since: 1_000, at: 21_500, failures: 2 })
    expect(after).toEqual({ lastSuccess: 21_500, successes: 1, outage: undefined })
  })

  it("an outage never announced ends without a line; a success without an outage is just counted", () => {
    const [, ended] = Outage.succeeded(Outage.failed(Outage.initial, fail(1, "x"), 0), 2)
    expect(ended).toBeUndefined()
    expect(Outage.succeeded(Outage.initial, 5)).toEqual([
      { lastSuccess: 5, successes: 1, outage: undefined },
      undefined
    ])
  })

  it("a failure of an attempt that began before the last success is stale: no new outage", () => {
    const [recovered] = Outage.succeeded(Outage.initial, 10)
    expect(Outage.failed(recovered, fail(11, "late"), 0)).toBe(recovered)
    expect(Outage.failed(recovered, fail(11, "fresh"), 1).outage?.failure).toBe("fresh")
  })
})
