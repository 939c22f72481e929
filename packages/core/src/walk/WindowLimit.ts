/**
 * The widest window an endpoint accepts, learned from the service's answers instead of configured
 * (docs/streams.md, "Window widths"). Pure functions of a `KnownWidths` value:
 *
 * - `classify`: whether a refusal is "window too wide", which narrowing can fix: its message speaks of
 *   the time window and of a size exceeded, and the window was wider than any the service accepted and
 *   than the floor. Any other refusal fails the walk as before.
 * - `refused` / `accepted`: what is known after an answer: the narrowest window refused, the widest
 *   accepted, and a width the refusal named as the maximum, if any.
 * - `widest`: how wide a window may be planned now: unbounded until a refusal; then the width the
 *   refusal named, if any; else halving down from the refused width (never under the floor) until a
 *   window at least as wide as the floor is accepted, then bisecting between the widest accepted and
 *   the narrowest refused until they are within 1/32 of each other; then the widest accepted. So a
 *   refusal costs one request per halving or bisection step, and windows do not settle at half the
 *   real maximum.
 *
 * @since 0.2.0
 */

/**
 * What walks have learned of the widest window (public as `FullHistory.KnownWidths`).
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * const known: WindowLimit.KnownWidths = { accepted: 20 * day, refused: 40 * day, stated: undefined }
 * assert.strictEqual(WindowLimit.widest(known), 30 * day)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface KnownWidths {
  /** The widest window (ms) the service answered; 0 before the first answer. */
  readonly accepted: number
  /** The narrowest window (ms) the service refused as too wide; `Infinity` until it refuses one. */
  readonly refused: number
  /** A width (ms) a refusal's message named as the maximum, not yet tried; `undefined` when none. */
  readonly stated: number | undefined
}

/**
 * The shared, replaceable `KnownWidths` of an endpoint (public as `FullHistory.WindowWidths`).
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 *
 * const widths: WindowLimit.WindowWidths = { current: WindowLimit.unknown }
 * widths.current = WindowLimit.accepted(widths.current, 60_000)
 * assert.strictEqual(widths.current.accepted, 60_000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface WindowWidths {
  current: KnownWidths
}

/**
 * Nothing known yet: no window accepted, none refused.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 *
 * assert.strictEqual(WindowLimit.widest(WindowLimit.unknown), Number.POSITIVE_INFINITY)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const unknown: KnownWidths = { accepted: 0, refused: Number.POSITIVE_INFINITY, stated: undefined }

/**
 * No window is narrowed below one minute because the service refused a wider one: a refusal of a
 * window this narrow fails the walk, naming the setting (a year in windows of a minute is half a
 * million requests; a service that wants that is better told so in the configuration).
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 *
 * assert.strictEqual(WindowLimit.floor, 60_000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const floor = 60_000

/** The bisection stops when the widest accepted and the narrowest refused are this close (a share of the accepted). */
const closeEnough = 1 / 32

/**
 * What a refusal is to the walk.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 *
 * const verdict: WindowLimit.Verdict = WindowLimit.classify(WindowLimit.unknown, 90 * 86_400_000, "time range too large")
 * assert.strictEqual(verdict, "Narrow")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Verdict =
  /** Not about the window's width: the walk fails with it as it is. */
  | "Other"
  /** The window was too wide: narrow it and read the same cursor again. */
  | "Narrow"
  /** Too wide even at the floor: give up, naming the setting. */
  | "Floor"
  /** Refused as too wide, though the service accepted a window at least as wide: it holds no one maximum. */
  | "Inconsistent"

// What the message must speak of: the time window (or its ends), and a size exceeded. "startTime must
// not be after endTime" names the ends but no size; "fromAccountType must be SPOT or FUTURES" neither.
const timeWords = /\b(?:window|time ?range|range|interval|period|span|duration|start ?time|end ?time|days?|hours?)\b/i
const excessWords =
  /\b(?:too (?:large|long|wide|big|many)|exceed\w*|(?:longer|wider|larger|greater|bigger|more) than|maximum|max|limited to)\b|\b(?:less|shorter) than \d/i

/**
 * Whether a refusal's message speaks of the request's time window being too large.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 *
 * assert.strictEqual(WindowLimit.mentionsWindow("The time range exceeds 30 days"), true)
 * assert.strictEqual(WindowLimit.mentionsWindow("startTime must not be after endTime"), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const mentionsWindow = (msg: string): boolean => timeWords.test(msg) && excessWords.test(msg)

/**
 * What a refusal of a window `width` ms wide, with the service's message `msg`, is to the walk:
 * `Narrow` only when the message speaks of the window being too large, the window was wider than any
 * window accepted, and wider than the floor.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * assert.strictEqual(WindowLimit.classify(WindowLimit.unknown, 90 * day, "time range too large"), "Narrow")
 * assert.strictEqual(WindowLimit.classify(WindowLimit.unknown, 90 * day, "Signature invalid"), "Other")
 * assert.strictEqual(WindowLimit.classify(WindowLimit.unknown, 60_000, "time range too large"), "Floor")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const classify = (known: KnownWidths, width: number, msg: string): Verdict =>
  !mentionsWindow(msg) ? "Other" : width <= known.accepted ? "Inconsistent" : width <= floor ? "Floor" : "Narrow"

const units: ReadonlyArray<readonly [RegExp, number]> = [
  [/^(?:ms|millis|milliseconds?)$/i, 1],
  [/^(?:s|secs?|seconds?)$/i, 1_000],
  [/^(?:m|mins?|minutes?)$/i, 60_000],
  [/^(?:h|hrs?|hours?)$/i, 3_600_000],
  [/^(?:d|days?)$/i, 86_400_000]
]
const durations =
  /(\d{1,16}(?:\.\d{1,6})?)\s?(ms|millis|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b/gi

/**
 * The widest of the durations the message names (`2592000000 ms`, `30d`, `7 days`) that lies between
 * the widest window accepted and `below`, and not under the floor: the service's stated maximum, tried
 * before halving. Only a guess: tried like any probe.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * assert.strictEqual(WindowLimit.statedWidth("the window may span at most 30 days", 0, 90 * day), 30 * day)
 * assert.strictEqual(WindowLimit.statedWidth("window too wide", 0, 90 * day), undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const statedWidth = (msg: string, accepted: number, below: number): number | undefined => {
  let best: number | undefined
  for (const match of msg.matchAll(durations)) {
    const unit = units.find(([pattern]) => pattern.test(match[2]!))
    if (unit === undefined) continue
    const width = Math.floor(Number(match[1]) * unit[1])
    if (width > accepted && width < below && width >= floor && (best === undefined || width > best)) best = width
  }
  return best
}

/**
 * What is known after the service refused a window `width` ms wide as too wide (`classify` said `Narrow`).
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * const known = WindowLimit.refused(WindowLimit.unknown, 90 * day, "window longer than 30 days")
 * assert.deepStrictEqual(known, { accepted: 0, refused: 90 * day, stated: 30 * day })
 * assert.strictEqual(WindowLimit.widest(known), 30 * day)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const refused = (known: KnownWidths, width: number, msg: string): KnownWidths => {
  const narrowest = Math.min(known.refused, width)
  const stated = statedWidth(msg, known.accepted, narrowest) ??
    (known.stated !== undefined && known.stated < narrowest ? known.stated : undefined)
  return { accepted: known.accepted, refused: narrowest, stated }
}

/**
 * What is known after the service answered a window `width` ms wide: the same value when that says
 * nothing new (the walk's usual case). A width the service stated, once accepted, is taken as its
 * maximum; an accepted width at least as wide as one refused means the service changed its mind, and
 * the acceptance wins.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * const refused = WindowLimit.refused(WindowLimit.unknown, 90 * day, "window too wide")
 * assert.deepStrictEqual(WindowLimit.accepted(refused, 45 * day), { accepted: 45 * day, refused: 90 * day, stated: undefined })
 * assert.strictEqual(WindowLimit.accepted(refused, 0), refused)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const accepted = (known: KnownWidths, width: number): KnownWidths => {
  if (width <= known.accepted) return known
  if (width >= known.refused || (known.stated !== undefined && width >= known.stated)) {
    return { accepted: width, refused: width + 1, stated: undefined }
  }
  return { accepted: width, refused: known.refused, stated: known.stated }
}

/**
 * Whether the widest accepted and the narrowest refused are close enough to stop probing: within
 * 1/32 of the accepted width, which is at least the floor.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * assert.strictEqual(WindowLimit.settled({ accepted: 30 * day, refused: 30 * day + 1, stated: undefined }), true)
 * assert.strictEqual(WindowLimit.settled({ accepted: 20 * day, refused: 40 * day, stated: undefined }), false)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const settled = (known: KnownWidths): boolean =>
  known.refused !== Number.POSITIVE_INFINITY && known.stated === undefined && known.accepted >= floor &&
  known.refused - known.accepted <= Math.max(1, known.accepted * closeEnough)

/**
 * The widest window to plan now (ms): infinite until the service refuses one as too wide. Until a
 * window as wide as the floor is accepted (windows the density made narrow say nothing of the
 * maximum), half the narrowest refused, never under the floor; then the middle between the widest
 * accepted and the narrowest refused, until they are close enough.
 *
 * @example
 * ```ts
 * import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
 * const day = 86_400_000
 *
 * assert.strictEqual(WindowLimit.widest(WindowLimit.unknown), Number.POSITIVE_INFINITY)
 * // Refused at 90 days, nothing as wide as the floor accepted yet: halving.
 * assert.strictEqual(WindowLimit.widest({ accepted: 0, refused: 90 * day, stated: undefined }), 45 * day)
 * // Between the widest accepted and the narrowest refused: bisecting.
 * assert.strictEqual(WindowLimit.widest({ accepted: 20 * day, refused: 40 * day, stated: undefined }), 30 * day)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const widest = (known: KnownWidths): number => {
  if (known.refused === Number.POSITIVE_INFINITY) return known.refused
  if (known.stated !== undefined) return known.stated
  if (known.accepted < floor) return Math.max(floor, Math.floor(known.refused / 2))
  return settled(known) ? known.accepted : Math.floor((known.accepted + known.refused) / 2)
}
