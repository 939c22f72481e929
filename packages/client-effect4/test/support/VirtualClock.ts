/**
 * A virtual clock for simulations of many fibers over minutes of time (the budget against a limiter,
 * streams through an outage). Every fiber of `run` goes through one scheduler whose tasks run
 * synchronously, so "every fiber is suspended" is "no task is left, and none comes in a turn of the
 * event loop", and `adjust` moves the time from one sleeper to the next, waking each once those before
 * it have run until suspended. Effect 4's TestClock waits one scheduler turn before moving the time
 * and follows only the scheduler tasks a wake-up queues, so a fiber that waits on a promise (a mock
 * `Response`'s body) falls behind it; here the event loop is let run until nothing moves.
 *
 * Of sleepers due at once the last to fall asleep wakes first (the TestClock's order). Fibers in a
 * simulation may wait for the virtual clock, for one another and for promises that settle without
 * time passing, not for real timers, sockets or threads (WebCrypto): the time would move on without
 * them.
 */
import { Clock, Context, Data, Duration, Effect, Fiber, Scheduler } from "effect"
import { dual } from "effect/Function"

/**
 * The simulation's fibers ran `tasks` scheduler tasks at `at` ms without all suspending: some fiber
 * never waits (a busy loop).
 */
export class Stalled extends Data.TaggedError("Stalled")<{ readonly at: number; readonly tasks: number }> {
  override get message() {
    return `the simulation's fibers ran ${this.tasks} scheduler tasks at ${this.at} ms without all suspending: ` +
      "a fiber never waits"
  }
}

/** Control of the simulation's time, for the body of `run`. */
export class VirtualClock extends Context.Service<VirtualClock, {
  /**
   * Runs every fiber until all are suspended, then wakes each sleeper due within `duration`, in order,
   * each followed by every fiber running until suspended again; the time is then `duration` later.
   */
  readonly adjust: (duration: Duration.Input) => Effect.Effect<void, Stalled>
  /** As `adjust`, to the time `millis` (nothing when it is not later than now). */
  readonly setTime: (millis: number) => Effect.Effect<void, Stalled>
}>()("@broker-history/client-effect4/test/VirtualClock") {}

/** Moves the simulation's time on by `duration` (see `VirtualClock`). */
export const adjust = (duration: Duration.Input): Effect.Effect<void, Stalled, VirtualClock> =>
  VirtualClock.use((clock) => clock.adjust(duration))

/** Moves the simulation's time on to `millis` (see `VirtualClock`). */
export const setTime = (millis: number): Effect.Effect<void, Stalled, VirtualClock> =>
  VirtualClock.use((clock) => clock.setTime(millis))

export interface Options {
  /** The time at the start, in ms (default 0). */
  readonly start?: number | undefined
  /** Scheduler tasks run without the time moving after which the simulation counts as stalled (default 100,000). */
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
    Effect.flatMap(Effect.service(Scheduler.Scheduler), (outer) => {
      const simulation = new Simulation(options.start ?? 0, outer, options.maxTasks ?? 100_000)
      return Effect.flatMap(Effect.forkChild(body), Fiber.join).pipe(
        Effect.provideService(VirtualClock, {
          adjust: (duration) => simulation.adjust(duration),
          setTime: (millis) => Effect.suspend(() => simulation.adjust(Math.max(0, millis - simulation.now)))
        }),
        Effect.provideService(Clock.Clock, simulation),
        Effect.provideService(Scheduler.Scheduler, simulation),
        Effect.tap(
          Effect.suspend(() => simulation.stalled === undefined ? Effect.void : Effect.fail(simulation.stalled))
        )
      ) as Effect.Effect<A, E | Stalled, Exclude<R, VirtualClock>>
    })
)

interface Sleeper {
  readonly at: number
  /** Counts up as fibers fall asleep: of sleepers due at once, the highest wakes first. */
  readonly order: number
  readonly wake: () => void
}

class Simulation implements Clock.Clock, Scheduler.Scheduler {
  stalled: Stalled | undefined = undefined
  readonly executionMode = "async" as const
  private readonly sleepers = new Set<Sleeper>()
  private asleep = 0
  /** Tasks by priority, lowest first. */
  private queue: Array<[number, Array<() => void>]> = []
  /** Tasks run so far. */
  private ran = 0
  private drainScheduled = false
  private draining = false
  private readonly outerDispatcher: Scheduler.SchedulerDispatcher

  constructor(
    public now: number,
    private readonly outer: Scheduler.Scheduler,
    private readonly maxTasks: number
  ) {
    this.outerDispatcher = outer.makeDispatcher()
  }

  currentTimeMillisUnsafe(): number {
    return this.now
  }
  readonly currentTimeMillis = Effect.sync(() => this.now)
  currentTimeNanosUnsafe(): bigint {
    return BigInt(Math.floor(this.now * 1_000_000))
  }
  readonly currentTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())
  monotonicTimeNanosUnsafe(): bigint {
    return this.currentTimeNanosUnsafe()
  }
  readonly monotonicTimeNanos = Effect.sync(() => this.currentTimeNanosUnsafe())

  sleep(duration: Duration.Duration): Effect.Effect<void> {
    return Effect.suspend(() => {
      const at = this.now + Duration.toMillis(duration)
      if (!(at > this.now)) return Effect.void
      return Effect.callback<void>((resume) => {
        const sleeper: Sleeper = { at, order: this.asleep++, wake: () => resume(Effect.void) }
        this.sleepers.add(sleeper)
        return Effect.sync(() => void this.sleepers.delete(sleeper))
      })
    })
  }

  shouldYield(fiber: Fiber.Fiber<unknown, unknown>): boolean {
    return this.outer.shouldYield(fiber)
  }

  makeDispatcher(): Scheduler.SchedulerDispatcher {
    return { scheduleTask: (task, priority) => this.scheduleTask(task, priority), flush: () => this.flush() }
  }

  private flush(): void {
    this.exclusively(() => this.runTasks())
  }

  private scheduleTask(task: () => void, priority: number): void {
    if (this.stalled !== undefined) return this.outerDispatcher.scheduleTask(task, priority)
    const at = this.queue.findIndex(([p]) => p >= priority)
    if (at !== -1 && this.queue[at]![0] === priority) this.queue[at]![1].push(task)
    else this.queue.splice(at === -1 ? this.queue.length : at, 0, [priority, [task]])
    // Work queued between `adjust`s (the body's own steps, fibers it forks or interrupts) runs as soon
    // as the body lets the real scheduler run, at the same virtual time.
    if (!this.draining && !this.drainScheduled) {
      this.drainScheduled = true
      this.outerDispatcher.scheduleTask(() => {
        this.drainScheduled = false
        this.exclusively(() => this.runTasks())
      }, 0)
    }
  }

  adjust(input: Duration.Input): Effect.Effect<void, Stalled> {
    return Effect.suspend(() => {
      const millis = Math.max(0, Duration.toMillis(Duration.fromInputUnsafe(input)))
      if (!Number.isFinite(millis)) {
        return Effect.die("VirtualClock.adjust: an infinite duration would wake sleepers for ever")
      }
      const end = this.now + millis
      return Effect.callback<void, Stalled>((resume) =>
        this.advance(end, () => resume(this.stalled === undefined ? Effect.void : Effect.fail(this.stalled)))
      )
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
        for (const [priority, queued] of this.queue) {
          for (const task of queued) this.outerDispatcher.scheduleTask(task, priority)
        }
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
