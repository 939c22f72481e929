import { describe, expect, it } from "vitest"
import * as IdealRequests from "../src/IdealRequests.js"

// The fewest windows by brute force: every cut of [since, until] into feasible windows, tried.
const bruteForce = (stream: IdealRequests.Stream): number => {
  const best = new Map<number, number>()
  const from = (cursor: number): number => {
    if (cursor > stream.until) return 0
    const known = best.get(cursor)
    if (known !== undefined) return known
    let fewest = Infinity
    for (let end = cursor; end <= stream.until; end++) {
      if (stream.maxSpan !== undefined && end - cursor > stream.maxSpan) break
      const n = stream.times.filter((t) => t >= cursor && t <= end).length
      if (n >= stream.limit) {
        if (end === cursor) fewest = Math.min(fewest, Math.floor(n / stream.limit) + 1 + from(end + 1))
        break
      }
      fewest = Math.min(fewest, 1 + from(end + 1))
    }
    best.set(cursor, fewest)
    return fewest
  }
  return from(stream.since)
}

describe("IdealRequests.minimal", () => {
  it("needs a window per maximum width over an empty range", () => {
    expect(IdealRequests.minimal({ times: [], since: 0, until: 999, maxSpan: 99, limit: 500 })).toBe(10)
    expect(IdealRequests.minimal({ times: [], since: 0, until: 999, maxSpan: undefined, limit: 500 })).toBe(1)
  })

  it("cuts before the record that would fill a page", () => {
    // 3 records a page: [0..2] holds 2, then [3..] holds the rest.
    expect(IdealRequests.minimal({ times: [0, 1, 3, 4], since: 0, until: 10, maxSpan: undefined, limit: 3 })).toBe(2)
  })

  it("pages through a crowded millisecond", () => {
    expect(IdealRequests.minimal({ times: [5, 5, 5, 5, 5, 5], since: 0, until: 10, maxSpan: undefined, limit: 3 }))
      .toBe(1 + 3 + 1)
  })

  it("equals the brute-force fewest on random histories", () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let run = 0; run < 300; run++) {
      const until = 5 + Math.floor(random() * 40)
      const times = Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * (until + 1)))
        .sort((a, b) => a - b)
      const stream: IdealRequests.Stream = {
        times,
        since: Math.floor(random() * 3),
        until,
        maxSpan: random() < 0.3 ? undefined : Math.floor(random() * 10),
        limit: 1 + Math.floor(random() * 4)
      }
      expect(IdealRequests.minimal(stream), JSON.stringify(stream)).toBe(bruteForce(stream))
    }
  })
})
