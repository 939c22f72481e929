// CI smoke run of the benchmark at tiny sizes (the saturation part: the grid against a
// child-process service): the harness works end to end.
// No timings are asserted: the figures of a smoke run mean nothing. A file of its own, so that it
// runs beside the other parts (Bench.test.ts).
import { describe, expect, it } from "@effect/vitest"
import * as Bench from "../src/Bench.js"
import * as Saturation from "../src/Saturation.js"

describe("benchmark harness (smoke sizes): saturation", () => {
  it("runs every cell of the grid, each exact and obeying Retry-After", async () => {
    const results = await Bench.run(Bench.smoke, ["saturation"])
    const s = results.saturation!
    for (const run of [...s.runs, ...s.grid.map((cell) => cell.run)]) {
      expect(run.exact).toBe(true)
      expect(run.streams.every((stream) => stream.exact)).toBe(true)
      expect(run.retryAfterViolations).toBe(0)
      expect(run.accepted + run.rateLimited).toBe(run.requests)
    }
    // The grid ran every limiter shape × the smoke's history × one and several streams × R, 2R, 4R,
    // the several streams one per route, each route's records read in full.
    expect(s.grid.map((c) => `${c.shape} ${c.history} ${c.streams} ${c.factor}`)).toEqual(
      Saturation.shapes.flatMap((shape) =>
        Saturation.streamings.flatMap((streams) => Saturation.factors.map((f) => `${shape} short ${streams} ${f}`))
      )
    )
    for (const cell of s.grid) {
      expect(cell.run.streams).toHaveLength(cell.streams === "one" ? 1 : Saturation.routes.length)
      expect(cell.run.records).toBe(Bench.smoke.saturation.records)
    }
    // The header, then the 3 runs and the 18 cells.
    expect(Bench.table(results).split("\n")).toHaveLength(2 + 3 + 18)
  }, 300_000)
})
