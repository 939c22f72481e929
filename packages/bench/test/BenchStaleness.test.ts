// CI smoke run of the benchmark at tiny sizes (the follow-at-scale part): the harness works end to end.
// No timings are asserted: the figures of a smoke run mean nothing. A file of its own, so that it
// runs beside the other parts (Bench.test.ts).
import { describe, expect, it } from "@effect/vitest"
import * as Bench from "../src/Bench.js"

describe("benchmark harness (smoke sizes): staleness", () => {
  it("both followers emit every inserted record once, without a 429", async () => {
    const results = await Bench.run(Bench.smoke, ["staleness"])
    // Staleness: both followers emitted every inserted record, once, without a 429.
    const stale = results.staleness!
    for (const run of stale.rounds.flatMap((round) => [round.adaptive, round.roundRobin])) {
      expect([run.missed, run.repeated, run.rateLimited]).toEqual([0, 0, 0])
      expect(run.inserted).toBeGreaterThan(0)
    }
    // The header, then one row per follower of the round.
    expect(Bench.table(results).split("\n")).toHaveLength(2 + 2)
  }, 300_000)
})
