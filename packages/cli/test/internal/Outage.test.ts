// One outage as a value: it starts with the first transient failure, is announced once, ends with
// the next success (logged only when its start was), and a failure of an attempt that began before
// the last success starts nothing.
import { describe, expect, it } from "@effect/vitest"
import * as Outage from "../../src/internal/Outage.js"

describe("Outage", () => {
  it("starts at the first failure, counts the others, is announced once and ends with a success", () => {
    let state = Outage.failed(Outage.initial, 1_000, "connect ECONNREFUSED", 0)
    expect(state.outage).toEqual({ since: 1_000, cause: "connect ECONNREFUSED", failures: 1, announced: false })
    const [announced, started] = Outage.announced(state)
    expect(started?.since).toBe(1_000)
    expect(Outage.announced(announced)[1]).toBeUndefined()
    state = Outage.failed(announced, 2_000, "something else", 0)
    expect(state.outage).toMatchObject({ since: 1_000, cause: "connect ECONNREFUSED", failures: 2 })
    const [after, ended] = Outage.succeeded(state, 21_500)
    expect(ended).toMatchObject({ since: 1_000, at: 21_500, failures: 2 })
    expect(after).toEqual({ successes: 1, outage: undefined })
  })

  it("an outage never announced ends without a line; a success without an outage is just counted", () => {
    const [, ended] = Outage.succeeded(Outage.failed(Outage.initial, 1, "x", 0), 2)
    expect(ended).toBeUndefined()
    expect(Outage.succeeded(Outage.initial, 5)).toEqual([{ successes: 1, outage: undefined }, undefined])
  })

  it("a failure of an attempt that began before the last success is stale: no new outage", () => {
    const [recovered] = Outage.succeeded(Outage.initial, 10)
    expect(Outage.failed(recovered, 11, "late", 0)).toBe(recovered)
    expect(Outage.failed(recovered, 11, "fresh", 1).outage?.cause).toBe("fresh")
  })

  it("the lines: what, why, the next try and the cap; then the length and the failures", () => {
    expect(Outage.startedLine("database", "the database system is starting up (57P03)", 200, 60_000)).toBe(
      "database unavailable: the database system is starting up (57P03); retrying in 200ms, backing off up to 1m, until it is back"
    )
    expect(Outage.endedLine("database", 20_300, 7)).toBe(
      "database available again after 20s 300ms unavailable (7 failed attempts)"
    )
    expect(Outage.endedLine("broker service", 1_000, 1)).toBe(
      "broker service available again after 1s unavailable (1 failed attempt)"
    )
  })
})
