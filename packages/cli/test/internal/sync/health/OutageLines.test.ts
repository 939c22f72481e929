// The two lines of an outage: what is unavailable, why, the next try and the cap; then its length.
import { describe, expect, it } from "@effect/vitest"
import * as OutageLines from "../../../../src/internal/sync/health/OutageLines.js"

describe("OutageLines", () => {
  it("the lines: what, why, the next try and the cap; then the length and the failures", () => {
    expect(OutageLines.startedLine("database", "the database system is starting up (57P03)", 200, 60_000)).toBe(
      "database unavailable: the database system is starting up (57P03); retrying in 200ms, backing off up to 1m, until it is back"
    )
    expect(OutageLines.endedLine("database", 20_300, 7)).toBe(
      "database available again after 20s 300ms unavailable (7 failed attempts)"
    )
    expect(OutageLines.endedLine("broker service", 1_000, 1)).toBe(
      "broker service available again after 1s unavailable (1 failed attempt)"
    )
  })
})
