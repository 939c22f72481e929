/**
 * Deadlines of the requests in flight, checked by one repeating timer instead of a timer per
 * request, which costs a noticeable share of each page request. The timer runs only while a deadline
 * is pending and never keeps the process alive (a command ends right after its last answer, not at
 * the timer's next tick). Wall-clock time: this is for carriers that talk to a real network.
 *
 * @since 0.2.0
 */

/**
 * One pending deadline: at `at` (Unix milliseconds) `expire` is called, once, unless removed first.
 *
 * @example
 * ```ts
 * import * as Deadlines from "@broker-history/core/request/Deadlines"
 *
 * const deadline: Deadlines.Deadline = { at: Date.now() + 30_000, expire: () => console.log("too late") }
 * assert.ok(deadline.at > Date.now())
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Deadline {
  readonly at: number
  readonly expire: () => void
}

/**
 * The pending deadlines of one carrier: `add` when a request starts, `remove` when it settles.
 *
 * @example
 * ```ts
 * import * as Deadlines from "@broker-history/core/request/Deadlines"
 *
 * const deadlines: Deadlines.Deadlines = Deadlines.make(Deadlines.granularity(30_000))
 * const deadline = { at: Date.now() + 30_000, expire: () => {} }
 * deadlines.add(deadline)
 * deadlines.remove(deadline)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Deadlines {
  readonly add: (deadline: Deadline) => void
  readonly remove: (deadline: Deadline) => void
}

/**
 * How often the timer checks, in milliseconds, for requests of `timeoutMillis`: an eighth of the
 * timeout, from 5 ms to 1 s, so a deadline fires at most that late.
 *
 * @example
 * ```ts
 * import * as Deadlines from "@broker-history/core/request/Deadlines"
 *
 * assert.strictEqual(Deadlines.granularity(30_000), 1000)
 * assert.strictEqual(Deadlines.granularity(400), 50)
 * assert.strictEqual(Deadlines.granularity(1), 5)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const granularity = (timeoutMillis: number): number => Math.min(1000, Math.max(5, Math.floor(timeoutMillis / 8)))

/**
 * Deadlines checked every `granularityMillis`: each fires within that time after it passes. The
 * timer starts with the first pending deadline and stops when none is left.
 *
 * @example
 * ```ts
 * import * as Deadlines from "@broker-history/core/request/Deadlines"
 *
 * const deadlines = Deadlines.make(5)
 * // The timer is unref'd (it never keeps a process alive): this one holds the example's process.
 * const alive = setTimeout(() => {}, 1_000)
 * const expired = await new Promise<boolean>((resolve) => deadlines.add({ at: Date.now() + 10, expire: () => resolve(true) }))
 * clearTimeout(alive)
 * assert.strictEqual(expired, true)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (granularityMillis: number): Deadlines => {
  const pending = new Set<Deadline>()
  let ticker: ReturnType<typeof setInterval> | undefined
  const tick = () => {
    const now = Date.now()
    for (const deadline of pending) {
      if (deadline.at <= now) {
        pending.delete(deadline)
        deadline.expire()
      }
    }
    if (pending.size === 0 && ticker !== undefined) {
      clearInterval(ticker)
      ticker = undefined
    }
  }
  return {
    add: (deadline) => {
      pending.add(deadline)
      if (ticker === undefined) {
        ticker = setInterval(tick, granularityMillis)
        // Requests keep the process alive through their sockets; the ticker must not, or a command
        // would wait for its next tick (up to a second) after its last answer.
        ticker.unref?.()
      }
    },
    remove: (deadline) => {
      pending.delete(deadline)
    }
  }
}
