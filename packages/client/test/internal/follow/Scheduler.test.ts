import { Clock, Duration, Effect, Fiber, Stream } from "effect"
import type * as FullHistory from "../../../src/FullHistory.js"
import * as Scheduler from "../../../src/internal/follow/Scheduler.js"
import { describe, expect, fork, it } from "../../support/line/Testing.js"
import * as VirtualClock from "../../support/VirtualClock.js"

interface Row {
  readonly t: number
  readonly id: string
}

/** A stream over an empty history whose every request takes `takes` (its polls counted in `polls`). */
const followed = (stream: string, takes: Effect.Effect<void>, polls: Record<string, number>) => {
  const options: FullHistory.Options<Row> = {
    fetch: () =>
      Effect.as(Effect.andThen(Effect.sync(() => void (polls[stream] = (polls[stream] ?? 0) + 1)), takes), []),
    time: (r) => r.t,
    key: (r) => r.id,
    compare: (a, b) => a.t - b.t,
    fingerprint: (r) => r.id,
    limit: 500,
    maxWindow: undefined,
    since: 0,
    until: 0,
    concurrency: 1,
    follow: { interval: Duration.zero, settlement: 60_000, now: Clock.currentTimeMillis }
  }
  return { stream, options }
}

describe("follow Scheduler", () => {
  it.effect("a poll due a fraction of a nanosecond after now is waited for, not spun on", () =>
    Effect.gen(function*() {
      const polls: Record<string, number> = {}
      // One slot, polls every 5 s. From a start of 0.1 * 3 ms: a's first poll ends at start + 1000, so
      // a is due at (start + 1000) + 5000; b's first poll ends at ((start + 1000) + 1000.3) + 3999.7, which
      // is 9e-13 ms before that. Waiting for a must not round to a wait of nothing.
      const list = [
        followed("a", Effect.sleep(Duration.millis(1000)), polls),
        followed(
          "b",
          Effect.andThen(Effect.sleep(Duration.millis(1000.3)), Effect.sleep(Duration.millis(3999.7))),
          polls
        )
      ]
      const fiber = yield* fork(
        Stream.runDrain(Scheduler.run(list, { minInterval: 5_000, maxInterval: 5_000, slots: 1 }))
      )
      yield* VirtualClock.adjust("30 seconds")
      yield* Fiber.interrupt(fiber)
      // The polls go on, a and b taking turns at the one slot (a's take 1 s, b's 5 s): about 5 and 3.
      expect(polls["a"]).toBeGreaterThanOrEqual(4)
      expect(polls["b"]).toBeGreaterThanOrEqual(3)
    }).pipe(VirtualClock.run({ start: 0.1 * 3 })))
})
