// Both lines of the client in the throughput part, at smoke sizes: the Effect 4 contenders (the same
// contender code, given @broker-history/client-effect4 and its effect 4) read every page in processes
// of their own beside the Effect 3 ones, and the table compares each with its Effect 3 twin. No
// timing is asserted.
import { describe, expect, it } from "@effect/vitest"
import * as Bench from "../src/Bench.js"
import * as Contender from "../src/Contender.js"

describe("the Effect 4 line in the throughput part", () => {
  it("runs the page calls and the stream of both lines, each in its own process, over every page", async () => {
    const only = ["undici", "pageCalls", "stream", "pageCallsEffect4", "streamEffect4"] as const
    const results = await Bench.run({ ...Bench.smoke, throughput: { ...Bench.smoke.throughput, only } }, ["throughput"])
    for (const t of results.throughput!.tables) {
      // The harness checks every reading's records and signatures; each contender read once a round.
      expect(t.samples.map((s) => s.name)).toEqual([...only])
      for (const s of t.samples) expect([s.name, s.records]).toEqual([s.name, t.shape.pages * 500])
      expect(t.versus!.map((v) => `${v.name}/${v.against}`)).toEqual([
        "pageCallsEffect4/pageCalls",
        "streamEffect4/stream"
      ])
    }
    // The table: per dataset a row per contender, then a row per Effect 4/Effect 3 pair.
    const rows = Bench.table(results).split("\n").slice(2)
    expect(rows).toHaveLength(2 * (only.length + 2))
    expect(rows.filter((r) => r.includes("| Effect 4/Effect 3 per round: "))).toHaveLength(2 * 2)
    // By default (no --contenders) the throughput part runs both lines.
    expect(Contender.names).toEqual(expect.arrayContaining(["pageCallsEffect4", "streamEffect4"]))
  }, 120_000)
})
