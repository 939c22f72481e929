/**
 * What a sync run is told (see `Run`): its streams, where each kind's history starts, resets,
 * following, batching, where its lines go, what its plan costs and how it finds new sub-accounts.
 *
 * @internal
 */
import type { BrokerError } from "@broker-history/client"
import type * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import type * as Plan from "../plan/Plan.js"

/**
 * What a sync does: its transfer streams, where each kind's history starts, the checkpoints to reset,
 * following, the settlement window, concurrency and batching, and where its lines go.
 */
export interface Settings {
  /** Whose rows and checkpoints these are (`Store.Service.forProfile`); default `Store.defaultProfile`. */
  readonly profile?: string | undefined
  /**
   * The transfer streams; one with `startsAt` (a sub-account's creation, Unix ms) reads nothing before
   * it, whatever `since` says, and counts as whole once it holds everything from it.
   */
  readonly transferStreams: ReadonlyArray<Plan.PlannedStream>
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
   * What the plan costs, said in one line before the catch-up (`Summary.planLine`): the key's
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

/** What a sync needs to say what its plan costs (`Settings.plan`). */
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

/** How a following sync with discovery finds new sub-accounts (`Settings.relist`). */
export interface Relist {
  /** How often the sub-accounts are listed again (ms). */
  readonly every: number
  /** The plan as it stands now: the sub-accounts listed and their transfer streams. */
  readonly streams: Effect.Effect<
    { readonly subAccounts: ReadonlyArray<string>; readonly transferStreams: ReadonlyArray<Plan.PlannedStream> },
    BrokerError.BrokerError
  >
}
