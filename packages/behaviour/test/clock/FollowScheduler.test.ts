// Many streams followed at once (`followTransfers`) on a virtual clock, on both lines: merged in
// order with their checkpoints, polled by how busy they are, within the budget and `concurrency`.
import * as Prng from "@broker-history/core/random/Prng"
import { describe, expect, it } from "vitest"
import type { Row } from "../../../client/test/support/MockHistory.js"
import { transferService } from "../../../client/test/support/MockHistory.js"
import type { Seen, Sim } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

/** Streams named by their `toAccount`; each has its own rows, served by the mock history. */
const multiService = (rows: Record<string, Array<Row>>) => {
  const services = Object.fromEntries(Object.entries(rows).map(([name, r]) => [name, transferService(r)]))
  return (seen: Seen) => services[seen.params.get("toAccount") ?? ""]!(seen)
}

const queryOf = (name: string) => ({
  stream: name,
  query: { fromAccountType: "SPOT" as const, toAccountType: "FUTURES" as const, toAccount: name, since: 0 }
})

const requestTimes = (sim: Sim, name: string) =>
  sim.requests.filter((s) => s.params.get("toAccount") === name).map((s) => s.at)

interface Change {
  readonly stream: string
  readonly kind: string
  readonly record: { readonly tranId: string; readonly timestamp: number }
  readonly checkpoint: { readonly time: number; readonly ids: ReadonlyArray<string> }
}

describe.each(Simulations.all)("FollowScheduler ($name)", (line) => {
  it("many streams merged: per stream in order, exactly once, with each stream's checkpoint", async () => {
    const names = ["a", "b", "c", "d"]
    const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
    const next = Prng.mulberry32(7)
    let id = 1
    const insert = (at: number) => {
      const name = names[Prng.int(next, 0, 3)]!
      rows[name]!.push({ tranId: String(id++), timestamp: at, status: "SUCCESS" })
    }
    for (let i = 0; i < 40; i++) insert(Prng.int(next, 0, 999_000))
    const settings = { rateLimit: { limit: 5, interval: "1 second" } }
    await line.run({ answer: multiService(rows) }, { start: 1_000_000, settings }, async (sim) => {
      const stream = sim.start("followTransfers", names.map(queryOf), {
        minInterval: "1 second",
        maxInterval: "20 seconds",
        settlement: "1 minute"
      })
      // Live inserts at the service's now, some at the same millisecond, while the streams follow.
      for (let s = 0; s < 120; s++) {
        const now = 1_000_000 + s * 1_000
        if (s < 90 && next() < 0.5) insert(now)
        if (s < 90 && next() < 0.1) insert(now)
        await sim.adjust(1_000)
      }
      const seen = stream.emitted as ReadonlyArray<Change>
      for (const name of names) {
        const mine = seen.filter((c) => c.stream === name)
        const want = [...rows[name]!].sort((x, y) => x.timestamp - y.timestamp || Number(x.tranId) - Number(y.tranId))
        expect(mine.map((c) => c.record.tranId)).toEqual(want.map((r) => r.tranId))
        expect(mine.every((c) => c.kind === "new")).toBe(true)
        const last = mine.at(-1)!
        expect(last.checkpoint.time).toBe(last.record.timestamp)
        expect(last.checkpoint.ids).toContain(last.record.tranId)
      }
    })
  })

  it("a busy stream is polled more often than quiet ones, and no stream waits longer than maxInterval", async () => {
    const names = ["busy", "q1", "q2", "q3", "q4", "q5"]
    const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
    await line.run({ answer: multiService(rows) }, { start: 1_000_000 }, async (sim) => {
      sim.start("followTransfers", names.map(queryOf), { minInterval: "1 second", maxInterval: "30 seconds" })
      let id = 1
      for (let s = 0; s < 300; s++) {
        rows.busy!.push({ tranId: String(id++), timestamp: 1_000_000 + s * 1_000, status: "SUCCESS" })
        await sim.adjust(1_000)
      }
      const busy = requestTimes(sim, "busy")
      for (const name of names.slice(1)) {
        const quiet = requestTimes(sim, name)
        expect(busy.length).toBeGreaterThan(5 * quiet.length)
        const gaps = quiet.slice(1).map((t, i) => t - quiet[i]!)
        expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000)
        // Backed off: after the first poll found nothing, every poll is maxInterval apart.
        expect(Math.min(...gaps)).toBe(30_000)
      }
    })
  })

  it("polls beyond the budget wait their turn, at most `concurrency` in flight", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `s${i}`)
    const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
    // Each answer takes 500 ms of the clock, so polls overlap as far as the scheduler lets them.
    const service = { answer: multiService(rows), latencyMillis: 500 }
    const settings = { rateLimit: { limit: 4, interval: "1 second" } }
    await line.run(service, { start: 1_000_000, settings }, async (sim) => {
      sim.start("followTransfers", names.map(queryOf), {
        minInterval: "1 second",
        maxInterval: "10 seconds",
        concurrency: 3
      })
      await sim.adjust(60_000)
      // 12 quiet streams at a 10 s maxInterval, 3 polls of 500 ms at a time: every stream gets its turn, round after round.
      const counts = names.map((n) => requestTimes(sim, n).length)
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(5)
      // A poll is in flight in the 500 ms before its answer (`at`): at most 3 at once, and 3 reached.
      const answered = sim.requests.map((s) => s.at)
      const most = answered.reduce((m, t) => Math.max(m, answered.filter((u) => u >= t && u < t + 500).length), 0)
      expect(most).toBe(3)
    })
  })

  it.each(
    [
      [{ minInterval: "0 millis" }, "minInterval"],
      [{ maxInterval: "10 millis", minInterval: "1 second" }, "maxInterval"],
      [{ concurrency: 0 }, "concurrency"],
      [{ settlement: "forever" }, "settlement"]
    ] as const
  )("rejects %j with InvalidQuery(%s) before any request", async (options, parameter) => {
    await line.run({ answer: multiService({ a: [] }) }, { start: 0 }, async (sim) => {
      const stream = sim.start("followTransfers", [queryOf("a")], options)
      await sim.adjust(0)
      expect(stream.end()).toMatchObject({ _tag: "Failure", failure: { _tag: "InvalidQuery", fields: { parameter } } })
      expect(sim.requests.length + sim.timeRequests.length).toBe(0)
    })
  })

  it("a bad query names its stream, and nothing is sent", async () => {
    await line.run({ answer: multiService({ a: [], b: [] }) }, { start: 0 }, async (sim) => {
      const stream = sim.start("followTransfers", [queryOf("a"), {
        stream: "b",
        query: { ...queryOf("b").query, limit: 0 }
      }])
      await sim.adjust(0)
      expect(stream.end()).toMatchObject({
        _tag: "Failure",
        failure: { _tag: "InvalidQuery", fields: { parameter: "streams[1].limit" } }
      })
      expect(sim.requests.length + sim.timeRequests.length).toBe(0)
    })
  })
})
