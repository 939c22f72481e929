// The pure parts of the follow-at-scale benchmark: the seeded inserts, the figures and the service's
// request log.
import { describe, expect, it } from "@effect/vitest"
import * as InsertPlan from "../src/InsertPlan.js"
import * as ServiceLog from "../src/ServiceLog.js"
import * as StalenessStats from "../src/StalenessStats.js"

const settings: InsertPlan.Settings = { seed: 7, streams: 200, zipf: 1.5, insertsPerSecond: 10, scale: 4 }

describe("InsertPlan", () => {
  it("the same seed gives the same inserts at the same times, whatever the calls' times", () => {
    const once = InsertPlan.make(settings, 0)(60_000)
    const due = InsertPlan.make(settings, 0)
    const stepped = Array.from({ length: 600 }, (_, i) => due((i + 1) * 100)).flat()
    expect(stepped).toEqual(once)
    expect(InsertPlan.make({ ...settings, seed: 8 }, 0)(60_000)).not.toEqual(once)
  })

  it("inserts at the rate asked (simulated, scale times faster), busy streams first, each rank one stream", () => {
    const inserts = InsertPlan.make(settings, 0)(250_000)
    // 250 s real at scale 4 is 1,000 s simulated at 10 per second.
    expect(inserts.length).toBeGreaterThan(9_500)
    expect(inserts.length).toBeLessThan(10_500)
    const byRank = new Map<number, Set<number>>()
    for (const i of inserts) byRank.set(i.rank, (byRank.get(i.rank) ?? new Set()).add(i.stream))
    for (const streams of byRank.values()) expect(streams.size).toBe(1)
    const count = (rank: number) => inserts.filter((i) => i.rank === rank).length
    // Zipf 1.5: rank 1 draws about 2^1.5 times as often as rank 2.
    expect(count(1) / count(2)).toBeGreaterThan(2.3)
    expect(count(1) / count(2)).toBeLessThan(3.4)
    expect(Math.max(...inserts.map((i) => i.rank))).toBeLessThanOrEqual(settings.streams)
  })
})

describe("StalenessStats", () => {
  it("nearest-rank quantiles; figures over the measured inserts, misses over all, by rank group", () => {
    expect(StalenessStats.quantile([], 0.5)).toBeNaN()
    expect([0.01, 0.5, 0.51, 0.99, 1].map((q) => StalenessStats.quantile([1, 2, 3, 4], q))).toEqual([1, 2, 3, 4, 4])
    const inserts: Array<StalenessStats.Insert> = [
      { id: "a", at: 0, rank: 1, measured: false },
      { id: "b", at: 100, rank: 1, measured: true },
      { id: "c", at: 100, rank: 2, measured: true },
      { id: "d", at: 100, rank: 150, measured: true },
      { id: "e", at: 100, rank: 2, measured: false }
    ]
    const seen: StalenessStats.Seen = { at: new Map([["a", 50], ["b", 200], ["c", 400], ["d", 1100]]), repeated: 3 }
    const figures = StalenessStats.stalenessOf(seen, inserts, 2)
    expect([figures.emitted, figures.missed, figures.repeated, figures.p50, figures.max]).toEqual([3, 1, 3, 600, 2000])
    expect(figures.byRank.map((g) => [g.from, g.to, g.records, g.p99])).toEqual([
      [1, 1, 1, 200],
      [2, 3, 1, 600],
      [4, 10, 0, NaN],
      [11, 100, 0, NaN],
      [101, Infinity, 1, 2000]
    ])
  })

  it("bunches: more than the limit within one window, the window's end excluded", () => {
    expect(StalenessStats.bunches([0, 10, 1_000, 1_005, 2_500], 2, 1_000)).toBe(1)
  })
})

describe("ServiceLog", () => {
  it("a signed request's arrival is its log time less its duration; other lines have none", () => {
    const at = Date.parse("2026-01-01T00:00:01.000Z")
    expect(
      ServiceLog.arrivalOf("2026-01-01T00:00:01.000Z INFO GET /api/v3/broker/sub-account/universalTransfer 200 5ms")
    )
      .toBe(at - 5)
    expect(ServiceLog.arrivalOf("2026-01-01T00:00:01.000Z INFO GET /api/v3/time 200 1ms")).toBeUndefined()
    expect(ServiceLog.arrivalOf("listening on 127.0.0.1:1234")).toBeUndefined()
  })

  it("a broker request's answer is its log time; a request that is not the broker's, or an error line, is none", () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678)
    const iso = new Date(at).toISOString()
    expect(ServiceLog.brokerRequest(`${iso} INFO GET /api/v3/broker/subAccount/depositHist 200 3ms`)).toEqual({
      answeredAt: at,
      arrivedAt: at - 3
    })
    expect(ServiceLog.brokerRequest(`${iso} INFO GET /api/v3/ping 200 1ms`)).toBeUndefined()
    expect(ServiceLog.brokerRequest(`${iso} ERROR GET /api/v3/broker/subAccount/depositHist`)).toBeUndefined()
  })
})
