// The adaptive budget against each shape of limiter the reference service runs (a fixed window, a
// sliding window, a token bucket whose burst is its rate), on a virtual clock: it converges to the
// service's limit with the refusals of the first crossing and few after, and recovers when the limit
// rises. What each shape does to the budget: docs/configuration.md, "Adaptive rate".
import { RateLimit } from "@broker-history/testing/ServerInternals"
import { Effect } from "effect"
import * as LimiterRun from "../../support/LimiterRun.js"
import { describe, expect, it } from "../../support/line/Testing.js"

const R = 20

describe("the adaptive budget against every limiter shape", () => {
  for (const shape of RateLimit.shapes) {
    it.effect(`${shape}: a budget of 4R, one stream 4 windows ahead, converges to R`, () =>
      Effect.gen(function*() {
        const run = yield* LimiterRun.run({ shape, serviceLimit: R, budget: 4 * R, seconds: 30, jitterMillis: 2 })
        // The first crossing costs the requests on their way then (4 in flight); a token bucket's
        // stored burst, read as a rate at first, costs one refusal per step down to its rate.
        expect(LimiterRun.refusals(run, 0, 30)).toBeLessThanOrEqual(6)
        expect(LimiterRun.refusals(run, 10, 30)).toBe(0)
        // Never above the limit for long, and at least 95 % of it (the margin takes 2.5 %).
        expect(LimiterRun.acceptedRate(run, 5, 30)).toBeLessThanOrEqual(R * 1.01)
        expect(LimiterRun.acceptedRate(run, 5, 30)).toBeGreaterThanOrEqual(R * 0.95)
        expect(LimiterRun.acceptedRate(run, 0, 30)).toBeGreaterThanOrEqual(R * 0.95)
      }))

    it.effect(`${shape}: four streams through one budget of 2R converge to R`, () =>
      Effect.gen(function*() {
        const run = yield* LimiterRun.run({
          shape,
          serviceLimit: R,
          budget: 2 * R,
          seconds: 30,
          streams: 4,
          concurrency: 4,
          jitterMillis: 2
        })
        // Until the first refusal 4 on their way (not 2R × the 150 ms latency, 6, nor 16 windows
        // ahead), so the first crossing costs at most 4; against a token bucket the steps down from
        // its burst, read as a rate at first, cost one each.
        expect(LimiterRun.refusals(run, 0, 30)).toBeLessThanOrEqual(shape === "tokenBucket" ? 10 : 4)
        expect(LimiterRun.refusals(run, 10, 30)).toBe(0)
        expect(LimiterRun.acceptedRate(run, 5, 30)).toBeGreaterThanOrEqual(R * 0.95)
        expect(LimiterRun.acceptedRate(run, 0, 30)).toBeGreaterThanOrEqual(R * 0.95)
      }))

    it.effect(
      `${shape}: the limit rises from R to 2R: the rate follows it up to the budget`,
      () =>
        Effect.gen(function*() {
          const run = yield* LimiterRun.run({
            shape,
            serviceLimit: R,
            raisedTo: { at: 15, limit: 2 * R },
            budget: 4 * R,
            seconds: 80,
            jitterMillis: 2,
            streams: 2,
            concurrency: 4
          })
          // A token bucket may hold up to its burst (R) at 5 s, let through on top of its rate.
          expect(LimiterRun.acceptedRate(run, 5, 15)).toBeLessThanOrEqual(
            R * 1.01 + (shape === "tokenBucket" ? R / 10 : 0)
          )
          // Held at R for 30 intervals after the last cut, then probing up: at 2R well within a minute.
          expect(LimiterRun.acceptedRate(run, 65, 80)).toBeGreaterThanOrEqual(2 * R * 0.95)
          expect(LimiterRun.refusedShare(run)).toBeLessThanOrEqual(0.01)
        })
    )
  }
})
