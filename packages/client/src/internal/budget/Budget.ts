/**
 * The request budget of one layer, shared by every call and stream through it: a sliding window
 * whose rate adapts to the service's refusals (`AdaptiveRate`) when `rateLimit.adaptive` is on, and
 * a gauge of the rate it allows now; at debug level a log line for each refusal it counts (the
 * evidence and the level before and after) and each raise of the level by an acceptance. The
 * bookkeeping is core's (`@broker-history/core/budget/Budget`); this runs it on the Effect clock,
 * holds its bound on requests on their way with a semaphore, and logs and reports what it says.
 *
 * @internal
 */
import * as Books from "@broker-history/core/budget/Budget"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Settings } from "../../BrokerConfig.js"
import type { RateLimited } from "../../BrokerError.js"
import * as Effects from "../line/Effects.js"
import * as Metrics from "../line/Metrics.js"
import * as SlidingWindow from "./SlidingWindow.js"

/** An attempt's slot in the budget. */
export type Start = SlidingWindow.Start

export interface Budget {
  /**
   * Runs one attempt: waits for its slot (and, while the budget discovers the service's limit, for a
   * place among the requests on their way), then `use` with when it started and how long it waited.
   */
  readonly attempt: <A, E, R>(use: (start: Start) => Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The service answered the attempt that took `start` with anything but a refusal (synchronous). */
  readonly accepted: (start: Start) => void
  /** The attempt that took `start` was refused; its answer arrived at `at`. */
  readonly refused: (start: SlidingWindow.Start, at: number, error: RateLimited) => Effect.Effect<void>
}

/**
 * At most this many requests on their way at the start of a busy period, until a refusal (see core's
 * `discoveryInFlight`).
 */
export const discoveryInFlight = Books.discoveryInFlight

/**
 * The budget of `rateLimit`; `gauge` is set to the allowed rate in requests per second whenever it
 * changes. `onTheirWayAtFirst` bounds the requests on their way at the start (default
 * `discoveryInFlight`; tests lift it to script a crossing with many on their way).
 */
export const make = (
  rateLimit: Settings["rateLimit"],
  gauge: Metrics.Gauge,
  onTheirWayAtFirst: number = discoveryInFlight
): Effect.Effect<Budget> =>
  Effect.gen(function*() {
    const books = Books.make({
      limit: rateLimit.limit,
      intervalMillis: Duration.toMillis(rateLimit.interval),
      marginMillis: Duration.toMillis(rateLimit.margin),
      adaptive: rateLimit.adaptive
    }, onTheirWayAtFirst)
    yield* Metrics.set(gauge, books.perSecond)
    // What the books say after a start or a refusal: their log lines, then the rate allowed now. Most
    // starts bring neither, and then cost no step here.
    const tell = (news: Books.News): Effect.Effect<void> | undefined => {
      if (news.notes.length === 0 && news.perSecond === undefined) return undefined
      const rate = news.perSecond === undefined ? Effect.void : Metrics.set(gauge, news.perSecond)
      return news.notes.length === 0 ? rate : Effect.andThen(
        Effect.forEach(news.notes, (note) =>
          Effect.logDebug(note.message).pipe(Effect.annotateLogs({ ...note.annotations })), {
          discard: true
        }),
        rate
      )
    }
    const started = Effect.flatMap(SlidingWindow.take(books.window, books.pace), (start) => {
      const told = tell(books.started(start))
      return told === undefined ? Effect.succeed(start) : Effect.as(told, start)
    })
    const onTheirWay = yield* Effects.makeSemaphore(onTheirWayAtFirst)
    const attempt = <A, E, R>(use: (start: Start) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      books.open() ? Effect.flatMap(started, use) : Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const gate = books.gate(now)
        if (gate._tag === "Open") {
          return Effect.flatMap(started, use)
        }
        const run = Effects.withPermits(onTheirWay, 1, Effect.flatMap(started, use))
        return gate.resize ? Effect.andThen(Effects.resize(onTheirWay, gate.places), run) : run
      })
    const refused = (start: SlidingWindow.Start, at: number, error: RateLimited): Effect.Effect<void> =>
      Effect.suspend(() =>
        tell(books.refused(start, at, error)) ?? Effect.void
      )
    return { attempt, accepted: books.accepted, refused }
  })
