/**
 * A sliding-window request budget: at most `count` attempts start within any `spanMillis`. Unlike a
 * token bucket (which allows a full burst plus its refills in the first interval), this never
 * exceeds the budget over any window, so a client set to the service's own limit gets no 429s.
 *
 * The window's state and arithmetic, on times in milliseconds the caller reads from its clock: a
 * caller reserves a slot (`reserve`), sleeps until it, and tells the window when it woke (`woke`).
 * The sleeping is the caller's (each line's Effect shell).
 *
 * @since 0.2.0
 */

/**
 * An attempt's slot: when it started, how long it waited for it (ms), and where the window keeps it.
 *
 * @example
 * ```ts
 * import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
 * const pace = (): SlidingWindow.Pace => ({ count: 2, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
 *
 * const window = SlidingWindow.make(4)
 * const reservation = window.reserve(pace, 0)
 * const start: SlidingWindow.Start = { at: reservation.at, waited: 0, slot: reservation.slot }
 * window.answered(start, true)
 * assert.strictEqual(window.acceptedWithin(0, 1), 1)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Start {
  readonly at: number
  readonly waited: number
  readonly slot: number
}

/**
 * The pace at one moment: at most `count` starts in any `spanMillis`, none before `notBefore`, and
 * starts spread `gapMillis` apart (0: bursts allowed), of which up to `catchUp` slots missed may be
 * made up.
 *
 * @example
 * ```ts
 * import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
 *
 * // Three per second, spread a third of a second apart.
 * const pace: SlidingWindow.Pace = { count: 3, spanMillis: 1000, notBefore: 0, gapMillis: 1000 / 3, catchUp: 0 }
 * const window = SlidingWindow.make(8)
 * assert.deepStrictEqual([0, 1, 2].map(() => window.reserve(() => pace, 0).at), [0, 334, 667])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Pace {
  readonly count: number
  readonly spanMillis: number
  readonly notBefore: number
  readonly gapMillis: number
  readonly catchUp: number
}

/**
 * A slot reserved for a start `at` (whole ms), `wait` ms after the reservation was made.
 *
 * @example
 * ```ts
 * import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
 * const pace = (): SlidingWindow.Pace => ({ count: 2, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
 *
 * const window = SlidingWindow.make(4)
 * const reservations: ReadonlyArray<SlidingWindow.Reservation> = [0, 1, 2].map(() => window.reserve(pace, 0))
 * assert.deepStrictEqual(reservations.map((r) => r.wait), [0, 0, 1000])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Reservation {
  readonly at: number
  readonly wait: number
  readonly slot: number
  readonly holder: number
}

/**
 * A window whose pace may change from one attempt to the next. It remembers the last `capacity`
 * attempts and whether the service accepted them, as evidence of the service's own limit.
 *
 * @example
 * ```ts
 * import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
 * const pace = (): SlidingWindow.Pace => ({ count: 2, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
 *
 * const window: SlidingWindow.Window = SlidingWindow.make(4)
 * window.reserve(pace, 0)
 * window.reserve(pace, 0)
 * const third = window.reserve(pace, 0)
 * // The caller sleeps `third.wait` ms on its own clock, then says when it woke: 30 ms late.
 * assert.deepStrictEqual(window.woke(third, 1030), { at: 1030, waited: 1000, slot: third.slot })
 * assert.strictEqual(window.startedWithin(0, 2000), 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Window {
  /**
   * Reserves the next slot at `now` under the pace `pace(now)` gives: reservations are made in call
   * order. A reservation with `wait` 0 has started (`Start` at `now`); otherwise the caller sleeps
   * `wait` ms and calls `woke`.
   */
  readonly reserve: (pace: (now: number) => Pace, now: number) => Reservation
  /**
   * The caller of `reservation` woke at `now`: its start, or undefined when its slot was withdrawn
   * or taken again meanwhile (it reserves again; its wait so far counts in the start it gets).
   */
  readonly woke: (reservation: Reservation, now: number) => Start | undefined
  /** The service answered the attempt: accepted it (any answer but a refusal) or refused it. */
  readonly answered: (start: Start, accepted: boolean) => void
  /** How many of the remembered attempts started in `[from, to]`. */
  readonly startedWithin: (from: number, to: number) => number
  /**
   * How many remembered attempts that took their slot before `start` started within `spanMillis`
   * before it: of attempts started at one instant, only those ahead of it.
   */
  readonly startedBefore: (start: Start, spanMillis: number) => number
  /** How many remembered attempts the service accepted that started in `[from, to)`. */
  readonly acceptedWithin: (from: number, to: number) => number
  /** The most remembered attempts started since `from` and accepted within any `spanMillis`. */
  readonly mostAccepted: (from: number, spanMillis: number) => number
  /**
   * Takes back every slot reserved for a start after `now` (the pace was lowered): the callers
   * waiting for them take a slot again, under the pace of when they wake.
   */
  readonly withdraw: (now: number) => void
}

const pending = 0
const accepted = 1
const refused = 2

/**
 * A window remembering `capacity` attempts (`capacity` ≥ every `Pace.count` it is given).
 *
 * @example
 * ```ts
 * import * as SlidingWindow from "@broker-history/core/budget/SlidingWindow"
 * const pace = (): SlidingWindow.Pace => ({ count: 2, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 })
 *
 * const window = SlidingWindow.make(4)
 * const first = window.reserve(pace, 0)
 * window.reserve(pace, 0)
 * const later = window.reserve(pace, 0)
 * // The pace was lowered: the slot reserved for later is taken back, and its caller reserves again.
 * window.withdraw(500)
 * assert.strictEqual(window.woke(later, 1000), undefined)
 * assert.strictEqual(first.wait, 0)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (capacity: number): Window => {
  // Start times of the last `capacity` attempts, as a ring: starts[head] is the oldest; answers[i]
  // is what the service made of attempt starts[i].
  const starts = new Array<number>(capacity).fill(Number.NEGATIVE_INFINITY)
  const answers = new Uint8Array(capacity)
  // Which reservation holds each slot: a caller whose slot was withdrawn or reused finds another id.
  const holders = new Float64Array(capacity)
  let reservations = 0
  let head = 0
  let last = Number.NEGATIVE_INFINITY
  let lastPaced = Number.NEGATIVE_INFINITY
  // A caller reserves its start time in one synchronous step (no lock, no suspension on the fast
  // path), then sleeps until it: reservations are made in arrival order, and the slot of a caller
  // interrupted while waiting stays taken, which only ever errs on the side of fewer requests.
  const reserve = (pace: (now: number) => Pace, now: number): Reservation => {
    const { catchUp, count, gapMillis, notBefore, spanMillis } = pace(now)
    const slot = head
    // The `count`-th most recent start; never earlier than the previous reservation, so the ring
    // stays in time order when the pace changes.
    const kth = starts[(head - Math.min(count, capacity) + capacity) % capacity]!
    // Whole milliseconds: a fractional pace would otherwise make a fractional sleep, and under a
    // test clock a fractional time, which a clock in nanoseconds cannot turn into a bigint.
    // Even pacing as a virtual schedule (`lastPaced`: when the next start is due), kept before
    // rounding so that rounding up to whole milliseconds does not slow it down; a caller late for
    // its slot may start up to `catchUp` gaps ahead of the schedule.
    const paced = Math.max(now, notBefore, last, lastPaced - catchUp * gapMillis, kth + spanMillis)
    const at = Math.ceil(paced)
    lastPaced = gapMillis > 0 ? Math.max(lastPaced, paced) + gapMillis : at
    starts[slot] = at
    answers[slot] = pending
    const holder = ++reservations
    holders[slot] = holder
    last = at
    head = (head + 1) % capacity
    const wait = at - now
    return wait <= 0 ? { at: now, wait: 0, slot, holder } : { at, wait, slot, holder }
  }
  const woke = (reservation: Reservation, now: number): Start | undefined => {
    const { at, slot, wait } = reservation
    if (holders[slot] !== reservation.holder) return undefined
    // Woken late (a busy event loop, a long collection): the attempt starts when it actually
    // does, and the window counts that, or the attempt `count` places later could start less
    // than a span after it. (Unless the slot was reserved again meanwhile.)
    if (now > at && starts[slot] === at) {
      starts[slot] = now
      if (last === at) {
        last = now
        lastPaced = Math.max(lastPaced, now)
      }
    }
    return { at: Math.max(now, at), waited: wait, slot }
  }
  const withdraw = (now: number): void => {
    // Reservations are in time order from the oldest: the ones after `now` are the newest.
    while (last > now) {
      head = (head - 1 + capacity) % capacity
      starts[head] = Number.NEGATIVE_INFINITY
      holders[head] = 0
      last = starts[(head - 1 + capacity) % capacity]!
    }
    lastPaced = Math.min(lastPaced, last)
  }
  const answered = (start: Start, ok: boolean): void => {
    // Unless the slot went to a later attempt meanwhile.
    if (starts[start.slot] === start.at) answers[start.slot] = ok ? accepted : refused
  }
  const startedWithin = (from: number, to: number): number => {
    let n = 0
    for (const start of starts) if (start >= from && start <= to) n++
    return n
  }
  const startedBefore = (start: Start, spanMillis: number): number => {
    // A slot reused since: every remembered attempt then is younger; count by time alone.
    if (starts[start.slot] !== start.at) return startedWithin(start.at - spanMillis, start.at)
    let n = 0
    for (let i = head; i !== start.slot; i = (i + 1) % capacity) {
      if (starts[i]! >= start.at - spanMillis && starts[i]! <= start.at) n++
    }
    return n
  }
  const acceptedWithin = (from: number, to: number): number => {
    let n = 0
    for (let i = 0; i < capacity; i++) if (answers[i] === accepted && starts[i]! >= from && starts[i]! < to) n++
    return n
  }
  const mostAccepted = (from: number, spanMillis: number): number => {
    // Two pointers over the accepted attempts in ring (time) order.
    let most = 0
    let inSpan = 0
    let tail = 0
    for (let i = 0; i < capacity; i++) {
      const slot = (head + i) % capacity
      if (answers[slot] !== accepted || starts[slot]! < from) continue
      inSpan++
      for (; tail < i; tail++) {
        const t = (head + tail) % capacity
        if (answers[t] !== accepted || starts[t]! < from) continue
        if (starts[t]! > starts[slot]! - spanMillis) break
        inSpan--
      }
      if (inSpan > most) most = inSpan
    }
    return most
  }
  return { reserve, woke, answered, startedWithin, startedBefore, acceptedWithin, mostAccepted, withdraw }
}
