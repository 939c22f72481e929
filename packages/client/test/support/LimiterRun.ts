/**
 * The client's request pipeline (budget, retries, `Retry-After`) against the reference service's
 * limiter (`RateLimit.make`, any shape) on a virtual clock: callers that always want another page, as
 * streams fetching ahead do, each request reaching the service when it starts (plus a seeded jitter)
 * and answered `latencyMillis` later. Time jumps from one wake-up to the next (VirtualClock), so a
 * minute of traffic takes a fraction of a second and every start is at the millisecond the client
 * chose.
 */
import { RateLimit } from "@broker-history/testing/ServerInternals"
import { Duration, Effect, Fiber } from "effect"
import * as Effects from "../../src/internal/line/Effects.js"
import * as RetryWait from "../../src/internal/request/RetryWait.js"
import { fork } from "./line/Testing.js"
import * as TestPipeline from "./TestPipeline.js"
import * as VirtualClock from "./VirtualClock.js"

export interface Setting {
  readonly shape: RateLimit.Shape
  /** The service's limit per second, and from which second on it is `raisedTo` (a new limiter). */
  readonly serviceLimit: number
  readonly raisedTo?: { readonly at: number; readonly limit: number } | undefined
  /** The client's budget per second. */
  readonly budget: number
  readonly seconds: number
  /**
   * Streams through the one budget (default 1), each fetching `concurrency` windows ahead (default 4)
   * as the walk does: that many requests in flight, and more while some wait out a `Retry-After`.
   */
  readonly streams?: number | undefined
  readonly concurrency?: number | undefined
  /** Latency of every answer (default 150 ms). */
  readonly latencyMillis?: number | undefined
  /** Each request reaches the service up to this much later than it started (seeded), default 0. */
  readonly jitterMillis?: number | undefined
  /** The client's margin on its interval (default: the configuration's default). */
  readonly marginMillis?: number | undefined
  readonly adaptive?: boolean | undefined
  /** The service's clock at the test's time 0 (default 0: its fixed windows start with the run). */
  readonly offsetMillis?: number | undefined
}

export interface Outcome {
  /** When the service saw each request, and whether it let it in. */
  readonly seen: ReadonlyArray<{ readonly at: number; readonly accepted: boolean }>
}

/** Requests the service accepted per second in `[from, to)` seconds. */
export const acceptedRate = (outcome: Outcome, from: number, to: number): number =>
  outcome.seen.filter((s) => s.accepted && s.at >= from * 1000 && s.at < to * 1000).length / (to - from)

/** Refusals in `[from, to)` seconds. */
export const refusals = (outcome: Outcome, from: number, to: number): number =>
  outcome.seen.filter((s) => !s.accepted && s.at >= from * 1000 && s.at < to * 1000).length

/** Refused requests / requests over the whole run. */
export const refusedShare = (outcome: Outcome): number =>
  outcome.seen.filter((s) => !s.accepted).length / Math.max(1, outcome.seen.length)

/** Runs `setting` on a virtual clock from time 0 and returns what the service saw. */
export const run = (setting: Setting): Effect.Effect<Outcome> =>
  Effect.gen(function*() {
    const latencyMillis = setting.latencyMillis ?? 150
    const offset = setting.offsetMillis ?? 0
    const limiterOf = (limit: number) => RateLimit.make({ limit, window: "1 second", shape: setting.shape })
    let limiter = limiterOf(setting.serviceLimit)
    let raised = false
    const seen: Array<{ at: number; accepted: boolean }> = []
    const page = yield* TestPipeline.make((at) => {
      if (!raised && setting.raisedTo !== undefined && at >= setting.raisedTo.at * 1000) {
        raised = true
        limiter = limiterOf(setting.raisedTo.limit)
      }
      const outcome = limiter.take("key", at + offset)
      seen.push({ at, accepted: outcome.allowed })
      return outcome.allowed
        ? { status: 200, retryAfter: undefined, body: "[]", latencyMillis }
        : {
          status: 429,
          retryAfter: String(outcome.retryAfterSeconds),
          body: JSON.stringify({ code: 429, msg: "Too many requests." }),
          latencyMillis
        }
    }, {
      budget: setting.budget,
      adaptive: setting.adaptive,
      marginMillis: setting.marginMillis,
      jitterMillis: setting.jitterMillis
    })
    const concurrency = setting.concurrency ?? 4
    // Each stream as the walk bounds it (RetryWait.makeAhead): a caller takes a planned place, then
    // its request a place in flight; at most 5 × concurrency callers.
    const fibers = yield* Effect.forEach(Array.from({ length: setting.streams ?? 1 }), () =>
      Effect.flatMap(RetryWait.makeAhead(concurrency), (ahead) =>
        Effect.forEach(
          Array.from({ length: concurrency === 1 ? 1 : 5 * concurrency }),
          () =>
            fork(Effect.forever(Effect.andThen(ahead.plan, Effects.result(ahead.fetch(page)))))
        ))).pipe(Effect.map((forks) =>
          forks.flat()
        ))
    yield* VirtualClock.adjust(Duration.seconds(setting.seconds))
    yield* Effect.forEach(fibers, Fiber.interrupt)
    return { seen: seen.filter((s) => s.at < setting.seconds * 1000) }
  }).pipe(VirtualClock.run(), Effect.orDie)
