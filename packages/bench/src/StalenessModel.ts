/**
 * The follow-at-scale benchmark's settings and results (shared by Staleness and the parts it runs).
 */
/**
 * The setting of a run. Rates and durations are simulated (at budget `rate`); the run is `scale`
 * times faster.
 *
 * @example
 * import type { Staleness } from "@broker-history/bench"
 * const tiny: Staleness.Options = {
 *   subAccounts: 5, rate: 20, scale: 4, minutes: 0.5, insertsPerSecond: 1, zipf: 1.5, seed: 1,
 *   history: 100, minIntervalMillis: 1_000, maxIntervalMillis: 20_000, settlementMillis: 2_000, concurrency: 8,
 *   marginMillis: 100, rounds: 1
 * }
 */
export interface Options {
  /** Sub-accounts: 4 streams each. */
  readonly subAccounts: number
  /**
   * Budget of each key, requests per second (simulated); the service allows the same rate in the
   * exchange's shape, `rate` × 10 per 10 s.
   */
  readonly rate: number
  /** Time compression: the run is this many times faster than the time it simulates. */
  readonly scale: number
  /** Measured minutes of inserts (simulated), after the warm-up. */
  readonly minutes: number
  /** Inserts per second over all streams (simulated). */
  readonly insertsPerSecond: number
  /** Exponent of the Zipf law of inserts over the streams' ranking. */
  readonly zipf: number
  readonly seed: number
  /** Transfers in the seeded history (all before the run). */
  readonly history: number
  /** The adaptive schedule's intervals (simulated ms). */
  readonly minIntervalMillis: number
  readonly maxIntervalMillis: number
  /** Settlement window every poll re-reads (real ms: records' times are the service's clock). */
  readonly settlementMillis: number
  /** Polls in flight at most, each follower. */
  readonly concurrency: number
  /** The client budget's margin (real ms): answers of a loaded service arrive with jitter. */
  readonly marginMillis: number
  /** Rounds: each runs both followers one after the other, the first alternating. */
  readonly rounds: number
}

/** The two followers. */
export type Label = "adaptive" | "round-robin"

/**
 * One follower's figures. Staleness in simulated ms.
 *
 * @example
 * import type { Staleness } from "@broker-history/bench"
 * const ok = (r: Staleness.Run) => r.missed === 0 && r.rateLimited === 0
 */
export interface Run {
  readonly label: Label
  /** Records inserted in all, and in the measured part (each follower has its own run of the inserts). */
  readonly inserted: number
  readonly measured: number
  readonly requests: number
  /** Requests per second achieved over the run (simulated), against the budget `rate`. */
  readonly requestRate: number
  readonly rateLimited: number
  /** When each 429 was answered: real seconds after the follower started. */
  readonly rateLimitedAt: ReadonlyArray<number>
  /** Measured records emitted. */
  readonly emitted: number
  /** Inserted records (warm-up included) never emitted. */
  readonly missed: number
  /** Records emitted more than once. */
  readonly repeated: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  /** Staleness by the rank of the record's stream in the Zipf law: records, p50 and p99 per group. */
  readonly byRank: ReadonlyArray<RankGroup>
  /**
   * Where requests bunched up (real ms): more than the service's limit within one of its windows, as
   * the client sent them (`sendBunches`) and as the service received them (`arrivalBunches`); and the
   * bench process's event-loop delay (p99, max).
   */
  readonly sendBunches: number
  readonly arrivalBunches: number
  readonly loopDelayP99: number
  readonly loopDelayMax: number
}

/**
 * The staleness of the records of the streams ranked `from`..`to` (1 = busiest).
 *
 * @example
 * import type { Staleness } from "@broker-history/bench"
 * const label = (g: Staleness.RankGroup) => `ranks ${g.from}-${g.to}: ${g.records} records`
 */
export interface RankGroup {
  readonly from: number
  readonly to: number
  readonly records: number
  readonly p50: number
  readonly p99: number
}

/**
 * One round: each follower alone with the service, one after the other, over the same seeded inserts.
 *
 * @example
 * import type { Staleness } from "@broker-history/bench"
 * const gain = (r: Staleness.Round) => r.roundRobin.p99 / r.adaptive.p99
 */
export interface Round {
  /** The follower that ran first (rounds alternate). */
  readonly first: Label
  readonly adaptive: Run
  readonly roundRobin: Run
}

/**
 * Every round.
 *
 * @example
 * import type { Staleness } from "@broker-history/bench"
 * const gains = (r: Staleness.Result) => r.rounds.map((round) => round.roundRobin.p99 / round.adaptive.p99)
 */
export interface Result {
  readonly options: Options
  readonly streams: number
  /** One pass over every stream at the budget (simulated ms): round-robin's cycle. */
  readonly cycleMillis: number
  readonly rounds: ReadonlyArray<Round>
  readonly wallMillis: number
}
