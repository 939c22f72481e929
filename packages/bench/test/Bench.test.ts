// CI smoke run of the benchmark at tiny sizes: the harness works end to end (page server child
// process, every contender, memory, soak, the whole broker, start-up, decoding; saturation and
// staleness in their own files). No timings are asserted: the figures of a smoke run mean nothing.
import { Seed } from "@broker-history/server"
import { describe, expect, it } from "@effect/vitest"
import * as Bench from "../src/Bench.js"
import * as Contender from "../src/Contender.js"
import * as DecodeContenders from "../src/DecodeContenders.js"
import * as DecodePages from "../src/DecodePages.js"

describe("benchmark harness (smoke sizes)", () => {
  it("runs every part but saturation and staleness (their own files) and renders one table", async () => {
    const results = await Bench.run(
      Bench.smoke,
      Bench.parts.filter((p) => p !== "saturation" && p !== "staleness" && p !== "sync")
    )
    const tables = results.throughput!.tables
    expect(tables.map((t) => [t.shape.kind, t.shape.pages])).toEqual(
      Bench.smoke.throughput.datasets.map((d) => [d.kind, d.pages])
    )
    // Every contender, each in its own process, read every record of every page of both datasets
    // (the harness checks counts and signatures).
    for (const t of tables) {
      expect(t.summaries.map((s) => s.name)).toEqual([...Contender.names])
      expect(t.samples).toHaveLength(Bench.smoke.throughput.rounds * Contender.names.length)
      for (const sample of t.samples) {
        expect(sample.records).toBe(t.shape.pages * 500)
        expect(sample.signed).toBe(sample.requests)
      }
    }
    // Long records are the larger page.
    expect(tables[1]!.pageBytes).toBeGreaterThan(2 * tables[0]!.pageBytes)
    expect(results.memory!.rounds).toHaveLength(1)
    expect(results.soak!.totals.exact).toBe(Bench.smoke.soak.seeds)
    // The clustered part checks that every record came once, in order; both histories were read.
    expect(results.clustered!.readings.map((r) => r.spread)).toEqual(["steady", "random"])
    // The whole broker: both first syncs stored every transfer the plan covers; none beat the ideal, and
    // starting the streams at their sub-account's creation saved requests.
    const [discovered, listed] = results.broker!.runs
    for (const run of [discovered!, listed!]) {
      expect(run.exact).toBe(true)
      expect(run.requests).toBeGreaterThanOrEqual(run.ideal)
    }
    expect(discovered!.ideal).toBeLessThan(listed!.ideal)
    expect(discovered!.requests).toBeLessThan(listed!.requests)
    // The start-up: every way of starting the CLI reached the service, in every round.
    const startup = results.startup!
    for (const way of [startup.installed, startup.hooked, startup.sources]) {
      expect(way.firstSigned.samples).toHaveLength(Bench.smoke.startup.rounds)
      expect(way.firstSigned.median).toBeGreaterThan(0)
      expect(way.firstRequest.median).toBeLessThanOrEqual(way.firstSigned.median)
    }
    expect(startup.installed.runs).toMatch(/^dist\/bin\/broker-history\.js \(compiled, installed: the published bin/)
    // Decoding: every contender, each in its own process, decoded every kind of page (each process
    // checks its results against the pages before it is measured).
    expect(results.decoding!.summaries.map((d) => `${d.kind} ${d.name}`)).toEqual(
      DecodePages.kinds.flatMap((kind) => DecodeContenders.names.map((name) => `${kind} ${name}`))
    )
    const table = Bench.table(results)
    expect(table).toContain("| start-up: compiled CLI, process start → first request")
    // The header, then throughput 2 × (7 contenders + 2 Effect 4/Effect 3 pairs), memory 2, soak 1,
    // clustered 2, broker 2, start-up 6, decoding 9.
    expect(table.split("\n"), table).toHaveLength(2 + 2 * (7 + 2) + 2 + 1 + 2 + 2 + 6 + 9)
  }, 420_000)

  it(
    "sync part: the sync and the raw loop write every row of the plan, into SQLite and (when BROKER_TEST_PG_URL is set) PostgreSQL",
    async () => {
      const sync = (await Bench.run(Bench.smoke, ["sync"])).sync!
      const rows = sync.expected.transfers + sync.expected.deposits
      // The plan covers every transfer touching the master account and every deposit the service holds.
      const seeded = Seed.transfers(Bench.smoke.sync).filter((t) => t.fromAccount === null || t.toAccount === null)
      expect([sync.expected.transfers, sync.expected.deposits]).toEqual([seeded.length, Bench.smoke.sync.deposits])
      expect(sync.samples.length).toBe(process.env.BROKER_TEST_PG_URL ? 7 : 4)
      for (const sample of sync.samples) {
        expect([sample.contender, sample.target, sample.rows, sample.exact]).toEqual([
          sample.contender,
          sample.target,
          rows,
          true
        ])
      }
    },
    120_000
  )
})
