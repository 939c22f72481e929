/**
 * The streams of the follow-at-scale benchmark (`Staleness`): every sub-account × both directions
 * (master → sub, sub → master) × two account-type pairs (SPOT → FUTURES, FUTURES → SPOT), each
 * stream's query and the transfer rows inserted into it. Pure: values in, values out.
 *
 * @since 0.2.0
 */
import { Seed } from "@broker-history/server"
import type { Store } from "@broker-history/server"

/**
 * One followed stream: its index, sub-account, direction and account-type pair.
 *
 * @example
 * import * as FollowStreams from "@broker-history/bench/FollowStreams"
 * const toSub = (s: FollowStreams.StreamSpec) => s.toSub
 */
export interface StreamSpec {
  readonly id: number
  readonly sub: string
  readonly toSub: boolean
  readonly types: readonly [string, string]
}

const typePairs: ReadonlyArray<readonly [string, string]> = [["SPOT", "FUTURES"], ["FUTURES", "SPOT"]]

/**
 * The 4 streams of each of `subAccounts` sub-accounts, numbered from 0.
 *
 * @example
 * import * as FollowStreams from "@broker-history/bench/FollowStreams"
 * FollowStreams.streamsOf(5).length // 20
 */
export const streamsOf = (subAccounts: number): ReadonlyArray<StreamSpec> =>
  Seed.subAccountNames(subAccounts).flatMap((sub) =>
    [true, false].flatMap((toSub) => typePairs.map((types) => ({ sub, toSub, types })))
  ).map((s, id) => ({ id, ...s }))

/**
 * The follower's query of stream `s` from `since`, tagged with the stream's index.
 *
 * @example
 * import * as FollowStreams from "@broker-history/bench/FollowStreams"
 * const first = FollowStreams.queryOf(FollowStreams.streamsOf(1)[0]!, 0)
 */
export const queryOf = (s: StreamSpec, since: number) => ({
  stream: s.id,
  query: {
    fromAccountType: s.types[0] as "SPOT",
    toAccountType: s.types[1] as "FUTURES",
    ...(s.toSub ? { toAccount: s.sub } : { fromAccount: s.sub }),
    since
  }
})

/**
 * A transfer of stream `s` with id `tranId` at `timestamp`, as the service's store holds it.
 *
 * @example
 * import * as FollowStreams from "@broker-history/bench/FollowStreams"
 * const row = FollowStreams.rowOf(FollowStreams.streamsOf(1)[0]!, 70_000_000_000, Date.now())
 */
export const rowOf = (s: StreamSpec, tranId: number, timestamp: number): Store.TransferRow => ({
  tranId: String(tranId),
  clientTranId: null,
  fromAccount: s.toSub ? null : s.sub,
  toAccount: s.toSub ? s.sub : null,
  asset: "USDT",
  amount: `${1 + (tranId % 997)}.${String(tranId % 100_000_000).padStart(8, "0")}`,
  fromAccountType: s.types[0],
  toAccountType: s.types[1],
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp
})
