/**
 * When each of many followed streams is polled next: a value per stream (the time its next poll is
 * due, its backoff level, whether a poll is in flight) and two events. `polled` records how a poll
 * went: a poll that found records makes the next one due `minInterval` later, a quiet one doubles the
 * interval, up to `maxInterval`. `pick` chooses the streams to poll now: those due, earliest due
 * first (ties: the one picked longest ago, at first the caller's order), at most as many as there
 * are free slots.
 *
 * Earliest due first is earliest deadline first with each stream's due time as its deadline: when
 * the budget serves every poll wanted, every stream is polled when due, so none waits longer than
 * `maxInterval`; when it does not, every stream is late by about the same time, so a busy stream
 * is still polled about `maxInterval / minInterval` times as often as a quiet one (quiet streams
 * given absolute priority would take the whole of a budget that merely falls short of them).
 *
 * A schedule is a value: `polled` and `pick` return a new one.
 *
 * @since 0.2.0
 */

/**
 * The schedule's fixed parameters.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * assert.strictEqual(PollSchedule.interval(settings, 10), 8000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Settings {
  /** The interval after a poll that found records (ms). */
  readonly minInterval: number
  /** The longest interval (ms): a quiet stream backs off to it and never waits longer. */
  readonly maxInterval: number
  /** Polls in flight at most. */
  readonly slots: number
}

/**
 * One stream's place in the schedule.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * const entry: PollSchedule.Entry = PollSchedule.make(1, settings, 0).entries[0]!
 * assert.deepStrictEqual(entry, { due: 0, level: 3, polling: false, turn: -1 })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Entry {
  /** When the next poll is due: the last poll + the interval of `level` (at first, the start). */
  readonly due: number
  /** Quiet polls since the last one that found records: the interval is `minInterval · 2^level`. */
  readonly level: number
  /** A poll is in flight. */
  readonly polling: boolean
  /** When it was last picked, counted in picks: breaks ties, so that streams alike take turns. */
  readonly turn: number
}

/**
 * The schedule of every stream: their entries, the polls in flight and the turn of the next pick.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * const schedule: PollSchedule.Schedule = PollSchedule.make(3, settings, 0)
 * assert.strictEqual(schedule.entries.length, 3)
 * assert.strictEqual(schedule.inFlight, 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Schedule {
  readonly settings: Settings
  readonly entries: ReadonlyArray<Entry>
  readonly inFlight: number
  /** The turn of the next stream picked. */
  readonly nextTurn: number
}

/**
 * The interval after `level` quiet polls: `minInterval` doubled `level` times, at most `maxInterval`.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * assert.deepStrictEqual([0, 1, 2, 3, 4].map((level) => PollSchedule.interval(settings, level)), [1000, 2000, 4000, 8000, 8000])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const interval = (settings: Settings, level: number): number =>
  Math.min(settings.maxInterval, settings.minInterval * 2 ** level)

/**
 * The level whose interval is `maxInterval`: a stream that never found records stays there.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * assert.strictEqual(PollSchedule.quietLevel(settings), 3)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const quietLevel = (settings: Settings): number => {
  let level = 0
  while (interval(settings, level) < settings.maxInterval) level++
  return level
}

/**
 * `count` streams, all due at `now` (each is read once before anything is known of it).
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * assert.strictEqual(PollSchedule.nextDue(PollSchedule.make(2, settings, 500)), 500)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (count: number, settings: Settings, now: number): Schedule => {
  const level = quietLevel(settings)
  const entries = Array.from({ length: count }, (_, i): Entry => ({
    due: now,
    level,
    polling: false,
    turn: i - count
  }))
  return { settings, entries, inFlight: 0, nextTurn: 0 }
}

/**
 * Stream `stream`'s poll ended at `now` having found `found` records: back to `minInterval` when it
 * found any, else one level quieter.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * const [picked] = PollSchedule.pick(PollSchedule.make(1, settings, 0), 0)
 * // The poll found records: the next one is due a minimum interval later.
 * assert.strictEqual(PollSchedule.nextDue(PollSchedule.polled(picked, 0, 5, 200)), 1200)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const polled = (schedule: Schedule, stream: number, found: number, now: number): Schedule => {
  const { settings } = schedule
  const before = schedule.entries[stream]!
  const level = found > 0 ? 0 : Math.min(before.level + 1, quietLevel(settings))
  const entries = schedule.entries.slice()
  entries[stream] = {
    due: now + interval(settings, level),
    level,
    polling: false,
    turn: before.turn
  }
  return { ...schedule, entries, inFlight: schedule.inFlight - (before.polling ? 1 : 0) }
}

/** `a` goes before `b`: earliest due, then the one picked longest ago. */
const before = (entries: ReadonlyArray<Entry>, a: number, b: number): boolean => {
  const x = entries[a]!
  const y = entries[b]!
  return x.due !== y.due ? x.due < y.due : x.turn < y.turn
}

/**
 * The streams to poll at `now` (due, not in flight), in priority order, as many as free slots allow;
 * they are marked in flight in the schedule returned.
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * const [schedule, streams] = PollSchedule.pick(PollSchedule.make(3, settings, 0), 0)
 * // One slot: the first stream; the others wait for it.
 * assert.deepStrictEqual(streams, [0])
 * assert.deepStrictEqual(PollSchedule.pick(schedule, 0)[1], [])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const pick = (schedule: Schedule, now: number): readonly [Schedule, ReadonlyArray<number>] => {
  const free = schedule.settings.slots - schedule.inFlight
  if (free <= 0) return [schedule, []]
  // The `free` best of the due streams, kept sorted: one pass over the streams, `free` is small.
  const best: Array<number> = []
  schedule.entries.forEach((entry, i) => {
    if (entry.polling || entry.due > now) return
    if (best.length === free && !before(schedule.entries, i, best[best.length - 1]!)) return
    let at = best.length
    while (at > 0 && before(schedule.entries, i, best[at - 1]!)) at--
    best.splice(at, 0, i)
    if (best.length > free) best.pop()
  })
  if (best.length === 0) return [schedule, []]
  const entries = schedule.entries.slice()
  best.forEach((i, n) => {
    entries[i] = { ...entries[i]!, polling: true, turn: schedule.nextTurn + n }
  })
  return [{
    settings: schedule.settings,
    entries,
    inFlight: schedule.inFlight + best.length,
    nextTurn: schedule.nextTurn + best.length
  }, best]
}

/**
 * The earliest due time of a stream not in flight (undefined when every stream is in flight).
 *
 * @example
 * ```ts
 * import * as PollSchedule from "@broker-history/core/follow/PollSchedule"
 * const settings: PollSchedule.Settings = { minInterval: 1000, maxInterval: 8000, slots: 1 }
 *
 * const [schedule] = PollSchedule.pick(PollSchedule.make(1, settings, 0), 0)
 * assert.strictEqual(PollSchedule.nextDue(schedule), undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const nextDue = (schedule: Schedule): number | undefined => {
  let next: number | undefined
  for (const entry of schedule.entries) {
    if (!entry.polling && (next === undefined || entry.due < next)) next = entry.due
  }
  return next
}
