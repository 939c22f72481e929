/**
 * The bookkeeping of one request budget (docs/configuration.md, "Adaptive rate" and "Discovery"):
 * the sliding window of attempts (`SlidingWindow`), the pace it spreads them at under the adaptive
 * rate (`AdaptiveRate`), the busy period, the bound on requests on their way while the service's limit
 * is unknown, and what a refusal or an acceptance teaches it. Every method takes the time as an
 * argument and returns what to do: each line's client runs it on its own clock, sleeps in the
 * window, holds the bound with its semaphore, and logs and reports what the books say.
 *
 * @since 0.2.0
 */
import * as AdaptiveRate from "./AdaptiveRate.js"
import * as SlidingWindow from "./SlidingWindow.js"

/**
 * The budget's settings: at most `limit` requests per `intervalMillis`, spaced by `marginMillis`
 * more, and whether the rate adapts to the service's refusals.
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const mexc: Budget.Limit = { limit: 20, intervalMillis: 1000, marginMillis: 25, adaptive: true }
 * assert.strictEqual(mexc.limit, 20)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Limit {
  readonly limit: number
  readonly intervalMillis: number
  readonly marginMillis: number
  readonly adaptive: boolean
}

/**
 * At most this many requests on their way at the start of a busy period, until a refusal: the first
 * crossing of an unknown limit costs about the requests on their way, not the budget's rate × the
 * round trip (docs/configuration.md, "Discovery").
 *
 * @example
 * ```ts
 * import * as Budget from "@broker-history/core/budget/Budget"
 *
 * assert.strictEqual(Budget.discoveryInFlight, 4)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const discoveryInFlight = 4

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
 * The bound on requests on their way doubles after this many intervals without a refusal: any fixed
 * window the service counts in lies whole within two, so a rate above its limit meets a refusal
 * before the bound grows.
 */
const doublingIntervals = 2

/**
 * A raise of the level by an acceptance: the attempt's start, what the service accepted, and the level
 * before and after (logged at debug level).
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const raise: Budget.Raise = { sentAt: 0, acceptedMost: 12, levelBefore: 10, level: 12 }
 * assert.ok(raise.level > raise.levelBefore)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Raise {
  readonly sentAt: number
  readonly acceptedMost: number
  readonly levelBefore: number
  readonly level: number
}

/**
 * What a refusal taught the budget, as its debug log line says it: the evidence (requests sent before
 * the refused one, the most accepted), the level and the allowed rate before and after, the spread of
 * the pacing, and whether it cut the rate.
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const counted: Budget.Counted = {
 *   sentAt: 0, at: 50, sentBefore: 25, acceptedMost: 20, levelBefore: 20, level: 20,
 *   allowedBefore: 20, allowed: 20, spreadMillis: 0, cut: true
 * }
 * assert.strictEqual(counted.cut, true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Counted {
  readonly sentAt: number
  readonly at: number
  readonly sentBefore: number
  readonly acceptedMost: number
  readonly levelBefore: number
  readonly level: number
  readonly allowedBefore: number
  readonly allowed: number
  readonly spreadMillis: number
  readonly cut: boolean
}

/**
 * A line for the debug log: a raise of the level by an acceptance, or a refusal counted.
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const note: Budget.Note = {
 *   message: "broker rate limit raised",
 *   annotations: { sentAt: 0, acceptedMost: 12, levelBefore: 10, level: 12 }
 * }
 * assert.strictEqual(note.annotations.level, 12)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Note =
  | { readonly message: "broker rate limit raised"; readonly annotations: Raise }
  | { readonly message: "broker rate limit refused"; readonly annotations: Counted }

/**
 * What to tell after a slot was taken or a refusal counted: the log lines, in order, then the
 * allowed rate in requests per second when it changed since last told (`undefined`: unchanged).
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const news: Budget.News = { notes: [], perSecond: undefined }
 * assert.strictEqual(news.notes.length, 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface News {
  readonly notes: ReadonlyArray<Note>
  readonly perSecond: number | undefined
}

/**
 * Whether an attempt may go at once (`Open`), or waits for one of `places` on their way, the bound
 * having moved to `places` since it was last held (`resize`).
 *
 * @example
 * ```ts
 * import type * as Budget from "@broker-history/core/budget/Budget"
 *
 * const gate: Budget.Gate = { _tag: "Bounded", places: 4, resize: false }
 * assert.strictEqual(gate._tag, "Bounded")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Gate = { readonly _tag: "Open" } | {
  readonly _tag: "Bounded"
  readonly places: number
  readonly resize: boolean
}

/**
 * The books of one budget (see `make`). They keep their state: one per layer, shared by every call
 * and stream through it.
 *
 * @example
 * ```ts
 * import * as Budget from "@broker-history/core/budget/Budget"
 *
 * const books: Budget.Books = Budget.make({ limit: 20, intervalMillis: 1000, marginMillis: 25, adaptive: false })
 * assert.strictEqual(books.open(), true)
 * assert.strictEqual(books.perSecond, 20)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Books {
  /** The window of attempts: a caller reserves its slot in it under `pace`. */
  readonly window: SlidingWindow.Window
  /** The pace at `now`. */
  readonly pace: (now: number) => SlidingWindow.Pace
  /** The allowed rate at the start, in requests per second. */
  readonly perSecond: number
  /** No bound on requests on their way any more (or never one): attempts need not ask `gate`. */
  readonly open: () => boolean
  /** Whether an attempt at `now` goes at once or waits for a place on the way. */
  readonly gate: (now: number) => Gate
  /** A slot was taken at `start.at`. */
  readonly started: (start: SlidingWindow.Start) => News
  /** The service answered the attempt that took `start` with anything but a refusal. */
  readonly accepted: (start: SlidingWindow.Start) => void
  /**
   * The attempt that took `start` was refused, its answer arriving at `at`: a 429 or a 418
   * (`status`) asking to wait `retryAfterMillis`, failing at once when that is longer than the client
   * waits (`maxRetryAfterMillis` set, as `RateLimited` has it). Nothing to tell when the rate does
   * not adapt.
   */
  readonly refused: (
    start: SlidingWindow.Start,
    at: number,
    refusal: {
      readonly status: number
      readonly retryAfterMillis: number
      readonly maxRetryAfterMillis?: number | undefined
    }
  ) => News
}

const nothingNew: News = { notes: [], perSecond: undefined }

/**
 * The books of a budget of `limit`. `onTheirWayAtFirst` bounds the requests on their way at the
 * start (default `discoveryInFlight`; tests lift it to script a crossing with many on their way).
 * Without `adaptive`, a fixed window: `limit` starts per interval plus margin, no bound, nothing
 * learned.
 *
 * @example
 * ```ts
 * import * as Budget from "@broker-history/core/budget/Budget"
 *
 * const books = Budget.make({ limit: 20, intervalMillis: 1000, marginMillis: 25, adaptive: true })
 * assert.deepStrictEqual(books.gate(0), { _tag: "Bounded", places: 4, resize: false })
 * const start = books.window.reserve(books.pace, 0)
 * assert.strictEqual(start.wait, 0)
 * assert.deepStrictEqual(books.started({ at: start.at, waited: 0, slot: start.slot }), { notes: [], perSecond: undefined })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (limit: Limit, onTheirWayAtFirst: number = discoveryInFlight): Books => {
  const { intervalMillis, marginMillis } = limit
  const spanMillis = intervalMillis + marginMillis
  // The margin is what the budget allows for requests reaching the service closer together or
  // further apart than they started here: what the service accepted, as evidence against a
  // refusal, is counted over the interval less the margin (a count its own window held); what it
  // had seen when it refused over the interval plus the margin (docs/configuration.md).
  const acceptedSpanMillis = Math.max(intervalMillis / 2, intervalMillis - marginMillis)
  const settings: AdaptiveRate.Settings = { bound: limit.limit, min: 1, intervalMillis }
  const perSecond = (rate: number) => rate * 1000 / intervalMillis
  if (!limit.adaptive) {
    const fixed: SlidingWindow.Pace = { count: settings.bound, spanMillis, notBefore: 0, gapMillis: 0, catchUp: 0 }
    return {
      window: SlidingWindow.make(limit.limit),
      pace: () => fixed,
      perSecond: perSecond(settings.bound),
      open: () => true,
      gate: () => ({ _tag: "Open" }),
      started: () => nothingNew,
      accepted: () => {},
      refused: () => nothingNew
    }
  }
  // Twice the bound and room for the callers waiting with slots reserved ahead (spread evenly, many
  // streams reserve far ahead): the evidence of a refusal looks back over more than one interval, and
  // a reservation overwrites the oldest start the window remembers.
  const window = SlidingWindow.make(2 * limit.limit + reservationsAhead)

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
  // The allowed rate per second at `now`, when it changed since last reported.
  const report = (now: number): number | undefined => {
    const rate = AdaptiveRate.allowed(settings, state, now)
    if (rate === reported) return undefined
    reported = rate
    return perSecond(rate)
  }
  // Raises of the level by acceptances (counted as they come), told by the next start or refusal.
  const raised: Array<Note> = []
  // The busy period: from the first attempt after a full interval without one (a limiter is then as
  // full as it gets: a token bucket refilled, a window emptied), and what the service accepted since.
  let busyFrom = Number.NEGATIVE_INFINITY
  let lastStart = Number.NEGATIVE_INFINITY
  let acceptedSinceBusy = 0
  const started = (start: SlidingWindow.Start): News => {
    if (start.at - lastStart >= intervalMillis) {
      busyFrom = start.at
      acceptedSinceBusy = 0
    }
    lastStart = Math.max(lastStart, start.at)
    if (raised.length > 0) return { notes: raised.splice(0), perSecond: report(start.at) }
    return reported === settings.bound ? nothingNew : { notes: [], perSecond: report(start.at) }
  }
  // The bound on requests on their way (docs/configuration.md, "Discovery"): `onTheirWayAtFirst` at
  // the start of a busy period, twice as many after every `doublingIntervals` of it. A refusal keeps
  // the bound it met, doubling again after as long without one, and from then on a pause does not
  // start it again (the level rules the rate); once it exceeds the budget after a refusal, no bound.
  let learned = false
  let open = limit.limit <= onTheirWayAtFirst
  let boundAtRefusal = onTheirWayAtFirst
  let refusedAt = Number.NEGATIVE_INFINITY
  let places = onTheirWayAtFirst
  const boundAt = (now: number) => {
    const since = learned ? refusedAt : now - lastStart >= intervalMillis ? now : busyFrom
    const doublings = Math.floor((now - since) / (doublingIntervals * intervalMillis))
    return (learned ? boundAtRefusal : onTheirWayAtFirst) * 2 ** Math.min(30, doublings)
  }
  const gate = (now: number): Gate => {
    if (open) return { _tag: "Open" }
    const bound = boundAt(now)
    if (bound > settings.bound) {
      open = learned
      return { _tag: "Open" }
    }
    const resize = bound !== places
    places = bound
    return { _tag: "Bounded", places, resize }
  }
  const refused: Books["refused"] = (start, at, refusal) => {
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
      pauseMillis: refusal.status === 418 && refusal.maxRetryAfterMillis === undefined ? refusal.retryAfterMillis : 0
    })
    if (state.cutAt !== before.cutAt) cutBefore = before.cutAt
    const counted: Counted = {
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
    }
    // Slots reserved at the old rate and not yet started would be refused too: their callers take
    // them again at the new rate (or after the pause).
    if (
      state.pausedUntil > before.pausedUntil ||
      AdaptiveRate.allowed(settings, state, at) < AdaptiveRate.allowed(settings, before, at)
    ) window.withdraw(at)
    return {
      notes: [...raised.splice(0), { message: "broker rate limit refused", annotations: counted }],
      perSecond: report(at)
    }
  }
  const accepted = (start: SlidingWindow.Start) => {
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
        raised.push({
          message: "broker rate limit raised",
          annotations: { sentAt: start.at, acceptedMost, levelBefore: before.ceiling, level: state.ceiling }
        })
      }
    }
  }
  return {
    window,
    pace,
    perSecond: perSecond(settings.bound),
    open: () => open,
    gate,
    started,
    accepted,
    refused
  }
}
