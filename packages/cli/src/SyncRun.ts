/**
 * What `broker-history sync` does once its flags are read: every stream of the plan read from its
 * stored checkpoint into the `SyncStore`, in batches upserted together with the stream's new
 * checkpoint in one transaction, so that a restart after any crash leaves no gap, no duplicate row
 * and no lost update. Each stream also stores where its history starts; a `--since` before that
 * backfills the difference once, with the same guarantees. A stream whose checkpoint is damaged is
 * skipped and named. With `follow` it keeps running until interrupted; the batch being written
 * commits first.
 *
 * @since 0.1.0
 */
import { BrokerConfig, BrokerError, BrokerHistory } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Scope } from "effect/Scope"
import * as SyncEstimate from "./internal/SyncEstimate.js"
import * as SyncFollow from "./internal/SyncFollow.js"
import * as SyncHealth from "./internal/SyncHealth.js"
import * as SyncPositions from "./internal/SyncPositions.js"
import * as SyncStreams from "./internal/SyncStreams.js"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncStore from "./SyncStore.js"
import * as SyncSummary from "./SyncSummary.js"

/**
 * What a sync does: its transfer streams, where each kind's history starts, the checkpoints to reset,
 * following, the settlement window, concurrency and batching, and where its lines go.
 *
 * @example
 * ```ts
 * import { Progress, SyncPlan, SyncRun, SyncStore } from "@broker-history/cli"
 * import type { BrokerError, BrokerHistory } from "@broker-history/client"
 * import type { SqlError } from "@effect/sql"
 * import type { Effect, Scope } from "effect"
 *
 * const settings: SyncRun.Settings = {
 *   transferStreams: SyncPlan.transferStreams(SyncPlan.defaultPairs(["sub001@broker.test"]), ["SPOT", "FUTURES"]),
 *   since: { transfers: 0, deposits: Date.now() - 365 * 86_400_000 },
 *   reset: undefined,
 *   follow: undefined,
 *   settlement: 86_400_000,
 *   concurrency: 4,
 *   batchSize: 500,
 *   batchWait: 250,
 *   log: (line) => console.log(line),
 *   warn: (line) => console.error(line)
 * }
 * const sync: Effect.Effect<
 *   SyncRun.Outcome,
 *   BrokerError.BrokerError | SqlError.SqlError,
 *   BrokerHistory.BrokerHistory | SyncStore.SyncStore | Progress.Progress | Scope.Scope
 * > = SyncRun.run(settings)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Whose rows and checkpoints these are (`SyncStore.forProfile`); default `SyncStore.defaultProfile`. */
  readonly profile?: string | undefined
  /**
   * The transfer streams; one with `startsAt` (a sub-account's creation, Unix ms) reads nothing before
   * it, whatever `since` says, and counts as whole once it holds everything from it.
   */
  readonly transferStreams: ReadonlyArray<PlannedStream>
  /**
   * Where each kind's history starts (Unix ms): a stream's first run reads from here, and a stream
   * whose stored history starts later is backfilled from here.
   */
  readonly since: { readonly transfers: number; readonly deposits: number }
  /** Streams whose checkpoints are deleted before the sync (`all`: every stream), or none. */
  readonly reset: ReadonlyArray<string> | "all" | undefined
  /** Poll interval (ms) with `--follow`. */
  readonly follow: number | undefined
  /** How far back records may still change (ms): re-read before each checkpoint on restart. */
  readonly settlement: number
  /** Streams read at once. */
  readonly concurrency: number
  /**
   * Records per transaction at most. Catching up, each stream is written in full batches (the last one
   * at its end smaller).
   */
  readonly batchSize: number
  /** Following: the longest wait (ms) to fill a batch before it is written. */
  readonly batchWait: number
  /** Where status lines go (stdout). */
  readonly log: (line: string) => void
  /** Where a warning goes while following (stderr): damaged checkpoints found at the start. */
  readonly warn: (line: string) => void
  /**
   * Following: the backoff of retries after an outage (the service unreachable or failing while
   * catching up, the database unavailable), which go on without limit: doubling from `baseDelay`,
   * capped at `maxDelay`, jittered. Default: the client's defaults (`retry.baseDelay`,
   * `retry.followMaxDelay`: 200 ms, 1 minute).
   */
  readonly outageRetry?:
    | { readonly baseDelay: Duration.DurationInput; readonly maxDelay: Duration.DurationInput }
    | undefined
  /**
   * What the plan costs, said in one line before the catch-up (`SyncSummary.planLine`): the key's
   * widest windows and budget, the requests made to plan it (list pages), and the sub-accounts it
   * discovered (those no stored stream names yet are counted as new). None: no such line.
   */
  readonly plan?: PlanCost | undefined
  /**
   * Following with discovery: every `every` ms, `streams` gives the plan as it stands then (the
   * sub-accounts listed again); transfer streams the run does not have yet are caught up from their
   * start and followed with the others. A failure of `streams` is a warning; the next listing comes
   * `every` ms later.
   */
  readonly relist?: Relist | undefined
}

/**
 * A transfer stream of a sync's plan, with when its history begins when that is known (a
 * sub-account's creation, Unix ms).
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 * import type { SyncRun } from "@broker-history/cli"
 *
 * const created = Date.UTC(2025, 5, 1)
 * const stream: SyncRun.PlannedStream = {
 *   ...SyncPlan.transferStream({ fromAccountType: "SPOT", toAccountType: "SPOT", toAccount: "sub001@broker.test" }),
 *   startsAt: created
 * }
 * assert.strictEqual(stream.startsAt, created)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface PlannedStream extends SyncPlan.TransferStream {
  readonly startsAt?: number | undefined
}

/**
 * What a sync needs to say what its plan costs (`Settings.plan`).
 *
 * @example
 * ```ts
 * import type { SyncRun } from "@broker-history/cli"
 *
 * const cost: SyncRun.PlanCost = {
 *   maxWindow: { transfers: 30 * 86_400_000, deposits: 10 * 86_400_000 },
 *   rate: { limit: 20, interval: 1000 },
 *   requests: 2, // the two list pages read to plan it
 *   subAccounts: ["sub001@broker.test"]
 * }
 * assert.strictEqual(cost.subAccounts?.length, 1)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface PlanCost {
  /** The widest window one request covers per kind (ms); none for transfers when no maximum is known. */
  readonly maxWindow: { readonly transfers: number | undefined; readonly deposits: number }
  /** The key's budget: `limit` requests per `interval` ms. */
  readonly rate: { readonly limit: number; readonly interval: number }
  /** Requests made to plan the sync (the sub-account list's pages). */
  readonly requests: number
  /** The sub-accounts the plan discovered; none when it names them itself. */
  readonly subAccounts: ReadonlyArray<string> | undefined
}

/**
 * How a following sync with discovery finds new sub-accounts (`Settings.relist`).
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 * import type { SyncRun } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const relist: SyncRun.Relist = {
 *   every: 600_000,
 *   streams: Effect.succeed({
 *     subAccounts: ["sub001@broker.test"],
 *     transferStreams: SyncPlan.transferStreams(SyncPlan.defaultPairs(["sub001@broker.test"]), ["SPOT"])
 *   })
 * }
 * assert.strictEqual(relist.every, 600_000)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Relist {
  /** How often the sub-accounts are listed again (ms). */
  readonly every: number
  /** The plan as it stands now: the sub-accounts listed and their transfer streams. */
  readonly streams: Effect.Effect<
    { readonly subAccounts: ReadonlyArray<string>; readonly transferStreams: ReadonlyArray<PlannedStream> },
    BrokerError.BrokerError
  >
}

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
 * What a sync wrote: records by kind and the transactions that wrote them.
 *
 * @example
 * ```ts
 * import type { SyncRun } from "@broker-history/cli"
 *
 * const totals: SyncRun.Totals = { transfers: 0, deposits: 0, batches: 0 }
 * // Counted as batches are committed:
 * const committed = (kind: "transfers" | "deposits", records: number) => {
 *   totals[kind] += records
 *   totals.batches++
 * }
 * committed("transfers", 500)
 * committed("deposits", 12)
 * assert.deepStrictEqual(totals, { transfers: 500, deposits: 12, batches: 2 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Totals {
  transfers: number
  deposits: number
  batches: number
}

/**
 * A stream skipped because its stored checkpoint cannot be used, with the reason in one sentence.
 *
 * @example
 * ```ts
 * import { SyncRun, SyncSummary } from "@broker-history/cli"
 *
 * const damaged: SyncRun.Damaged = { stream: '["deposits"]', problem: "the checkpoint {garbage is not JSON" }
 * assert.ok(SyncSummary.damagedSentence([damaged], 5).includes(`--reset-stream '["deposits"]'`))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Damaged {
  readonly stream: string
  readonly problem: string
}

/**
 * How a sync that ran to the end went: what it wrote, what the tables hold, what it backfilled, where
 * each kind's stored history starts, and the streams it skipped.
 *
 * @example
 * ```ts
 * import { SyncRun, SyncSummary } from "@broker-history/cli"
 *
 * const outcome: SyncRun.Outcome = {
 *   totals: { transfers: 1200, deposits: 40, batches: 6 },
 *   counts: { transfers: 1200, deposits: 40 },
 *   backfilled: new Map(),
 *   coveredFrom: { transfers: 0, deposits: 0 }, // every stream holds its whole history
 *   damaged: []
 * }
 * assert.deepStrictEqual(SyncSummary.coverageLines(outcome, { defaultDeposits: undefined, depositWindow: "10d", uncovered: undefined }), [])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Outcome {
  readonly totals: Totals
  readonly counts: SyncStore.Counts
  /** Streams backfilled in this run, counted by the start they were backfilled from (Unix ms). */
  readonly backfilled: ReadonlyMap<number, number>
  /**
   * Per kind, the latest start of a stream's stored history (Unix ms): before it, at least one
   * stream of that kind has nothing. 0: every stream holds its whole history.
   */
  readonly coveredFrom: { readonly transfers: number; readonly deposits: number }
  /** Streams of the plan that were skipped, each with its reason. */
  readonly damaged: ReadonlyArray<Damaged>
}

/** The plan's cost at the start of a run: what the store holds of each stream is known by then. */
const planLine = (
  plan: PlanCost,
  specs: ReadonlyArray<SyncStreams.StreamSpec<unknown>>,
  state: SyncStreams.State,
  settings: Pick<Settings, "since" | "settlement">,
  named: ReadonlySet<string>
): string => {
  const now = Date.now()
  const streams = specs.filter((s) => !state.damaged.has(s.id)).map((s): SyncEstimate.Stream => {
    const position = state.positions.get(s.id)
    return {
      kind: s.kind,
      start: SyncPositions.startOf(settings.since, s),
      stored: position === undefined
        ? undefined
        : { checkpoint: position.checkpoint.time, coveredSince: position.coveredSince }
    }
  })
  const estimate = SyncEstimate.estimate(
    streams,
    { maxWindow: plan.maxWindow, settlement: settings.settlement, rate: plan.rate },
    now,
    plan.requests
  )
  return SyncSummary.planLine({
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
 * Runs a sync against the `SyncStore` with the `BrokerHistory` client: each stream backfills what its
 * stored history lacks, re-reads its settlement window and continues after its checkpoint, each batch
 * upserted together with the stream's checkpoint in one transaction; it ends when every stream is up to
 * date, or with `follow` never. With `follow`, outages do not end it: a stream's catch-up that the
 * service failed (after the client's retries) is run again from its committed position, and a
 * database write that failed for want of the database is written again, both without limit with
 * `outageRetry`'s backoff; each outage is logged once when it starts and once when it ends.
 *
 * @example
 * ```ts
 * import { Progress, SyncPlan, SyncRun, SyncStore } from "@broker-history/cli"
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const settings: SyncRun.Settings = {
 *   transferStreams: SyncPlan.transferStreams(SyncPlan.defaultPairs(["sub001@broker.test"]), ["SPOT"]),
 *   since: { transfers: 0, deposits: Date.now() - 30 * 86_400_000 },
 *   reset: undefined,
 *   follow: undefined,
 *   settlement: 86_400_000,
 *   concurrency: 4,
 *   batchSize: 500,
 *   batchWait: 100,
 *   log: () => {},
 *   warn: () => {}
 * }
 * const [first, second] = await Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const HistoryLive = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
 *     baseUrl: server.baseUrl,
 *     apiKey: Redacted.make(ApiKeys.demo.apiKey),
 *     secretKey: Redacted.make(ApiKeys.demo.secretKey)
 *   })))
 *   const sync = SyncRun.run(settings).pipe(Effect.scoped, Effect.provide(HistoryLive))
 *   return [yield* sync, yield* sync] as const
 * }).pipe(
 *   Effect.provide(Layer.merge(SyncStore.layer(":memory:"), Progress.layer({ label: "sync", endpoints: [], live: false }))),
 *   Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 2000, deposits: 200, subAccounts: 3 } })),
 *   Effect.runPromise
 * )
 * // Three transfer streams (master→master, master→sub001, sub001→master) and the deposits:
 * assert.ok(first.counts.transfers > 0 && first.counts.deposits > 0 && first.damaged.length === 0)
 * // The second run re-reads only the settlement window, and its upserts duplicate nothing:
 * assert.deepStrictEqual(second.counts, first.counts)
 * assert.ok(second.totals.transfers < first.totals.transfers)
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (
  settings: Settings
): Effect.Effect<
  Outcome,
  SqlError | BrokerError.BrokerError,
  Scope | SyncStore.SyncStore | BrokerHistory.BrokerHistory | Progress.Progress
> =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const profile = settings.profile ?? SyncStore.defaultProfile
    const store = (yield* SyncStore.SyncStore).forProfile(profile)
    const progress = yield* Progress.Progress
    const transferSpec = (s: PlannedStream): SyncStreams.StreamSpec<TransferRecord.TransferRecord> => ({
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
      yield* Effect.serviceOption(SyncHealth.SyncHealth)
    ) ?? (yield* SyncHealth.make({
      interval: settings.follow,
      retry: settings.outageRetry ?? defaultOutageRetry,
      profiles: [profile]
    }))
    const mine = health?.profile(profile)
    const resilience: SyncStreams.Resilience = health === undefined || mine === undefined
      ? SyncStreams.asItIs
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
      settings.log(SyncSummary.resetLine(settings.reset, deleted))
    }

    // Grows while following with discovery: the streams of sub-accounts found later join it.
    const specs: Array<SyncStreams.StreamSpec<any>> = [
      {
        id: SyncPlan.depositStreamId,
        kind: "deposits",
        plain: (r) => history.deposits({ ...r, concurrency: 2 }),
        changes: (o) => history.depositChanges({ ...o, concurrency: 2 }),
        apply: (records, position) => store.applyDeposits(SyncPlan.depositStreamId, records, position),
        time: (d: DepositRecord.DepositRecord) => d.insertTime
      } satisfies SyncStreams.StreamSpec<DepositRecord.DepositRecord>,
      ...settings.transferStreams.map(transferSpec)
    ]

    // What is stored for the plan's streams: where each starts, or why it is skipped.
    const stored = yield* resilience.database(store.streams)
    const state: SyncStreams.State = {
      ...SyncPositions.read(stored, specs.map((s) => s.id), Date.now()),
      totals: { transfers: 0, deposits: 0, batches: 0 },
      backfilled: new Map()
    }
    const { damaged, totals } = state
    const write = SyncStreams.writer(state, progress, resilience)

    const damagedList = (): ReadonlyArray<Damaged> =>
      specs.filter((s) => damaged.has(s.id)).map((s) => ({ stream: s.id, problem: damaged.get(s.id)! }))

    // The sub-accounts some stored stream names: the others of a discovered plan are new.
    const named = SyncPositions.namedAccounts(stored.keys())
    if (settings.plan !== undefined) settings.log(planLine(settings.plan, specs, state, settings, named))

    const catchUp = SyncStreams.catchUp(settings, state, store, write, resilience)
    // Catch up with bounded concurrency (the client's rate limiter bounds the requests).
    yield* Effect.all(specs.map(catchUp), { concurrency: settings.concurrency, discard: true })
    const caughtUp = yield* resilience.database(store.counts)
    const coveredFrom = SyncPositions.coveredFrom(specs, state.positions, damaged, settings.since)
    const outcome = (): Outcome => ({
      totals,
      counts: caughtUp,
      backfilled: state.backfilled,
      coveredFrom,
      damaged: damagedList()
    })
    if (settings.follow === undefined) return outcome()

    if (damaged.size > 0) settings.warn(SyncSummary.damagedSentence(damagedList(), specs.length))
    settings.log(SyncFollow.caughtUpLine(Date.now(), caughtUp, settings.follow))
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
              Effect.sync(() =>
                settings.warn(SyncFollow.listFailedLine(Date.now(), firstLine(e.message), relist.every))
              ),
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
          settings.log(SyncFollow.discoveredLine(Date.now(), newAccounts, fresh.length))
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
    yield* SyncFollow.follow(
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
    (run) => settings.profile === undefined || settings.profile === SyncStore.defaultProfile
      ? run
      : Effect.annotateLogs(run, "profile", settings.profile)
  )
