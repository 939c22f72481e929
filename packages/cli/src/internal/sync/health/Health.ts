/**
 * How a following sync rides out outages, and what it knows of its profiles for a supervisor.
 *
 * - `database`: a database operation tried again after a failure about availability
 *   (`DatabaseFailure.isTransient`), without limit, with capped, jittered backoff; one outage for the
 *   whole process (every profile shares the database), logged once when it starts and once when it
 *   ends.
 * - `ProfileHealth.service`: one stream's catch-up (or the follow phase) run again after a transient
 *   service failure that the client's bounded retries gave up on; its outage is logged the same way,
 *   per profile. While following, the client's follow streams ride service outages out themselves
 *   and log them (once per client), so these lines come from the catch-up only.
 * - the profiles' phases and their clients' availability, read by the health endpoints
 *   (`HealthServer`) and the `broker_history_sync_ready` gauge.
 *
 * @internal
 */
import type { BrokerHistory } from "@broker-history/client"
import { Outage } from "@broker-history/client"
import type { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashMap from "effect/HashMap"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import type { Scope } from "effect/Scope"
import * as DatabaseFailure from "../store/DatabaseFailure.js"
import * as OutageLines from "./OutageLines.js"
import * as Readiness from "./Readiness.js"

/** The backoff of a retried outage: doubling from `baseDelay`, capped at `maxDelay`, jittered. */
export interface Retry {
  readonly baseDelay: Duration.DurationInput
  readonly maxDelay: Duration.DurationInput
}

/** What a following sync is told: its poll interval (ms), the backoff, and its profiles' names. */
export interface Options {
  readonly interval: number
  readonly retry: Retry
  readonly profiles: ReadonlyArray<string>
}

/** One profile's part. */
export interface ProfileHealth {
  /** The profile's run is now in this phase. */
  readonly phase: (phase: Readiness.Phase) => Effect.Effect<void>
  /** The profile's client, whose last success and service outage the answers show. */
  readonly attach: (availability: Effect.Effect<BrokerHistory.Availability>) => Effect.Effect<void>
  /** `attempt` run again after a transient failure (`isTransient`), without limit; the outage logged. */
  readonly service: <A, E>(
    attempt: Effect.Effect<A, E>,
    isTransient: (error: E) => boolean,
    describe: (error: E) => string
  ) => Effect.Effect<A, E>
  /** The service answered (a batch came in): a service outage of the catch-up ends. */
  readonly serviceAnswered: Effect.Effect<void>
}

export interface Service {
  /** The poll interval (ms) readiness is judged by. */
  readonly interval: number
  /** A database operation, tried again while the database is unavailable. */
  readonly database: <A>(operation: Effect.Effect<A, SqlError>) => Effect.Effect<A, SqlError>
  /** The profile's part (a profile not named at the start is added). */
  readonly profile: (name: string) => ProfileHealth
  /** Every profile as the answers show it. */
  readonly profiles: Effect.Effect<ReadonlyArray<Readiness.Profile>>
}

/** The health of a following sync. */
export class SyncHealth extends Context.Tag("@broker-history/cli/internal/SyncHealth")<SyncHealth, Service>() {}

/** 1 while a profile is ready (`Readiness.isReady`), else 0; tagged `profile`. */
export const readyGauge = Metric.gauge("broker_history_sync_ready", {
  description: "1 while the profile of a following sync has caught up and its last poll is recent, else 0"
})

/** Outage lines carry no annotation of the fiber that met the failure (a database outage is everyone's). */
const plain = <A, E, R>(log: Effect.Effect<A, E, R>) =>
  Effect.locally(log, FiberRef.currentLogAnnotations, HashMap.empty())

/**
 * When a failed attempt's outage started, or `undefined` when the failure is not news (the service or
 * the database answered since it began): `began` and `successes` are the attempt's start and the
 * successes counted then.
 */
type OutageStart = (began: number, successes: number) => Effect.Effect<
  { readonly since: number; readonly successes: number } | undefined
>

/**
 * A short operation (a write, one that waited for SQLite's lock included): the outage starts when
 * the failed attempt began, unless another succeeded since.
 */
const fromAttempt: OutageStart = (began, successes) => Effect.succeed({ since: began, successes })

/**
 * `attempt` retried after transient failures with `retry`'s backoff, without limit; `cell` holds the
 * outage, whose start and end are logged once each as `what`'s; `start` says when it started.
 */
const ridingOut = (
  cell: { state: Outage.State },
  what: string,
  retry: Retry,
  annotations: Record<string, string>,
  start: OutageStart
) =>
<A, E>(
  attempt: Effect.Effect<A, E>,
  isTransient: (error: E) => boolean,
  describe: (error: E) => string
): Effect.Effect<A, E> => {
  const once = Effect.clockWith((clock) =>
    Effect.suspend(() => {
      const successes = cell.state.successes
      const began = clock.unsafeCurrentTimeMillis()
      return Effect.tapBoth(attempt, {
        onSuccess: () => answered(cell, what, annotations),
        onFailure: (error) =>
          isTransient(error)
            ? Effect.flatMap(start(began, successes), (outage) =>
              Effect.sync(() => {
                if (outage !== undefined) {
                  cell.state = Outage.failed(
                    cell.state,
                    { at: outage.since, message: describe(error), tag: tagOf(error) },
                    outage.successes
                  )
                }
              }))
            : Effect.void
      })
    })
  )
  const maxMillis = Duration.toMillis(Duration.decode(retry.maxDelay))
  const schedule = Outage.backoff(retry.baseDelay, retry.maxDelay).pipe(
    Schedule.intersect(Schedule.identity<E>()),
    Schedule.whileInput(isTransient),
    Schedule.onDecision(([delay, error], decision): Effect.Effect<void> => {
      if (ScheduleDecision.isDone(decision)) return Effect.void
      const [next, started] = Outage.announced(cell.state)
      cell.state = next
      return started === undefined
        ? Effect.logDebug(`${what} still unavailable; retrying`).pipe(
          Effect.annotateLogs({ ...annotations, failure: describe(error), retryMillis: Duration.toMillis(delay) })
        )
        : plain(
          Effect.logWarning(OutageLines.startedLine(what, started.failure, Duration.toMillis(delay), maxMillis)).pipe(
            Effect.annotateLogs({
              ...annotations,
              since: new Date(started.since).toISOString(),
              retryMillis: Duration.toMillis(delay),
              maxRetryMillis: maxMillis
            })
          )
        )
    })
  )
  return Effect.retry(once, schedule)
}

/** A failure's tag (`SqlError`, `ServerError`, …) for the outage it starts. */
const tagOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : "Error"

/** Something went through: the outage in `cell`, if any, ends (logged when its start was). */
const answered = (cell: { state: Outage.State }, what: string, annotations: Record<string, string>) =>
  Effect.clockWith((clock) =>
    Effect.suspend(() => {
      const [next, ended] = Outage.succeeded(cell.state, clock.unsafeCurrentTimeMillis())
      cell.state = next
      return ended === undefined ? Effect.void : plain(
        Effect.logInfo(OutageLines.endedLine(what, ended.at - ended.since, ended.failures)).pipe(
          Effect.annotateLogs({
            ...annotations,
            since: new Date(ended.since).toISOString(),
            outageMillis: ended.at - ended.since
          })
        )
      )
    })
  )

interface Entry {
  phase: Readiness.Phase
  availability: Effect.Effect<BrokerHistory.Availability> | undefined
  readonly service: { state: Outage.State }
  readonly health: ProfileHealth
}

/**
 * The health of a following sync, with the ready gauge kept current (every second) while the scope
 * is open.
 */
export const make = (options: Options): Effect.Effect<Service, never, Scope> =>
  Effect.gen(function*() {
    const database = { state: Outage.initial }
    const entries = new Map<string, Entry>()
    const single = options.profiles.length <= 1

    const entry = (name: string): Entry => {
      const found = entries.get(name)
      if (found !== undefined) return found
      const service = { state: Outage.initial }
      const annotations: Record<string, string> = single ? {} : { profile: name }
      const what = single ? "broker service" : `broker service (profile ${name})`
      const created: Entry = {
        phase: "starting",
        availability: undefined,
        service,
        health: {
          phase: (phase) =>
            Effect.sync(() => {
              created.phase = phase
            }),
          attach: (availability) =>
            Effect.sync(() => {
              created.availability = availability
            }),
          // A catch-up attempt is long (it writes batches of its own): whether its failure is news,
          // and since when the service is out, is what the client saw of its requests.
          service: ridingOut(service, what, options.retry, annotations, () =>
            Effect.map(
              created.availability ?? Effect.succeed(undefined),
              (a) =>
                a?.unavailableSince === undefined
                  ? undefined
                  : { since: a.unavailableSince, successes: service.state.successes }
            )),
          serviceAnswered: answered(service, what, annotations)
        }
      }
      entries.set(name, created)
      return created
    }
    for (const name of options.profiles) entry(name)

    const profiles = Effect.suspend(() =>
      Effect.forEach([...entries], ([name, e]) =>
        Effect.map(
          e.availability ?? Effect.succeed(undefined),
          (a): Readiness.Profile => ({
            name,
            phase: e.phase,
            lastSuccess: a?.lastSuccess,
            serviceUnavailableSince: e.service.state.outage?.since ?? a?.unavailableSince,
            databaseUnavailableSince: database.state.outage?.since
          })
        ))
    )

    const gauges = Effect.flatMap(profiles, (all) =>
      Effect.clockWith((clock) => {
        const now = clock.unsafeCurrentTimeMillis()
        return Effect.forEach(
          all,
          (p) =>
            Metric.set(
              Metric.tagged(readyGauge, "profile", p.name),
              Readiness.isReady(p, now, options.interval) ? 1 : 0
            ),
          { discard: true }
        )
      }))
    yield* Effect.forkScoped(Effect.repeat(gauges, Schedule.spaced(Duration.seconds(1))))

    const databaseRetry = ridingOut(database, "database", options.retry, {}, fromAttempt)
    return {
      interval: options.interval,
      database: (operation) => databaseRetry(operation, DatabaseFailure.isTransient, DatabaseFailure.describe),
      profile: (name) => entry(name).health,
      profiles
    }
  })

/** The health of a following sync as a layer (see `make`). */
export const layer = (options: Options): Layer.Layer<SyncHealth> => Layer.scoped(SyncHealth, make(options))
