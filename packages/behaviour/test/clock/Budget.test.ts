// The adaptive rate against a service that enforces its limit, through each line's `BrokerHistory`
// (page calls over the mock transport) on a virtual clock: callers that always want another page,
// as streams fetching ahead do.
import { describe, expect, it } from "vitest"
import { limited } from "../../../client/test/support/MockService.js"
import type { Answer, Seen, Sim } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const page = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1_000, endTime: 2_000, page: 1 }

/** Times in `[from, to)` seconds. */
const between = (times: ReadonlyArray<number>, from: number, to: number) =>
  times.filter((t) => t >= from * 1000 && t < to * 1000).length

interface Drive {
  /** The client's budget per second. */
  readonly budget: number
  /** The service's limit per second, and from which second on it is `raisedTo`. */
  readonly serviceLimit: number
  readonly raisedTo?: { readonly at: number; readonly limit: number }
  readonly seconds: number
  readonly adaptive?: boolean
  /** Callers that always want another page (default 4). */
  readonly callers?: number
}

/** Keeps `callers` page calls going (each a new one when the last ended) until `stopped()`. */
const keepCalling = (sim: Sim, callers: number, stopped: () => boolean) => {
  for (let i = 0; i < callers; i++) {
    void (async () => {
      while (!stopped()) await sim.call("transferHistory", page)
    })()
  }
}

describe.each(Simulations.all)(
  "budget ($name): the adaptive rate against a service that enforces its limit",
  (line) => {
    /** When the service saw each request and when it refused, over `seconds` of callers. */
    const drive = async (d: Drive) => {
      const service = limited(d.serviceLimit, 1000, () => ({ status: 200, body: [] }))
      const seen: Array<number> = []
      let gauge = Number.NaN
      const answer = (s: Seen): Answer => {
        seen.push(s.at)
        return service.answer(s)
      }
      // A 1 ms margin: with none, a start exactly one interval after another may land inside the
      // service's window; the default margin would lower the rates below the ones asserted.
      const settings = {
        rateLimit: { limit: d.budget, interval: "1 second", margin: "1 millis", adaptive: d.adaptive ?? true }
      }
      await line.run({ answer }, { start: 0, settings }, async (sim) => {
        let stopped = false
        keepCalling(sim, d.callers ?? 4, () => stopped)
        if (d.raisedTo !== undefined) {
          await sim.adjust(d.raisedTo.at * 1000)
          service.control.limit = d.raisedTo.limit
        }
        await sim.adjust((d.seconds - (d.raisedTo?.at ?? 0)) * 1000)
        stopped = true
        gauge = await sim.rateLimitCurrent()
      })
      const within = seen.filter((t) => t < d.seconds * 1000)
      return { seen: within, refusedAt: service.control.refusedAt.filter((t) => t < d.seconds * 1000), gauge }
    }

    /** Requests the service accepted per second in `[from, to)` seconds. */
    const acceptedRate = (
      run: { readonly seen: ReadonlyArray<number>; readonly refusedAt: ReadonlyArray<number> },
      from: number,
      to: number
    ) => (between(run.seen, from, to) - between(run.refusedAt, from, to)) / (to - from)

    it("a budget twice the service's limit: converges below the limit with few 429s", async () => {
      const run = await drive({ budget: 40, serviceLimit: 20, seconds: 60 })
      // One refusal teaches the limit; after that one probe above it per regrowth and hold.
      expect(run.refusedAt.length).toBeGreaterThan(0)
      expect(between(run.refusedAt, 0, 1)).toBeLessThanOrEqual(4)
      expect(between(run.refusedAt, 1, 60)).toBeLessThanOrEqual(2)
      expect(acceptedRate(run, 0, 60)).toBeLessThanOrEqual(20)
      expect(acceptedRate(run, 0, 60)).toBeGreaterThanOrEqual(19.5)
      expect(run.gauge).toBeLessThanOrEqual(20)
    })

    it("after the first 429 the rate is the level the service accepted at once, and probes rarely", async () => {
      const run = await drive({ budget: 40, serviceLimit: 20, seconds: 120 })
      // The first 429 comes at once (40 start at 0); right after it the service's limit, not a cut
      // below it regrowing.
      expect(between(run.refusedAt, 0, 1)).toBeGreaterThan(0)
      expect(acceptedRate(run, 1, 3)).toBeGreaterThanOrEqual(19.5)
      // Then one probe above it every hold (30 intervals), each answered by one 429.
      expect(between(run.refusedAt, 1, 120)).toBeGreaterThan(0)
      expect(between(run.refusedAt, 1, 120)).toBeLessThanOrEqual(4)
      expect(acceptedRate(run, 1, 120)).toBeGreaterThanOrEqual(19.9)
    })

    it("a budget four times the limit converges too", async () => {
      const run = await drive({ budget: 80, serviceLimit: 20, seconds: 60 })
      expect(between(run.refusedAt, 0, 1)).toBeLessThanOrEqual(4)
      expect(between(run.refusedAt, 1, 60)).toBeLessThanOrEqual(2)
      expect(acceptedRate(run, 0, 60)).toBeGreaterThanOrEqual(19.5)
    })

    it("without adaptation the same budget keeps running into the limit", async () => {
      const run = await drive({ budget: 40, serviceLimit: 20, seconds: 60, adaptive: false })
      expect(between(run.refusedAt, 20, 60)).toBeGreaterThan(100)
      expect(run.gauge).toBe(40)
    })

    it("a budget set to the service's own limit sees no 429", async () => {
      const run = await drive({ budget: 20, serviceLimit: 20, seconds: 30 })
      expect(run.refusedAt).toEqual([])
      expect(acceptedRate(run, 0, 30)).toBeGreaterThanOrEqual(19.9)
      expect(run.gauge).toBe(20)
    })

    it("after the service's limit rises again the rate recovers to the bound", async () => {
      const run = await drive({ budget: 40, serviceLimit: 20, raisedTo: { at: 60, limit: 40 }, seconds: 150 })
      expect(acceptedRate(run, 40, 60)).toBeLessThanOrEqual(20)
      expect(acceptedRate(run, 130, 150)).toBeGreaterThanOrEqual(39.5)
      expect(run.gauge).toBe(40)
    })
  }
)

describe.each(Simulations.all)("Retry-After ($name)", (line) => {
  it("a 418 (a ban) holds every request of the layer until it ends; a 429 holds only the refused one", async () => {
    for (const status of [418, 429]) {
      const seen: Array<number> = []
      const answer = (s: Seen): Answer => {
        seen.push(s.at)
        return s.n === 1
          ? { status, body: { code: status, msg: "no" }, headers: { "retry-after": "5" } }
          : { status: 200, body: [] }
      }
      const settings = { rateLimit: { limit: 100, interval: "1 second", margin: "1 millis" } }
      await line.run({ answer }, { start: 0, settings }, async (sim) => {
        const first = sim.call("transferHistory", page)
        await sim.adjust(1)
        const second = sim.call("transferHistory", page)
        await sim.adjust(10_000)
        expect(await first).toMatchObject({ _tag: "Success" })
        expect(await second).toMatchObject({ _tag: "Success" })
      })
      // The refused request is retried after 5 s either way. Nothing was seen accepted, so the cut
      // is to 1 per interval: after a 429 the other request waits for that; after a 418 for the ban
      // to end, then for that.
      expect(seen.map((t) => t - seen[0]!)).toEqual(status === 418 ? [0, 5000, 6001] : [0, 1001, 5000])
    }
  })
})
