// The fault soak (CI size): 20 seeds of 10 % 5xx, 5 % 429 + Retry-After, 2 % drops, 1 % hangs and
// 1 % truncated bodies; every full-history stream must equal the service's set exactly.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Soak from "../src/Soak.js"

describe("fault soak", () => {
  it.live("20 seeds: both full-history streams equal the service's sets, in order, once", () =>
    Effect.gen(function*() {
      const result = yield* Soak.run(Soak.ciOptions)
      const { totals } = result
      // The soak's figures go in the assertion messages, not on the console.
      const summary = `${result.seeds.length} seeds, ${totals.requests} requests, ${totals.retries} retries, faults ${
        JSON.stringify(totals.faults)
      }, ${totals.transfers} transfers + ${totals.deposits} deposits`
      for (const seed of result.seeds) expect(seed.mismatch, `seed ${seed.seed}`).toBeUndefined()
      expect(totals.exact, summary).toBe(Soak.ciOptions.seeds)
      // Every kind of fault was met, and every fault cost a retry (a slow answer may cost one more).
      for (const kind of ["serverError", "rateLimited", "drop", "hang", "truncate"]) {
        expect(totals.faults[kind] ?? 0, `${kind}: ${summary}`).toBeGreaterThan(0)
      }
      const faults = Object.values(totals.faults).reduce((a, b) => a + b, 0)
      expect(totals.retries, summary).toBeGreaterThanOrEqual(faults)
      expect(totals.transfers, summary).toBeGreaterThan(0)
      expect(totals.deposits, summary).toBe(Soak.ciOptions.seeds * Soak.ciOptions.deposits)
    }), 120_000)
})
