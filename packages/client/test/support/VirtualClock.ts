/**
 * A virtual clock for simulations of many fibers over minutes of time (the budget against a limiter,
 * streams through an outage). Every fiber of `run` goes through one scheduler whose tasks run
 * synchronously, so "every fiber is suspended" is "no task is left, and none comes in a turn of the
 * event loop", and `adjust` moves the time from one sleeper to the next, waking each once those before
 * it have run until suspended. The TestClock learns that every fiber is suspended by polling them all
 * behind `setTimeout(0)` several times before each wake-up, which costs milliseconds of real time per
 * wake-up; here a wake-up costs the work it wakes.
 *
 * The order is the TestClock's, so a simulation comes out the same on either: sleepers by time, and
 * of those due at once the last to fall asleep first. Fibers in a simulation may wait for the virtual
 * clock, for one another and for promises that settle without time passing (a mock `Response`'s
 * body), not for real timers, sockets or threads (WebCrypto): the time would move on without them.
 */
import { Clock, Context, Data, Duration, Effect, FiberRef, Scheduler } from "effect"
import { dual } from "effect/Function"

/**
 * The simulation's fibers ran `tasks` scheduler tasks at `at` ms without all suspending: some fiber
 * never waits (a busy loop), and the TestClock would wait for it forever.
 */
export class Stalled extends Data.TaggedError("Stalled")<{ readonly at: number; readonly tasks: number }> {
  override get message() {
    return `the simulation's fibers ran ${this.tasks} scheduler tasks at ${this.at} ms without all suspending: ` +
      "a fiber never waits"
  }
}

/** Control of the simulation's time, for the body of `run`. */
export class VirtualClock extends Context.Tag("@broker-history/client/test/VirtualClock")<VirtualClock, {
  /**
   * Runs every fiber until all are suspended, then wakes each sleeper due within `duration`, in order,
   * each followed by every fiber running until suspended again; the time is then `duration` later.
   */
  readonly adjust: (duration: Duration.DurationInput) => Effect.Effect<void, Stalled>
}>() {}

/** Moves the simulation's time on by `duration` (see `VirtualClock`). */
export const adjust = (duration: Duration.DurationInput): Effect.Effect<void, Stalled, VirtualClock> =>
  Effect.flatMap(VirtualClock, (clock) => clock.adjust(duration))

export interface Options {
  /** The time at the start, in ms (default 0). */
  readonly start?: number | undefined
  /**
   * Scheduler tasks run without the time moving after which the simulation counts as stalled
   * (default 100,000: over a hundred times the most the budget's simulations run without it moving).
   */
  readonly maxTasks?: number | undefined
}

/**
 * Runs `body` in a simulation: it and every fiber it forks sleep on the virtual clock and run on its
 * scheduler, and time moves only when `adjust` says. Fails with `Stalled` when a fiber never
 * suspends, instead of hanging. `body.pipe(VirtualClock.run({ start }))` or `run(body, options)`.
 */
export const run: {
  (
    options?: Options
  ): <A, E, R>(body: Effect.Effect<A, E, R>) => Effect.Effect<A, E | Stalled, Exclude<R, VirtualClock>>
  <A, E, R>(body: Effect.Effect<A, E, R>, options?: Options): Effect.Effect<A, E | Stalled, Exclude<R, VirtualClock>>
} = dual(
  (args) => Effect.isEffect(args[0]),
  <A, E, R>(body: Effect.Effect<A, E, R>, options: Options = {}) =>
    Effect.flatMap(FiberRef.get(FiberRef.currentScheduler), (outer) => {
      const simulation = new Simulation(options.start ?? 0, outer, options.maxTasks ?? 100_000)
      return body.pipe(
        Effect.provideService(VirtualClock, { adjust: (duration) => simulation.adjust(duration) }),
        Effect.withClock(simulation),
        Effect.withScheduler(simulation),
        Effect.zipLeft(Effect.suspend(() => simulation.stalled === undefined ? Effect.void : simulation.stalled))
      )
    })
)

interface Sleeper {
  readonly at: number
  /** Counts up as fibers fall asleep: of sleepers due at once, the highest wakes first. */
  readonly order: number
  readonly wake: () => void
}

class Simulation implements Clock.Clock, Scheduler.Scheduler {
  readonly [Clock.ClockTypeId]: Clock.ClockTypeId = Clock.ClockTypeId
  stalled: Stalled | undefined = undefined
  private readonly sleepers = new Set<Sleeper>()
  private asleep = 0
  /** Tasks by priority, lowest first, as Effect's schedulers order them. */
  private queue: Array<[number, Array<Scheduler.Task>]> = []
  /** Tasks run so far. */
  private ran = 0
  private drainScheduled = false
  private draining = false

  constructor(
    public now: number,
    private readonly outer: Scheduler.Scheduler,
    private readonly maxTasks: number
  ) {}

  unsafeCurrentTimeMillis(): number {
    return this.now
  }
  readonly currentTimeMillis = Effect.sync(() => this.now)
  unsafeCurrentTimeNanos(): bigint {
    return BigInt(Math.floor(this.now * 1_000_000))
  }
  readonly currentTimeNanos = Effect.sync(() => this.unsafeCurrentTimeNanos())

  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return Effect.suspend(() => {
      const at = this.now + Duration.toMillis(duration)
      if (!(at > this.now)) return Effect.void
      return Effect.async<void>((resume) => {
        const sleeper: Sleeper = { at, order: this.asleep++, wake: () => resume(Effect.void) }
        this.sleepers.add(sleeper)
        return Effect.sync(() => this.sleepers.delete(sleeper))
      })
    })
  }

  readonly shouldYield = Scheduler.defaultShouldYield

  scheduleTask(task: Scheduler.Task, priority: number): void {
    if (this.stalled !== undefined) return this.outer.scheduleTask(task, priority)
    const at = this.queue.findIndex(([p]) => p >= priority)
    if (at !== -1 && this.queue[at]![0] === priority) this.queue[at]![1].push(task)
    else this.queue.splice(at === -1 ? this.queue.length : at, 0, [priority, [task]])
    // Work queued between `adjust`s (the body's own steps, fibers it forks or interrupts) runs as soon
    // as the body lets the real scheduler run, at the same virtual time.
    if (!this.draining && !this.drainScheduled) {
      this.drainScheduled = true
      this.outer.scheduleTask(() => {
        this.drainScheduled = false
        this.exclusively(() => this.runTasks())
      }, 0)
    }
  }

  adjust(input: Duration.DurationInput): Effect.Effect<void, Stalled> {
    return Effect.suspend(() => {
      // A negative duration decodes to zero: time never goes back.
      const millis = Duration.toMillis(Duration.decode(input))
      if (!Number.isFinite(millis)) {
        return Effect.dieMessage("VirtualClock.adjust: an infinite duration would wake sleepers for ever")
      }
      const end = this.now + millis
      return Effect.async<void, Stalled>((resume) => this.advance(end, () => resume(this.stalled ?? Effect.void)))
    })
  }

  /**
   * Wakes the sleepers due by `end` one by one, each once every fiber is suspended: no task is left,
   * and none ran during a turn of the event loop (a fiber waiting on a promise goes on in it).
   */
  private advance(end: number, done: () => void): void {
    const settle = () => {
      this.exclusively(() => this.runTasks())
      const ran = this.ran
      setImmediate(() => {
        if (this.stalled !== undefined) return done()
        if (this.ran !== ran || this.queue.some(([, queued]) => queued.length > 0)) return settle()
        const next = this.earliest()
        if (next === undefined || next.at > end) {
          this.now = end
          return done()
        }
        this.sleepers.delete(next)
        this.now = next.at
        next.wake()
        settle()
      })
    }
    settle()
  }

  /** Runs `f` as the one drain of the queue: tasks it queues wait for it, not for another drain. */
  private exclusively(f: () => void): void {
    const nested = this.draining
    this.draining = true
    try {
      f()
    } finally {
      this.draining = nested
    }
  }

  /** Runs queued tasks, and those they queue, until none is left or the simulation stalls. */
  private runTasks(): void {
    for (let tasks = 1; this.stalled === undefined; tasks++) {
      const bucket = this.queue.find(([, queued]) => queued.length > 0)
      if (bucket === undefined) return
      if (tasks > this.maxTasks) {
        // The fibers go on on the real scheduler, so what waits for them is not stuck too.
        this.stalled = new Stalled({ at: this.now, tasks: this.maxTasks })
        for (const [priority, queued] of this.queue) for (const task of queued) this.outer.scheduleTask(task, priority)
        this.queue = []
        return
      }
      this.ran++
      bucket[1].shift()!()
    }
  }

  private earliest(): Sleeper | undefined {
    let first: Sleeper | undefined
    for (const s of this.sleepers) {
      if (first === undefined || s.at < first.at || (s.at === first.at && s.order > first.order)) first = s
    }
    return first
  }
}
