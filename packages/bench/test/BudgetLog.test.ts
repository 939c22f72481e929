// The saturation part's record of the client budget's debug lines.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import * as BudgetLog from "../src/BudgetLog.js"

describe("BudgetLog", () => {
  it.effect("keeps the budget's lines at debug level, drops the others, and writes them against the transport", () =>
    Effect.gen(function*() {
      const events: Array<BudgetLog.Event> = []
      yield* Effect.all([
        Effect.logDebug("broker rate limit refused").pipe(Effect.annotateLogs({
          sentAt: 1_900,
          at: 2_050,
          sentBefore: 20,
          acceptedMost: 20,
          levelBefore: Infinity,
          level: 20,
          allowedBefore: 40,
          allowed: 20,
          spreadMillis: 0,
          cut: true
        })),
        Effect.logDebug("broker request retried"),
        Effect.logDebug("broker rate limit raised").pipe(
          Effect.annotateLogs({ sentAt: 1_950, acceptedMost: 21, levelBefore: 20, level: 21 })
        )
      ]).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, BudgetLog.logger(events))),
        Logger.withMinimumLogLevel(LogLevel.Debug)
      )
      expect(events.map((e) => e.message)).toEqual(["broker rate limit refused", "broker rate limit raised"])
      // The transport: the first request at 1,000 ms, accepted ones at 1,000 and 1,890 ms, a 429 at 1,500 ms.
      const signed = [
        { started: 1_000, status: 200 },
        { started: 1_500, status: 429 },
        { started: 1_890, status: 200 }
      ]
      const lines = BudgetLog.describe(events, signed, 875, 25)
      expect(lines[0]).toBe(
        "1.050 s refused, cut (sent 0.900 s): before it 20, accepted most 20; level bound -> 20, allowed 40 -> 20, " +
          "spread 0 ms; transport: accepted 1 in the interval before it, 2 in the interval + 25 ms"
      )
      expect(lines[1]).toMatch(/ s raised by an acceptance \(sent 0\.950 s\): accepted most 21, level 20 -> 21$/)
    }))
})
