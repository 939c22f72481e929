// CI smoke run of the whole benchmark at tiny sizes: the harness works end to end (page server child
// process, every contender, memory, saturation against a child-process service, soak). No timings
// are asserted: the figures of a smoke run mean nothing.
import { describe, expect, it } from "@effect/vitest"
import * as Bench from "../src/Bench.js"
import * as Throughput from "../src/Throughput.js"

describe("benchmark harness (smoke sizes)", () => {
  it("runs every part and renders one table", async () => {
    const results = await Bench.run(Bench.smoke)
    const t = results.throughput!
    expect(t.summaries.map((s) => s.name)).toEqual([...Throughput.names])
    // Every contender read every record of every page (the harness checks counts and signatures).
    for (const sample of t.samples) {
      expect(sample.records).toBe(Bench.smoke.throughput.pages * 500)
      expect(sample.signed).toBe(sample.requests)
    }
    expect(results.memory!.rounds).toHaveLength(1)
    const s = results.saturation!
    for (const run of [s.atRate, s.atRateWithMargin, s.atTwiceRate]) {
      expect(run.exact).toBe(true)
      expect(run.retryAfterViolations).toBe(0)
    }
    expect(results.soak!.totals.exact).toBe(Bench.smoke.soak.seeds)
    const table = Bench.table(results)
    expect(table.split("\n"), table).toHaveLength(2 + 5 + 2 + 3 + 1)
  }, 120_000)
})
