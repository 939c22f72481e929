/**
 * What `broker-history sync` does once its flags are read: every stream of the plan read from its
 * stored checkpoint into the store (`Store`), in batches upserted together with the stream's new
 * checkpoint in one transaction, so that a restart after any crash leaves no gap, no duplicate row
 * and no lost update. Each stream also stores where its history starts; a `--since` before that
 * backfills the difference once, with the same guarantees. A stream whose checkpoint is damaged is
 * skipped and named. With `follow` it keeps running until interrupted; the batch being written
 * commits first.
 *
 * @internal
 */
import { BrokerConfig, BrokerError, BrokerHistory } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Scope } from "effect/Scope"
import * as Progress from "../../shared/Progress.js"
import * as Health from "../health/Health.js"
import * as Estimate from "../plan/Estimate.js"
import * as Plan from "../plan/Plan.js"
import * as Store from "../store/Store.js"
import * as Summary from "../Summary.js"
import * as Follow from "./Follow.js"
import * as Positions from "./Positions.js"
import type { PlanCost, Settings } from "./Settings.js"
import * as Streams from "./Streams.js"

/** The backoff of a follower's retries when the settings name none: the client's defaults. */
const defaultOutageRetry = {
  baseDelay: BrokerConfig.defaults.baseDelay,
  maxDelay: BrokerConfig.defaults.followMaxDelay
}

/** A failure the client gave up on after its own retries that a follower waits out: 5xx, 429, transport. */
const transientService = (error: BrokerError.BrokerError | SqlError): boolean =>
  error._tag !== "SqlError" && BrokerError.isRetryable(error)

const firstLine = (message: string) => message.split("\n")[0].replace(/\.\s*$/, "")

/**
 * How a sync that ran to the end went: what it wrote, what the tables hold, what it backfilled, where
 * each kind's stored history starts, and the streams it skipped.
 */
export interface Outcome {
  readonly totals: Streams.Totals
  readonly counts: Store.Counts
  /** Streams backfilled in this run, counted by the start they were backfilled from (Unix ms). */
  readonly backfilled: ReadonlyMap<number, number>
  /**
   * Per kind, the latest start of a stream's stored history (Unix ms): before it, at least one
   * stream of that kind has nothing. 0: every stream holds its whole history.
   */
  readonly coveredFrom: { readonly transfers: number; readonly deposits: number }
  /** Streams of the plan that were skipped, each with its reason. */
  readonly damaged: ReadonlyArray<Positions.Damaged>
}

/** The plan's cost at the start of a run: what the store holds of each stream is known by then. */
const planLine = (
  plan: PlanCost,
  specs: ReadonlyArray<Streams.StreamSpec<unknown>>,
  state: Streams.State,
  settings: Pick<Settings, "since" | "settlement">,
  named: ReadonlySet<string>
): string => {
  const now = Date.now()
  const streams = specs.filter((s) => !state.damaged.has(s.id)).map((s): Estimate.Stream => {
    const position = state.positions.get(s.id)
    return {
      kind: s.kind,
      start: Positions.startOf(settings.since, s),
      stored: position === undefined
        ? undefined
        : { checkpoint: position.checkpoint.time, coveredSince: position.coveredSince }
    }
  })
  const estimate = Estimate.estimate(
    streams,
    { maxWindow: plan.maxWindow, settlement: settings.settlement, rate: plan.rate },
    now,
    plan.requests
  )
  return Summary.planLine({
    discovered: plan.subAccounts === undefined
      ? undefined
      : { listed: plan.subAccounts.length, new: plan.subAccounts.filter((a) => !named.has(a)).length },
    streams: estimate.streams,
    requests: estimate.requests,
    seconds: estimate.seconds,
    rate: plan.rate,
    maxWindow: plan.maxWindow
  })
}

/**
 * Runs a sync against the store (`Store.SyncStore`) with the `BrokerHistory` client: each stream backfills what its
 * stored history lacks, re-reads its settlement window and continues after its checkpoint, each batch
 * upserted together with the stream's checkpoint in one transaction; it ends when every stream is up to
 * date, or with `follow` never. With `follow`, outages do not end it: a stream's catch-up that the
 * service failed (after the client's retries) is run again from its committed position, and a
 * database write that failed for want of the database is written again, both without limit with
 * `outageRetry`'s backoff; each outage is logged once when it starts and once when it ends.
 */
export const run = (
  settings: Settings
): Effect.Effect<
  Outcome,
  SqlError | BrokerError.BrokerError,
  Scope | Store.SyncStore | BrokerHistory.BrokerHistory | Progress.Progress
> =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const profile = settings.profile ?? Store.defaultProfile
    const store = (yield* Store.SyncStore).forProfile(profile)
    const progress = yield* Progress.Progress
    const transferSpec = (s: Plan.PlannedStream): Streams.StreamSpec<TransferRecord.TransferRecord> => ({
      id: s.id,
      kind: "transfers",
      startsAt: s.startsAt,
      plain: (r) => history.transfers({ ...s.query, ...r }),
      changes: (o) => history.transferChanges({ ...s.query, ...o }),
      apply: (records, position) => store.applyTransfers(s.id, records, position),
      time: (t) => t.timestamp
    })

    // Following, outages are ridden out: through the process's SyncHealth when there is one (the
    // health endpoints read it), else one of this run's own.
    const health = settings.follow === undefined ? undefined : Option.getOrUndefined(
      yield* Effect.serviceOption(Health.SyncHealth)
    ) ?? (yield* Health.make({
      interval: settings.follow,
      retry: settings.outageRetry ?? defaultOutageRetry,
      profiles: [profile]
    }))
    const mine = health?.profile(profile)
    const resilience: Streams.Resilience = health === undefined || mine === undefined
      ? Streams.asItIs
      : {
        database: health.database,
        answered: mine.serviceAnswered,
        catchUp: (attempt) => mine.service(attempt, transientService, (e) => firstLine(e.message))
      }
    if (mine !== undefined) {
      yield* mine.attach(history.availability)
      yield* mine.phase("catching-up")
      yield* Effect.addFinalizer(() => mine.phase("stopped"))
    }

    if (settings.reset !== undefined) {
      const deleted = yield* resilience.database(store.reset(settings.reset))
      settings.log(Summary.resetLine(settings.reset, deleted))
    }

    // Grows while following with discovery: the streams of sub-accounts found later join it.
    const specs: Array<Streams.StreamSpec<any>> = [
      {
        id: Plan.depositStreamId,
        kind: "deposits",
        plain: (r) => history.deposits({ ...r, concurrency: 2 }),
        changes: (o) => history.depositChanges({ ...o, concurrency: 2 }),
        apply: (records, position) => store.applyDeposits(Plan.depositStreamId, records, position),
        time: (d: DepositRecord.DepositRecord) => d.insertTime
      } satisfies Streams.StreamSpec<DepositRecord.DepositRecord>,
      ...settings.transferStreams.map(transferSpec)
    ]

    // What is stored for the plan's streams: where each starts, or why it is skipped.
    const stored = yield* resilience.database(store.streams)
    const state: Streams.State = {
      ...Positions.read(stored, specs.map((s) => s.id), Date.now()),
      totals: { transfers: 0, deposits: 0, batches: 0 },
      backfilled: new Map()
    }
    const { damaged, totals } = state
    const write = Streams.writer(state, progress, resilience)

    const damagedList = (): ReadonlyArray<Positions.Damaged> =>
      specs.filter((s) => damaged.has(s.id)).map((s) => ({ stream: s.id, problem: damaged.get(s.id)! }))

    // The sub-accounts some stored stream names: the others of a discovered plan are new.
    const named = Positions.namedAccounts(stored.keys())
    if (settings.plan !== undefined) settings.log(planLine(settings.plan, specs, state, settings, named))

    const catchUp = Streams.catchUp(settings, state, store, write, resilience)
    // Catch up with bounded concurrency (the client's rate limiter bounds the requests).
    yield* Effect.all(specs.map(catchUp), { concurrency: settings.concurrency, discard: true })
    const caughtUp = yield* resilience.database(store.counts)
    const coveredFrom = Positions.coveredFrom(specs, state.positions, damaged, settings.since)
    const outcome = (): Outcome => ({
      totals,
      counts: caughtUp,
      backfilled: state.backfilled,
      coveredFrom,
      damaged: damagedList()
    })
    if (settings.follow === undefined) return outcome()

    if (damaged.size > 0) settings.warn(Summary.damagedSentence(damagedList(), specs.length))
    settings.log(Follow.caughtUpLine(Date.now(), caughtUp, settings.follow))
    if (mine !== undefined) yield* mine.phase("following")
    // Following with discovery: sub-accounts listed again now and then; the streams of new ones are
    // caught up from their start, then followed with the others.
    const relist = settings.relist
    const more = relist === undefined ? undefined : {
      every: relist.every,
      next: Effect.flatMap(
        relist.streams.pipe(
          Effect.map(Option.some),
          Effect.catchAll((e) =>
            Effect.as(
              Effect.sync(() => settings.warn(Follow.listFailedLine(Date.now(), firstLine(e.message), relist.every))),
              Option.none()
            )
          )
        ),
        (listed) => {
          if (Option.isNone(listed)) return Effect.succeed([])
          const known = new Set(specs.map((s) => s.id))
          const fresh = listed.value.transferStreams.filter((s) => !known.has(s.id)).map(transferSpec)
          if (fresh.length === 0) return Effect.succeed([])
          const newAccounts = listed.value.subAccounts.filter((a) => !named.has(a))
          settings.log(Follow.discoveredLine(Date.now(), newAccounts, fresh.length))
          // Part of the run once caught up: a listing after a failure finds them new again.
          return Effect.all(fresh.map(catchUp), { concurrency: settings.concurrency, discard: true }).pipe(
            Effect.zipRight(Effect.sync(() => {
              specs.push(...fresh)
              for (const a of newAccounts) named.add(a)
              return fresh
            }))
          )
        }
      )
    }
    // The client's follow streams ride service outages out themselves; a transient failure that still
    // reaches here starts the streams again from their committed checkpoints.
    yield* Follow.follow(
      history,
      { ...settings, follow: settings.follow },
      specs,
      state,
      write,
      resilience.catchUp,
      more
    )
    return outcome()
  }).pipe(
    // The client's outage lines then say whose key met them.
    (run) =>
      settings.profile === undefined || settings.profile === Store.defaultProfile
        ? run
        : Effect.annotateLogs(run, "profile", settings.profile)
  )
