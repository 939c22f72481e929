// The pure parts of the saturation grid and of the start-up measurement: the rate at the service and
// the refused share from a transport's record, the request lines of the service's log, the spread of
// samples and the table's rows.
import { describe, expect, it } from "@effect/vitest"
import * as Saturation from "../src/Saturation.js"
import * as ServiceLog from "../src/ServiceLog.js"
import * as StartupLatency from "../src/StartupLatency.js"

describe("Saturation.atService", () => {
  it("counts the gaps between the requests the service accepted, as they arrived; 429s over every request", () => {
    const measured = Saturation.atService([
      { started: 1_000, answered: 1_150, status: 200 },
      { started: 1_100, answered: 1_250, status: 429 },
      { started: 1_200, answered: 1_350, status: 418 },
      { started: 2_000, answered: 2_150, status: 200 },
      { started: 2_100, answered: 3_000, status: 200 },
      // Refused after the last accepted request: in the wall time, not in the time the rate is taken over.
      { started: 3_100, answered: 4_000, status: 429 }
    ])
    expect(measured).toEqual({
      requests: 6,
      accepted: 3,
      rateLimited: 2,
      rateLimitedShare: 2 / 6,
      wallMillis: 3_000,
      acceptedMillis: 1_100,
      achievedRate: 2 / 1.1
    })
  })

  it("a run the service refused entirely achieved nothing", () => {
    const measured = Saturation.atService([{ started: 0, answered: 100, status: 429 }])
    expect([measured.accepted, measured.achievedRate, measured.rateLimitedShare]).toEqual([0, 0, 1])
  })
})

describe("Saturation.retryAfterViolations", () => {
  it("a retry of the same request that starts before the answer plus Retry-After is a violation", () => {
    const refused = { key: "a", started: 0, answered: 100, status: 429, retryAfter: "1" }
    const early = { key: "a", started: 600, answered: 700, status: 200, retryAfter: undefined }
    const late = { ...early, started: 1_100, answered: 1_200 }
    const other = { ...early, key: "b" }
    expect(Saturation.retryAfterViolations([refused, other, early])).toBe(1)
    expect(Saturation.retryAfterViolations([refused, other, late])).toBe(0)
  })
})

describe("ServiceLog.request", () => {
  it("any request line: path, status, answer and arrival (the log time less the duration)", () => {
    expect(ServiceLog.request("2026-01-01T00:00:01.000Z INFO GET /api/v3/time 200 2ms")).toEqual({
      path: "/api/v3/time",
      status: 200,
      answeredAt: Date.UTC(2026, 0, 1, 0, 0, 1),
      arrivedAt: Date.UTC(2026, 0, 1, 0, 0, 1) - 2
    })
    expect(ServiceLog.request("2026-01-01T00:00:01.000Z INFO listening on http://127.0.0.1:1")).toBeUndefined()
  })
})

describe("StartupLatency", () => {
  it("spread: median and range of the samples", () => {
    expect(StartupLatency.spread([310, 290, 450, 300])).toEqual({
      samples: [310, 290, 450, 300],
      median: 305,
      min: 290,
      max: 450
    })
    expect(Number.isNaN(StartupLatency.spread([]).median)).toBe(true)
  })

  it("rows: every way's start to the first request and its --help; the installed compiled CLI against the target", () => {
    const timings = (runs: string, firstSigned: number): StartupLatency.Timings => ({
      runs,
      firstSigned: StartupLatency.spread([firstSigned]),
      firstRequest: StartupLatency.spread([firstSigned - 20]),
      exit: StartupLatency.spread([firstSigned + 100]),
      help: StartupLatency.spread([firstSigned - 40])
    })
    const result: StartupLatency.Result = {
      options: { rounds: 1, warmupRounds: 0, transfers: 10 },
      installed: timings("dist/bin/broker-history.js (compiled, installed: the published bin, no hook)", 400),
      hooked: timings("dist/main.js (compiled)", 800),
      sources: timings("bin/broker-history.mjs (sources through tsx)", 1_000)
    }
    const rows = StartupLatency.rows(result)
    expect(rows).toHaveLength(6)
    expect(rows[0]).toEqual([
      "start-up: compiled CLI, process start → first request (`transfers` export, 1 round)",
      "median 400 ms (range 400–400) to the first signed request; any request median 380 ms (range 380–380); exit median 500 ms (range 500–500)",
      "target < 500 ms: met"
    ])
    expect(rows[2]![2]).toBe("2.00x the installed compiled CLI's")
    const slow = StartupLatency.rows({ ...result, installed: timings(result.installed.runs, 700) })
    expect(slow[0]![2]).toBe("target < 500 ms: NOT met")
  })
})
