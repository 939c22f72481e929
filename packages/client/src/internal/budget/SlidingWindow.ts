/**
 * A sliding-window request budget: at most `limit` attempts start within any `interval`. Unlike a
 * token bucket (which allows a full burst plus its refills in the first interval), this never
 * exceeds the budget over any window, so a client set to the service's own limit gets no 429s.
 *
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/** Waits for a slot and returns how long it waited (ms). Callers are served in arrival order. */
export type Take = Effect.Effect<number>

/** An attempt's slot: when it started, how long it waited for it (ms), and where the window keeps it. */
export interface Start {
  readonly at: number
  readonly waited: number
  readonly slot: number
}

/**
 * The pace at one moment: at most `count` starts in any `spanMillis`, none before `notBefore`, and
 * starts spread `gapMillis` apart (0: bursts allowed), of which up to `catchUp` slots missed may be
 * made up.
 */
export interface Pace {
  readonly count: number
  readonly spanMillis: number
  readonly notBefore: number
  readonly gapMillis: number
  readonly catchUp: number
}

/**
 * A window whose pace may change from one attempt to the next. It remembers the last `capacity`
 * attempts and whether the service accepted them, as evidence of the service's own limit.
 */
export interface Window {
  /** Waits for a slot under the pace `pace(now)` gives. Callers are served in arrival order. */
  readonly take: (pace: (now: number) => Pace) => Effect.Effect<Start>
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

/** A window remembering `capacity` attempts (`capacity` ≥ every `Pace.count` it is given). */
export const makeWindow = (capacity: number): Effect.Effect<Window> =>
  Effect.sync(() => {
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
    // A caller reserves its start time in one synchronous step (no lock, no fiber suspension on the
    // fast path), then sleeps until it: reservations are made in arrival order, and the slot of a
    // caller interrupted while waiting stays taken, which only ever errs on the side of fewer requests.
    const take = (pace: (now: number) => Pace): Effect.Effect<Start> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const { catchUp, count, gapMillis, notBefore, spanMillis } = pace(now)
        const slot = head
        // The `count`-th most recent start; never earlier than the previous reservation, so the ring
        // stays in time order when the pace changes.
        const kth = starts[(head - Math.min(count, capacity) + capacity) % capacity]!
        // Whole milliseconds: a fractional pace would otherwise make a fractional sleep, and under
        // the TestClock a fractional time, which `Clock.currentTimeNanos` cannot turn into a bigint.
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
        if (wait <= 0) return Effect.succeed({ at: now, waited: 0, slot })
        return Effect.zipRight(
          Effect.sleep(Duration.millis(wait)),
          Effect.flatMap(Clock.currentTimeMillis, (woke): Effect.Effect<Start> => {
            if (holders[slot] !== holder) {
              return Effect.map(take(pace), (again) => ({ ...again, waited: wait + again.waited }))
            }
            // Woken late (a busy event loop, a long collection): the attempt starts when it actually
            // does, and the window counts that, or the attempt `count` places later could start less
            // than a span after it. (Unless the slot was reserved again meanwhile.)
            if (woke > at && starts[slot] === at) {
              starts[slot] = woke
              if (last === at) {
                last = woke
                lastPaced = Math.max(lastPaced, woke)
              }
            }
            return Effect.succeed({ at: Math.max(woke, at), waited: wait, slot })
          })
        )
      })
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
    return { take, answered, startedWithin, startedBefore, acceptedWithin, mostAccepted, withdraw }
  })

/** A fixed budget: at most `limit` starts in any `interval`. */
export const make = (limit: number, interval: Duration.Duration): Effect.Effect<Take> =>
  Effect.map(makeWindow(limit), (window) => {
    const pace: Pace = { count: limit, spanMillis: Duration.toMillis(interval), notBefore: 0, gapMillis: 0, catchUp: 0 }
    const fixed = () => pace
    return Effect.map(window.take(fixed), (start) => start.waited)
  })
