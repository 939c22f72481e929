/**
 * The adaptive request rate (docs/configuration.md, "Adaptive rate"): the configured budget is an
 * upper bound; a refusal (429/418) sets the allowed rate to what the service was measured to accept
 * in one interval before the refused request; the rate holds there a while, then probes beyond it
 * along a convex cubic curve of the time (CUBIC's probing shape): slowly at first, faster and faster,
 * up to the bound. A refusal at a level the service had accepted (requests bunched up on the way)
 * widens the pacing's margin instead, for as long as the rate holds; another while it is widened
 * lowers the level by one. A refusal soon after a cut, the
 * cut rate not accepted since, shows the cut took a burst for a rate (a token bucket's stored tokens,
 * a fixed window's boundary): the level is then what the service sustained. Pure: values in, values out.
 *
 * @since 0.2.0
 */

/**
 * The fixed parameters of one budget. Rates are requests per interval.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 *
 * assert.strictEqual(AdaptiveRate.allowed(settings, AdaptiveRate.initial, 0), 20)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Settings {
  /** The configured budget: the rate never exceeds it. */
  readonly bound: number
  /** The rate never falls below it. */
  readonly min: number
  readonly intervalMillis: number
}

/**
 * What the budget has learnt: the last cut (none yet: `cutAt` is -Infinity) and any pause.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * const state: AdaptiveRate.State = AdaptiveRate.initial
 * assert.strictEqual(state.cutAt, Number.NEGATIVE_INFINITY)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  /** The level the service was measured to accept at the last cut (requests per interval). */
  readonly ceiling: number
  /**
   * The level the last cut set when it took effect: the refusals of requests sent before it may lower
   * the level below, and their acceptances raise it back, never above.
   */
  readonly cutLevel: number
  /**
   * Added to the pacing's margin while the rate holds: set by a refusal at a level the service had
   * accepted (requests bunched up on the way by more than the margin allows for).
   */
  readonly spreadMillis: number
  /** When the last cut took effect (the refusal's answer arrived). */
  readonly cutAt: number
  /** No request may start before this time (a ban's `Retry-After`). */
  readonly pausedUntil: number
  /**
   * The last cut's level is below what the service was seen to accept in one interval, on purpose:
   * the rate it sustained after a burst was taken for a rate, or one less after a refusal at an
   * accepted level with the pacing widened. Acceptances of requests sent before the cut show that
   * count again and raise nothing.
   */
  readonly belowAccepted: boolean
  /**
   * The level was lowered by one (refused at an accepted level with the pacing widened) since the
   * last cut set from evidence: further such refusals widen the pacing only. Refusals unrelated to
   * the rate (another program on the key, a fault) would otherwise walk the level down one by one.
   */
  readonly steppedDown: boolean
}

/**
 * A refusal of one attempt, as the budget sees it.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * assert.strictEqual(AdaptiveRate.refused(settings, AdaptiveRate.initial, refusal).ceiling, 10)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Refusal {
  /** When the refused attempt started. */
  readonly sentAt: number
  /** When its answer arrived. */
  readonly at: number
  /**
   * The attempts that took their slot before the refused one and started in the interval up to it:
   * about what the service accepted in its window before it refused.
   */
  readonly sentBefore: number
  /**
   * The most attempts since the last cut (for an attempt sent before it: since the cut before) the
   * service accepted within one interval: its limit is at least about that, so a refusal after fewer
   * (requests bunched up on the way) does not set it lower.
   */
  readonly acceptedMost: number
  /**
   * What the service accepted since the client became busy (the first attempt after a full interval
   * without one) over that time plus one interval, per interval: the most any of the three limiter
   * shapes can sustain is at least this (a burst allowance of one interval's worth), and a token bucket
   * emptied by a client sending faster than it refills sustains exactly this
   * (docs/configuration.md, "Adaptive rate").
   */
  readonly sustained: number
  /**
   * The attempts the service accepted that started in the interval before the refused one: a fixed
   * window straddled by the cut's interval has accepted its limit in it by the next refusal.
   */
  readonly acceptedBefore: number
  /** Pause every request for this long after `at` (0: no pause). */
  readonly pauseMillis: number
}

/**
 * Intervals the rate holds at the level of the last cut (from the cut) before it probes beyond it.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.holdIntervals, 30)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const holdIntervals = 30

/**
 * Intervals of probing after the hold until the rate is twice the level of the cut.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.doubleIntervals, 20)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const doubleIntervals = 20

/**
 * Intervals after a cut within which a refusal shows the cut level was a burst, not a rate.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.soonIntervals, 3)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const soonIntervals = 3

/**
 * The state before any refusal: the rate is the bound.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.adapting({ bound: 20, min: 1, intervalMillis: 1000 }, AdaptiveRate.initial, 0), false)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const initial: State = {
  ceiling: Number.POSITIVE_INFINITY,
  cutLevel: Number.POSITIVE_INFINITY,
  spreadMillis: 0,
  belowAccepted: false,
  steppedDown: false,
  cutAt: Number.NEGATIVE_INFINITY,
  pausedUntil: 0
}

/**
 * The allowed rate at `now` (requests per interval, `min`..`bound`). With `t` the intervals since the
 * cut, `H = holdIntervals` and `D = doubleIntervals`: `ceiling` until `H`, then
 * `ceiling (1 + ((t − H) / D)³)`: 5 % above the ceiling `0.37 D` after the hold, twice it `D` after.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * const cut = AdaptiveRate.refused(settings, AdaptiveRate.initial, refusal)
 * // Held at the level of the cut for 30 intervals, then probing beyond it, twice it 20 intervals later.
 * assert.strictEqual(AdaptiveRate.allowed(settings, cut, 5_050 + 29_000), 10)
 * assert.strictEqual(AdaptiveRate.allowed(settings, cut, 5_050 + 50_000), 20)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const allowed = (settings: Settings, state: State, now: number): number => {
  if (state.cutAt === Number.NEGATIVE_INFINITY) return settings.bound
  const t = Math.max(0, now - state.cutAt) / settings.intervalMillis
  const d = Math.max(0, t - holdIntervals) / doubleIntervals
  return Math.min(settings.bound, Math.max(settings.min, state.ceiling * (1 + d * d * d)))
}

/**
 * What a refusal at a level the service had accepted adds to the pacing's margin: 2.5 % of the interval.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.spreadStep * 1000, 25)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const spreadStep = 1 / 40

/**
 * The pacing's margin is widened by at most this share of the interval.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 *
 * assert.strictEqual(AdaptiveRate.spreadMost * 1000, 250)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const spreadMost = 1 / 4

/**
 * Milliseconds added to the pacing's margin at `now`: the spread of the last cut while the rate holds.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 *
 * assert.strictEqual(AdaptiveRate.spread(settings, AdaptiveRate.initial, 0), 0)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const spread = (settings: Settings, state: State, now: number): number =>
  now - state.cutAt < holdIntervals * settings.intervalMillis ? state.spreadMillis : 0

/**
 * Whether an attempt that started at `sentAt` was sent before the last cut took effect, at the old
 * rate. Times are whole milliseconds: an attempt that starts in the millisecond the refusal arrives
 * took its slot at the old rate (a slot reserved for that instant is not withdrawn, and a caller
 * served before the refusal is counted takes one), so it belongs to the cut too.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * const cut = AdaptiveRate.refused(settings, AdaptiveRate.initial, refusal)
 * assert.strictEqual(AdaptiveRate.sentBeforeCut(cut, 5_050), true)
 * assert.strictEqual(AdaptiveRate.sentBeforeCut(cut, 5_051), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const sentBeforeCut = (state: State, sentAt: number): boolean => sentAt <= state.cutAt

/**
 * The state after a refusal. A refusal of an attempt sent before the last cut took effect (`sentBeforeCut`)
 * belongs to that cut (it was sent at the old rate, into the same window of the service): it cuts
 * nothing again, but may lower the level to its own evidence (`sentBefore`, or `acceptedMost` if
 * larger), since refusals of one burst arrive in any order and the first attempt refused says the
 * most; its pause still counts. Otherwise, with `n` = ⌈the rate allowed when it was sent⌉ (the most
 * the budget lets start in one interval), the new level is the larger of
 * - the attempts that took their slot before it in the interval up to it (`sentBefore`), at most
 *   `n − 1`: the service refused the next one, so its limit is about that many; with a budget far
 *   above the service's limit this is the rate actually sent, not the budget;
 * - the most the service accepted within one interval since the last cut (`acceptedMost`), at most
 *   `n`: its limit is at least that, so a refusal of a request bunched up with others on the way does
 *   not lower the level below one the service did accept (the pacing widens instead, `spread`;
 *   refused so again with the pacing widened, the level is one less).
 * Without evidence of `n` accepted in one interval the level is below the rate sent, so refusals at
 * one rate keep lowering it until the service accepts it.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * const cut = AdaptiveRate.refused(settings, AdaptiveRate.initial, refusal)
 * assert.strictEqual(cut.ceiling, 10)
 * assert.strictEqual(cut.cutAt, 5_050)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const refused = (settings: Settings, state: State, refusal: Refusal): State => {
  const pausedUntil = refusal.pauseMillis > 0
    ? Math.max(state.pausedUntil, refusal.at + refusal.pauseMillis)
    : state.pausedUntil
  if (sentBeforeCut(state, refusal.sentAt)) {
    const lower = Math.max(settings.min, Math.min(state.ceiling, Math.max(refusal.sentBefore, refusal.acceptedMost)))
    return pausedUntil === state.pausedUntil && lower === state.ceiling
      ? state
      : { ...state, ceiling: lower, pausedUntil }
  }
  const n = Math.ceil(allowed(settings, state, refusal.sentAt))
  // A refusal soon after a cut, of an attempt sent at the cut rate (the interval before it held about
  // that many starts), the service having accepted less than that rate in every interval since: the level the cut took from one interval's count was a
  // burst the service let through, not its rate (a token bucket's stored tokens, or a fixed window's
  // worth on each side of its boundary). The level is what it sustained since the client became busy
  // (a token bucket's rate), or the requests it accepted in the interval before this refusal (a fixed
  // window's limit), whichever is more.
  const soon = refusal.sentAt - state.cutAt < soonIntervals * settings.intervalMillis &&
    refusal.acceptedMost < n && refusal.sentBefore >= n - 1
  // A probe refused (sent above the level of the last cut, as the rate grew): the level goes back to
  // the one it grew from, or to the count before the refusal if more; what the service accepted in one
  // interval meanwhile counts a fixed window's boundary or bunching, as the refusal shows.
  const probe = !soon && n > state.ceiling
  const level = soon
    ? Math.min(n - 1, Math.max(settings.min, Math.round(refusal.sustained), refusal.acceptedBefore))
    : probe
    ? Math.max(state.ceiling, Math.min(refusal.sentBefore, n - 1))
    : Math.max(Math.min(refusal.sentBefore, n - 1), Math.min(refusal.acceptedMost, n))
  // Refused at a level the service accepted: the requests reached it closer together than they
  // started here by more than the margin allows for; the level stands and the pacing widens. Refused
  // there again with the pacing widened, the level was not the service's rate (a fixed window takes
  // more across its boundary than in one window; requests bunched on the way put more in one): one less.
  const held = spread(settings, state, refusal.at)
  const atAccepted = !soon && !probe && refusal.acceptedMost >= n
  const oneLess = atAccepted && held > 0 && !state.steppedDown
  const ceiling = Math.max(settings.min, Math.min(settings.bound, oneLess ? n - 1 : level))
  // One less, the pacing's margin is back to the configured one (the level was the excess); after
  // that, refusals at the level widen it step by step, up to a quarter of the interval.
  const spreadMillis = oneLess
    ? 0
    : atAccepted
    ? Math.min(spreadMost * settings.intervalMillis, held + spreadStep * settings.intervalMillis)
    : held
  return {
    ceiling,
    cutLevel: ceiling,
    spreadMillis,
    cutAt: refusal.at,
    pausedUntil,
    belowAccepted: soon || oneLess,
    steppedDown: atAccepted && (state.steppedDown || oneLess)
  }
}

/**
 * The state after the service accepted an attempt sent before the last cut (its answer came after
 * the refusal that made the cut), `acceptedMost` being the most it accepted within one interval since
 * the cut before: the level is at least that, up to the level the cut set. The answers of attempts
 * sent together arrive in any order, so a refusal of a later one may be counted, and lower the level,
 * before the acceptances that show the service's window held more. Never above the cut's level: the
 * service refused after that many, and one interval's count beyond it is a fixed window's boundary.
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * const cut = AdaptiveRate.refused(settings, AdaptiveRate.initial, { ...refusal, sentBefore: 10, acceptedMost: 0 })
 * // Answers of attempts sent before the cut show the service accepted 12 in one interval: at most the cut's level.
 * assert.strictEqual(AdaptiveRate.accepted(settings, cut, 12).ceiling, cut.cutLevel)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const accepted = (settings: Settings, state: State, acceptedMost: number): State => {
  const ceiling = Math.min(settings.bound, acceptedMost, state.cutLevel)
  return ceiling > state.ceiling && state.cutAt !== Number.NEGATIVE_INFINITY && !state.belowAccepted
    ? { ...state, ceiling }
    : state
}

/**
 * True while the rate is below the bound (it changes with time until it is back).
 *
 * @example
 * ```ts
 * import * as AdaptiveRate from "@broker-history/core/budget/AdaptiveRate"
 * const settings: AdaptiveRate.Settings = { bound: 20, min: 1, intervalMillis: 1000 }
 * const refusal: AdaptiveRate.Refusal = {
 *   sentAt: 5_000,
 *   at: 5_050,
 *   sentBefore: 10,
 *   acceptedMost: 10,
 *   sustained: 10,
 *   acceptedBefore: 10,
 *   pauseMillis: 0
 * }
 *
 * const cut = AdaptiveRate.refused(settings, AdaptiveRate.initial, refusal)
 * assert.strictEqual(AdaptiveRate.adapting(settings, cut, 6_000), true)
 * assert.strictEqual(AdaptiveRate.adapting(settings, cut, 100_000), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const adapting = (settings: Settings, state: State, now: number): boolean =>
  allowed(settings, state, now) < settings.bound
