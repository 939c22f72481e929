/**
 * The adaptive request rate (docs/configuration.md, "Adaptive rate"): the configured budget is an
 * upper bound; a refusal (429/418) cuts the allowed rate to a little below what the service was seen
 * to accept in the interval before the refused request; the rate then grows back along a cubic curve
 * of the time since the cut (CUBIC's shape): quickly at first, slowing to the level the service
 * accepted, held there a while, then faster and faster beyond it, up to the bound. Pure: values in,
 * values out.
 *
 * @internal
 */

/** The fixed parameters of one budget. Rates are requests per interval. */
export interface Settings {
  /** The configured budget: the rate never exceeds it. */
  readonly bound: number
  /** The rate never falls below it. */
  readonly min: number
  readonly intervalMillis: number
}

/** What the budget has learnt: the last cut (none yet: `cutAt` is -Infinity) and any pause. */
export interface State {
  /** The rate at which the service last refused (`ceiling` of the cubic curve). */
  readonly ceiling: number
  /** When the last cut took effect (the refusal's answer arrived). */
  readonly cutAt: number
  /** No request may start before this time (a ban's `Retry-After`). */
  readonly pausedUntil: number
}

/** A refusal of one attempt, as the budget sees it. */
export interface Refusal {
  /** When the refused attempt started. */
  readonly sentAt: number
  /** When its answer arrived. */
  readonly at: number
  /**
   * The other attempts started in the interval up to the refused one (the same instant included):
   * about what the service accepted in its window before it refused.
   */
  readonly sentBefore: number
  /**
   * The most attempts since the last cut the service accepted within one interval: its limit is at
   * least about that, so a refusal after fewer (requests bunched up on the way) does not set it lower.
   */
  readonly acceptedMost: number
  /** Pause every request for this long after `at` (0: no pause). */
  readonly pauseMillis: number
}

/** After a cut the rate is this fraction of the level the service refused. */
export const cut = 0.9

/** Intervals the rate takes to grow back from the cut to the level of the refusal. */
export const regrowIntervals = 10

/** Intervals the rate then holds at that level before it probes beyond it. */
export const holdIntervals = 20

/** The state before any refusal: the rate is the bound. */
export const initial: State = { ceiling: Number.POSITIVE_INFINITY, cutAt: Number.NEGATIVE_INFINITY, pausedUntil: 0 }

/**
 * The allowed rate at `now` (requests per interval, `min`..`bound`). With `t` the intervals since the
 * cut, `K = regrowIntervals`, `H = holdIntervals` and `k = (1 − cut) / K³`: `ceiling (1 − k (K − t)³)`
 * while `t < K` (from `cut × ceiling`), `ceiling` until `K + H`, then `ceiling (1 + k (t − K − H)³)`:
 * 5 % above the ceiling `0.8 K` after the hold, twice it `2.2 K` after the hold.
 */
export const allowed = (settings: Settings, state: State, now: number): number => {
  if (state.cutAt === Number.NEGATIVE_INFINITY) return settings.bound
  const t = Math.max(0, now - state.cutAt) / settings.intervalMillis
  const d = t < regrowIntervals ? t - regrowIntervals : Math.max(0, t - regrowIntervals - holdIntervals)
  const rate = state.ceiling * (1 + ((1 - cut) / regrowIntervals ** 3) * d * d * d)
  return Math.min(settings.bound, Math.max(settings.min, rate))
}

/**
 * The state after a refusal. A refusal of an attempt that started before the last cut took effect
 * belongs to that cut (it was sent at the old rate) and cuts nothing again; its pause still counts.
 * Otherwise the ceiling is the lower of the rate allowed when it was sent and what the service was
 * seen to take (the larger of `sentBefore` and `acceptedMost`): with a budget far above the service's
 * limit, the rate actually sent is what the service refused, not the budget.
 */
export const refused = (settings: Settings, state: State, refusal: Refusal): State => {
  const pausedUntil = refusal.pauseMillis > 0
    ? Math.max(state.pausedUntil, refusal.at + refusal.pauseMillis)
    : state.pausedUntil
  if (refusal.sentAt < state.cutAt) {
    return pausedUntil === state.pausedUntil ? state : { ...state, pausedUntil }
  }
  const seen = Math.max(refusal.sentBefore, refusal.acceptedMost)
  const ceiling = Math.max(settings.min, Math.min(allowed(settings, state, refusal.sentAt), seen))
  return { ceiling, cutAt: refusal.at, pausedUntil }
}

/** True while the rate is below the bound (it changes with time until it is back). */
export const adapting = (settings: Settings, state: State, now: number): boolean =>
  allowed(settings, state, now) < settings.bound
