/**
 * The request budget of one layer, shared by every call and stream through it: a sliding window
 * whose rate adapts to the service's refusals (`AdaptiveRate`) when `rateLimit.adaptive` is on, and
 * a gauge of the rate it allows now; at debug level a log line for each refusal it counts (the
 * evidence and the level before and after) and each raise of the level by an acceptance.
 *
 * @internal
 */
import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Semaphore from "effect/Semaphore"
import type { Settings } from "../../BrokerConfig.js"
import type { RateLimited } from "../../BrokerError.js"
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
 * Starts closer together than this are not spread: at such rates (over 200 per second) the network's
 * own jitter spreads them as much, and a schedule would only add waits.
 */
const evenFromMillis = 5

/** Slots missed by late callers that the even pace lets them make up. */
const catchUpSlots = 3

/** Reservations ahead of now the adaptive window keeps room for besides its evidence. */
const reservationsAhead = 4096

/**
 * At most this many requests on their way at the start of a busy period, until a refusal: the first
 * crossing of an unknown limit costs about the requests on their way, not the budget's rate × the
 * round trip (docs/configuration.md, "Discovery").
 */
export const discoveryInFlight = 4

/**
 * The bound on requests on their way doubles after this many intervals without a refusal: any fixed
 * window the service counts in lies whole within two, so a rate above its limit meets a refusal
 * before the bound grows.
 */
const doublingIntervals = 2

/**
 * The budget of `rateLimit`; `gauge` is set to the allowed rate in requests per second whenever it
 * changes. `onTheirWayAtFirst` bounds the requests on their way at the start (default
 * `discoveryInFlight`; tests lift it to script a crossing with many on their way).
 */
export const make = (
  rateLimit: Settings["rateLimit"],
  gauge: Metric.Gauge<number>,
  onTheirWayAtFirst: number = discoveryInFlight
): Effect.Effect<Budget> =>
  Effect.gen(function*() {
    const intervalMillis = Duration.toMillis(rateLimit.interval)
    const marginMillis = Duration.toMillis(rateLimit.margin)
    const spanMillis = intervalMillis + marginMillis
    // The margin is what the budget allows for requests reaching the service closer together or
    // further apart than they started here: what the service accepted, as evidence against a
    // refusal, is counted over the interval less the margin (a count its own window held); what it
    // had seen when it refused over the interval plus the margin (docs/configuration.md).
    const acceptedSpanMillis = Math.max(intervalMillis / 2, intervalMillis - marginMillis)
    const settings: AdaptiveRate.Settings = { bound: rateLimit.limit, min: 1, intervalMillis }
    // Adapting, twice the bound and room for the callers waiting with slots reserved ahead (spread
    // evenly, many streams reserve far ahead): the evidence of a refusal looks back over more than
    // one interval, and a reservation overwrites the oldest start the window remembers.
    const window = yield* SlidingWindow.makeWindow(
      rateLimit.adaptive ? 2 * rateLimit.limit + reservationsAhead : rateLimit.limit
    )
    const perSecond = (rate: number) => rate * 1000 / intervalMillis
    yield* Metric.update(gauge, perSecond(settings.bound))
    if (!rateLimit.adaptive) {
      const pace: SlidingWindow.Pace = { count: settings.bound, spanMillis, notBefore: 0, gapMillis: 0, catchUp: 0 }
      const fixed = () => pace
      const take = window.take(fixed)
      return { attempt: (use) => Effect.flatMap(take, use), accepted: () => {}, refused: () => Effect.void }
    }

    let state = AdaptiveRate.initial
    // When the cut before the last took effect: the evidence for a refusal of an attempt sent before
    // the last cut is what was accepted since then.
    let cutBefore = Number.NEGATIVE_INFINITY
    let reported = settings.bound
    // A rate of r requests per interval, r not whole: at most ⌈r⌉ starts in ⌈r⌉/r of the span, which
    // averages r and never puts more than ⌈r⌉ (≤ the service's limit when r is) in one span.
    // Starts are spread evenly over the span: a burst would put more requests on the way when the
    // service starts refusing, and each of them is refused too; a caller late for its slot (a stream
    // busy elsewhere) may make up a few (docs/configuration.md).
    const pace = (now: number): SlidingWindow.Pace => {
      const rate = AdaptiveRate.allowed(settings, state, now)
      const count = Math.ceil(rate)
      const span = (spanMillis + AdaptiveRate.spread(settings, state, now)) * count / rate
      return {
        count,
        spanMillis: span,
        notBefore: state.pausedUntil,
        gapMillis: span / count >= evenFromMillis ? span / count : 0,
        catchUp: catchUpSlots
      }
    }
    const report = (now: number): Effect.Effect<void> => {
      const rate = AdaptiveRate.allowed(settings, state, now)
      if (rate === reported) return Effect.void
      reported = rate
      return Metric.update(gauge, perSecond(rate))
    }
    // Raises of the level by acceptances (counted synchronously), logged by the next take or refusal.
    const raised: Array<{ sentAt: number; acceptedMost: number; levelBefore: number; level: number }> = []
    const flush = Effect.suspend(() =>
      raised.length === 0 ? Effect.void : Effect.forEach(
        raised.splice(0),
        (raise) => Effect.logDebug("broker rate limit raised").pipe(Effect.annotateLogs(raise)),
        { discard: true }
      )
    )
    // The busy period: from the first attempt after a full interval without one (a limiter is then as
    // full as it gets: a token bucket refilled, a window emptied), and what the service accepted since.
    let busyFrom = Number.NEGATIVE_INFINITY
    let lastStart = Number.NEGATIVE_INFINITY
    let acceptedSinceBusy = 0
    const take = Effect.flatMap(
      window.take(pace),
      (start) => {
        if (start.at - lastStart >= intervalMillis) {
          busyFrom = start.at
          acceptedSinceBusy = 0
        }
        lastStart = Math.max(lastStart, start.at)
        return raised.length > 0
          ? Effect.as(Effect.andThen(flush, report(start.at)), start)
          : reported === settings.bound
          ? Effect.succeed(start)
          : Effect.as(report(start.at), start)
      }
    )
    // The bound on requests on their way (docs/configuration.md, "Discovery"): `onTheirWayAtFirst` at
    // the start of a busy period, twice as many after every `doublingIntervals` of it. A refusal keeps
    // the bound it met, doubling again after as long without one, and from then on a pause does not
    // start it again (the level rules the rate); once it exceeds the budget after a refusal, no bound.
    let learned = false
    let open = rateLimit.limit <= onTheirWayAtFirst
    let boundAtRefusal = onTheirWayAtFirst
    let refusedAt = Number.NEGATIVE_INFINITY
    let places = onTheirWayAtFirst
    const onTheirWay = yield* Semaphore.make(places)
    const boundAt = (now: number) => {
      const since = learned ? refusedAt : now - lastStart >= intervalMillis ? now : busyFrom
      const doublings = Math.floor((now - since) / (doublingIntervals * intervalMillis))
      return (learned ? boundAtRefusal : onTheirWayAtFirst) * 2 ** Math.min(30, doublings)
    }
    const attempt = <A, E, R>(use: (start: Start) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      open ? Effect.flatMap(take, use) : Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const bound = boundAt(now)
        if (bound > settings.bound) {
          open = learned
          return Effect.flatMap(take, use)
        }
        const resized = bound === places ? Effect.void : Effect.suspend(() => {
          places = bound
          return Semaphore.resize(onTheirWay, bound)
        })
        return Effect.andThen(resized, Semaphore.withPermits(onTheirWay, 1, Effect.flatMap(take, use)))
      })
    const refused = (start: SlidingWindow.Start, at: number, error: RateLimited): Effect.Effect<void> =>
      Effect.suspend(() => {
        window.answered(start, false)
        if (!open) {
          boundAtRefusal = Math.min(boundAt(at), settings.bound)
          refusedAt = at
          learned = true
        }
        const before = state
        const evidence = {
          sentBefore: window.startedBefore(start, spanMillis),
          acceptedMost: window.mostAccepted(
            AdaptiveRate.sentBeforeCut(state, start.at) ? cutBefore : state.cutAt,
            acceptedSpanMillis
          ),
          acceptedBefore: window.acceptedWithin(start.at - intervalMillis, start.at),
          sustained: start.at >= busyFrom
            ? acceptedSinceBusy * intervalMillis / (start.at - busyFrom + intervalMillis)
            : 0
        }
        state = AdaptiveRate.refused(settings, state, {
          sentAt: start.at,
          at,
          ...evidence,
          // A ban (418) refuses every request until it ends; after a 429 only the refused request
          // waits for `Retry-After`, and the cut rate holds the other streams back (docs/configuration.md).
          // A ban longer than `retry.maxRetryAfter` pauses nothing: each request meets it and fails at once.
          pauseMillis: error.status === 418 && error.maxRetryAfterMillis === undefined ? error.retryAfterMillis : 0
        })
        if (state.cutAt !== before.cutAt) cutBefore = before.cutAt
        const logged = Effect.logDebug("broker rate limit refused").pipe(
          Effect.annotateLogs({
            sentAt: start.at,
            at,
            sentBefore: evidence.sentBefore,
            acceptedMost: evidence.acceptedMost,
            levelBefore: before.ceiling,
            level: state.ceiling,
            allowedBefore: AdaptiveRate.allowed(settings, before, start.at),
            allowed: AdaptiveRate.allowed(settings, state, at),
            spreadMillis: state.spreadMillis,
            cut: state.cutAt !== before.cutAt
          })
        )
        // Slots reserved at the old rate and not yet started would be refused too: their callers
        // take them again at the new rate (or after the pause).
        if (
          state.pausedUntil > before.pausedUntil ||
          AdaptiveRate.allowed(settings, state, at) < AdaptiveRate.allowed(settings, before, at)
        ) window.withdraw(at)
        return Effect.andThen(Effect.andThen(flush, logged), report(at))
      })
    const accepted = (start: Start) => {
      window.answered(start, true)
      if (start.at >= busyFrom) acceptedSinceBusy++
      // An attempt sent before the last cut and accepted after it: the service took it in the window
      // the cut was measured in, so the level is at least what it accepted there (counted as the
      // refusal's `acceptedMost` is, over the interval less the margin: a count its own window held).
      if (AdaptiveRate.sentBeforeCut(state, start.at)) {
        const acceptedMost = window.mostAccepted(cutBefore, acceptedSpanMillis)
        const before = state
        state = AdaptiveRate.accepted(settings, state, acceptedMost)
        if (state !== before) {
          raised.push({ sentAt: start.at, acceptedMost, levelBefore: before.ceiling, level: state.ceiling })
        }
      }
    }
    return { attempt, accepted, refused }
  })
