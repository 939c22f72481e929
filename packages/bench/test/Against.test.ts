// `--against`: how the other revision's contenders are summarised and compared with the current
// client's, round by round (pure functions over hand-made samples; no process is started).
import { describe, expect, it } from "@effect/vitest"
import * as Throughput from "../src/Throughput.js"

const sample = (name: Throughput.Sample["name"], round: number, wallMillis: number, cpuMillis: number) => ({
  name,
  round,
  order: 0,
  pages: 10,
  records: 5_000,
  requests: 10,
  signed: 10,
  wallMillis,
  cpuMillis
})

describe("Throughput with --against", () => {
  it("compares each current client contender with its other-revision twin of the same round", () => {
    const samples = [
      sample("undici", 0, 100, 100),
      sample("pageCalls", 0, 100, 100),
      sample("pageCallsAgainst", 0, 200, 50),
      sample("undici", 1, 100, 100),
      sample("pageCalls", 1, 300, 100),
      sample("pageCallsAgainst", 1, 100, 200),
      sample("undici", 2, 100, 100),
      sample("pageCalls", 2, 100, 100),
      sample("pageCallsAgainst", 2, 100, 100),
      // A current sample whose round has no twin is left out of the comparison.
      sample("pageCalls", 3, 100, 100)
    ]
    const [versus, ...rest] = Throughput.versus(samples)
    expect(rest).toEqual([])
    expect(versus!.name).toBe("pageCalls")
    expect(versus!.against).toBe("pageCallsAgainst")
    // records/s current / other per round: 2, 1/3, 1; CPU per record: 2, 1/2, 1.
    expect(versus!.speed).toBeCloseTo(1)
    expect(versus!.speedRange[0]).toBeCloseTo(1 / 3)
    expect(versus!.speedRange[1]).toBeCloseTo(2)
    expect(versus!.cpu).toBeCloseTo(1)
    expect(versus!.cpuRange).toEqual([0.5, 2])
  })

  it("labels the other revision's contenders with the revision and ratios them to the same round's raw loop", () => {
    const summaries = Throughput.summarize(
      [sample("undici", 0, 100, 100), sample("stream", 0, 100, 100), sample("streamAgainst", 0, 400, 100)],
      "795d82d"
    )
    expect(summaries.map((s) => s.name)).toEqual(["undici", "stream", "streamAgainst"])
    const old = summaries.find((s) => s.name === "streamAgainst")!
    expect(old.label).toMatch(/^BrokerHistory\.transfers stream .* @795d82d$/)
    expect(old.ratioRecordsPerSecond).toBeCloseTo(0.25)
    expect(summaries.find((s) => s.name === "stream")!.label).not.toMatch(/@/)
    // Without the other revision's samples there is nothing to compare.
    expect(Throughput.versus([sample("stream", 0, 100, 100)])).toEqual([])
  })
})
