// How contenders doing the same work are compared round by round (the Effect 4 line with the Effect 3
// line; with `--against`, the current client with the other revision's), and how the other revision's
// contenders are summarised (pure functions over hand-made samples; no process is started).
import { describe, expect, it } from "@effect/vitest"
import * as Contender from "../src/Contender.js"
import * as Throughput from "../src/Throughput.js"

/** A reading of 10 pages (5,000 records, every request signed) by `name` in `round`. */
const sample = (
  name: Throughput.Sample["name"],
  round: number,
  wallMillis: number,
  cpuMillis: number
): Throughput.Sample => ({
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

describe("Throughput's comparisons: the Effect 4 line, and --against", () => {
  it.each(Contender.pairs)("compares $name with $against of the same round ($ratio)", ({ against, name, ratio }) => {
    const samples = [
      sample("undici", 0, 100, 100),
      sample(name, 0, 100, 100),
      sample(against, 0, 200, 50),
      sample("undici", 1, 100, 100),
      sample(name, 1, 300, 100),
      sample(against, 1, 100, 200),
      sample("undici", 2, 100, 100),
      sample(name, 2, 100, 100),
      sample(against, 2, 100, 100),
      // A sample whose round has no twin is left out of the comparison.
      sample(name, 3, 100, 100)
    ]
    const [versus, ...rest] = Throughput.versus(samples)
    expect(rest).toEqual([])
    expect([versus!.name, versus!.against, versus!.ratio]).toEqual([name, against, ratio])
    // records/s name / against per round: 2, 1/3, 1; CPU per record: 2, 1/2, 1.
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
    expect(old.label).toMatch(/^BrokerHistory\.transfers stream, Effect 3 .* @795d82d$/)
    expect(old.ratioRecordsPerSecond).toBeCloseTo(0.25)
    expect(summaries.find((s) => s.name === "stream")!.label).not.toMatch(/@/)
    // Without the other revision's samples there is nothing to compare.
    expect(Throughput.versus([sample("stream", 0, 100, 100)])).toEqual([])
  })
})
