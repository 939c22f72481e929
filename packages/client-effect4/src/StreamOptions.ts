/**
 * The options of the full-history streams (`BrokerHistory.transfers`, `deposits`, `transferChanges`,
 * `depositChanges`): the range, the reading options, the filters of each history and follow mode; and
 * the bound of the sub-account list's stream (`BrokerHistory.subAccounts`). Every option's rule, and
 * the `InvalidQuery` that names an option breaking it before anything is sent: docs/streams.md,
 * "Options and their rules".
 *
 * @since 0.2.0
 */
import type { TransferHistoryQuery } from "@broker-history/domain-effect4"
import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import type * as Checkpoint from "./Checkpoint.js"

/**
 * Follow mode: after reaching `until`, poll every `interval` for new records, re-reading the last
 * `settlement` (default 1 day) so that late records and records whose status changed are seen.
 *
 * @example
 * ```ts
 * import { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const follow: StreamOptions.FollowOptions = { interval: "30 seconds", settlement: "2 days" }
 * const liveDeposits = Stream.unwrap(
 *   BrokerHistory.BrokerHistory.useSync((history) => history.depositChanges({ coin: "USDT", follow }))
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface FollowOptions {
  readonly interval: Duration.Input
  readonly settlement?: Duration.Input | undefined
}

/**
 * Range and reading options shared by both full-history streams.
 *
 * @example
 * ```ts
 * import { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const firstQuarter: StreamOptions.StreamOptions = {
 *   since: "2025-01-01T00:00:00Z",
 *   until: "2025-03-31T23:59:59.999Z",
 *   concurrency: 4
 * }
 * const transfers = Stream.unwrap(
 *   BrokerHistory.BrokerHistory.useSync((history) =>
 *     history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...firstQuarter })
 *   )
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface StreamOptions {
  /** Start of the range (inclusive): any `DateTime.DateTime.Input` (Date, ISO text, Unix ms). Default: `until` − 365 days. */
  readonly since?: DateTime.DateTime.Input | undefined
  /** End of the range (inclusive), pinned once at start. Default: the server's now. */
  readonly until?: DateTime.DateTime.Input | undefined
  /** Continue after a checkpoint from `transferChanges` / `depositChanges` (ignores `since` before it). */
  readonly resume?: Checkpoint.Checkpoint | undefined
  /** Page size: default and maximum is the endpoint's maximum (500 transfers, 1000 deposits). */
  readonly limit?: number | undefined
  /** Windows fetched ahead concurrently (1..16, default 1 = strictly lazy); output order is kept. */
  readonly concurrency?: number | undefined
}

/**
 * The options of a change stream: the range options, and `follow` to keep it running.
 *
 * @example
 * ```ts
 * import { BrokerHistory, Checkpoint, StreamOptions } from "@broker-history/client-effect4"
 * import { Result, Stream } from "effect"
 *
 * const stored = Result.getOrThrow(Checkpoint.decode(`{"time":1735689600000,"ids":["42"]}`))
 * const options: StreamOptions.ChangeOptions = { resume: stored, follow: { interval: "1 minute" } }
 * const changes = Stream.unwrap(
 *   BrokerHistory.BrokerHistory.useSync((history) =>
 *     history.transferChanges({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...options })
 *   )
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface ChangeOptions extends StreamOptions {
  /** Never end: after reaching `until`, keep polling for new records and updates. */
  readonly follow?: FollowOptions | undefined
}

/**
 * A full-history transfer query: the filters of `TransferHistoryQuery` plus the range options.
 *
 * @example
 * ```ts
 * import { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const query: StreamOptions.TransferStreamQuery = {
 *   fromAccountType: "SPOT",
 *   toAccountType: "SPOT",
 *   toAccount: "sub@test.com",
 *   since: "2024-01-01"
 * }
 * const count = BrokerHistory.BrokerHistory.use((history) => Stream.runCount(history.transfers(query)))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferStreamQuery extends StreamOptions {
  readonly fromAccountType: TransferHistoryQuery.TransferHistoryQuery["fromAccountType"]
  readonly toAccountType: TransferHistoryQuery.TransferHistoryQuery["toAccountType"]
  readonly fromAccount?: string | undefined
  readonly toAccount?: string | undefined
  readonly clientTranId?: string | undefined
}

/**
 * A full-history deposit query: `coin` / `status` filters plus the range options.
 *
 * @example
 * ```ts
 * import { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const query: StreamOptions.DepositStreamQuery = { coin: "USDT", status: "5", since: Date.now() - 30 * 86_400_000 }
 * const credited = BrokerHistory.BrokerHistory.use((history) => Stream.runCollect(history.deposits(query)))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface DepositStreamQuery extends StreamOptions {
  readonly coin?: string | undefined
  readonly status?: string | undefined
}

/**
 * The lookback used when `since` is not given.
 *
 * @example
 * ```ts
 * import { StreamOptions } from "@broker-history/client-effect4"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(StreamOptions.defaultLookback), 365)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultLookback: Duration.Duration = Duration.days(365)

/**
 * The settlement window used when `follow.settlement` is not given.
 *
 * @example
 * ```ts
 * import { StreamOptions } from "@broker-history/client-effect4"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(StreamOptions.defaultSettlement), 1)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultSettlement: Duration.Duration = Duration.days(1)

/**
 * The options of `BrokerHistory.subAccounts`, the stream of the broker's whole sub-account list.
 *
 * @example
 * ```ts
 * import { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const options: StreamOptions.SubAccountOptions = { maxSubAccounts: 5_000 }
 * const names = BrokerHistory.BrokerHistory.use((history) =>
 *   Stream.runCollect(history.subAccounts(options).pipe(Stream.map((s) => s.subAccount)))
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountOptions {
  /**
   * The most distinct sub-accounts read (1..1,000,000, default `defaultMaxSubAccounts`): a longer list
   * fails with `SubAccountListTooLong` instead of growing the set of names read without end.
   */
  readonly maxSubAccounts?: number | undefined
}

/**
 * The bound of `SubAccountOptions.maxSubAccounts` when not given.
 *
 * @example
 * ```ts
 * import { StreamOptions } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(StreamOptions.defaultMaxSubAccounts, 100_000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMaxSubAccounts = 100_000

/**
 * The largest `SubAccountOptions.maxSubAccounts`: the names read are kept (to emit each once), so the
 * bound bounds memory.
 *
 * @example
 * ```ts
 * import { StreamOptions } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(StreamOptions.maxSubAccountsLimit, 1_000_000)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const maxSubAccountsLimit = 1_000_000
