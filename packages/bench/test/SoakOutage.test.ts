// The fault soak's outage round, at a short outage: a following sync while the service is stopped far
// longer than a request's retries, then started again on the same port and database; every record
// stored once, none written twice, the outage logged once at each end. No timing is asserted.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as SoakOutage from "../src/SoakOutage.js"

describe("fault soak: outage round", () => {
  it.live("the service down for 3 s during a follow: nothing lost, nothing repeated", () =>
    Effect.gen(function*() {
      const result = yield* SoakOutage.run({
        ...SoakOutage.options,
        transfers: 1000,
        deposits: 200,
        outageMillis: 3000
      })
      const line = SoakOutage.line(result)
      expect(result.outageMillis, line).toBeGreaterThanOrEqual(3000)
      expect(result.records, line).toBeGreaterThan(SoakOutage.options.added * 2)
      expect(result.added, line).toBe(SoakOutage.options.added * 2)
      expect([result.missing, result.extra, result.repeated], line).toEqual([0, 0, 0])
      expect([result.unavailableLines, result.availableLines], line).toEqual([1, 1])
    }), 90_000)
})
