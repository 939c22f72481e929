/**
 * Which transfer streams cover a broker's history. One transfer query covers one account pair and
 * one ordered pair of account types, and an omitted account is the master account
 * (docs/wire-contract.md), so the whole broker is: for every sub-account and every ordered pair of
 * account types, master→sub and sub→master, plus the master's own transfers; explicit pairs
 * (sub→sub included) may be given instead or besides. Each planned stream carries its stable key
 * and, when the sub-account list gave a creation time, where its history starts
 * (docs/streams.md, "Planning the whole broker"). Each line's client re-exports it as its
 * `TransferPlan`.
 *
 * @since 0.2.0
 */
import type * as SubAccount from "../record/SubAccount.js"

/**
 * A sub-account: its name, or its record from the list (`BrokerHistory.subAccounts`), which also
 * gives its creation time.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const accounts: ReadonlyArray<TransferPlan.Account> = [
 *   "sub001@broker.test",
 *   { subAccount: "sub002@broker.test", note: "", timestamp: 1700000000000 }
 * ]
 * assert.deepStrictEqual(accounts.map(TransferPlan.nameOf), ["sub001@broker.test", "sub002@broker.test"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Account = string | SubAccount.SubAccount

/**
 * An account pair, `undefined` for the master account; without account types it stands for every
 * ordered pair of the plan's account types.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const subToSub: TransferPlan.Pair = { fromAccount: "a@x", toAccount: "b@x" }
 * const spotOnly: TransferPlan.Pair = { ...subToSub, fromAccountType: "SPOT", toAccountType: "SPOT" }
 * assert.strictEqual(TransferPlan.streams([subToSub], ["SPOT", "FUTURES"]).length, 4)
 * assert.strictEqual(TransferPlan.streams([spotOnly], ["SPOT", "FUTURES"]).length, 1)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Pair {
  readonly fromAccount: Account | undefined
  readonly toAccount: Account | undefined
  readonly fromAccountType?: string | undefined
  readonly toAccountType?: string | undefined
}

/**
 * The filters of one planned stream, as `BrokerHistory.transferChanges` and `followTransfers` take
 * them (an account omitted: the master account).
 *
 * @example
 * ```ts
 * import type * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const query: TransferPlan.TransferQuery = { fromAccountType: "SPOT", toAccountType: "SPOT", toAccount: "a@x" }
 * assert.strictEqual(query.fromAccount, undefined) // the master account
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface TransferQuery {
  readonly fromAccountType: string
  readonly toAccountType: string
  readonly fromAccount?: string | undefined
  readonly toAccount?: string | undefined
}

/**
 * One planned transfer stream: its stable `key` (see `key`), its query, and `startsAt`: the creation
 * time (Unix ms) of its sub-account, the later of the two for a sub→sub pair, when the list gave one
 * (no transfer of the pair can be older); `undefined` for the master's own stream and for names
 * without a known creation time.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const [planned] = TransferPlan.streams(
 *   [{ fromAccount: undefined, toAccount: { subAccount: "a@x", note: "", timestamp: 1700000000000 } }],
 *   ["SPOT"]
 * )
 * assert.deepStrictEqual(planned, {
 *   key: '["transfers","SPOT","SPOT",null,"a@x"]',
 *   query: { fromAccountType: "SPOT", toAccountType: "SPOT", toAccount: "a@x" },
 *   startsAt: 1700000000000
 * })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface PlannedStream {
  readonly key: string
  readonly query: TransferQuery
  readonly startsAt: number | undefined
}

/**
 * The stable key of a transfer stream: its filters as a JSON array, `null` for the master account
 * (`["transfers", fromType, toType, fromAccount, toAccount]`). Checkpoints are stored under it, so it
 * never changes.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * assert.strictEqual(
 *   TransferPlan.key({ fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" }),
 *   '["transfers","SPOT","FUTURES",null,"sub001@broker.test"]'
 * )
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const key = (query: TransferQuery): string =>
  JSON.stringify([
    "transfers",
    query.fromAccountType,
    query.toAccountType,
    query.fromAccount ?? null,
    query.toAccount ?? null
  ])

/**
 * The name of an account.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * assert.strictEqual(TransferPlan.nameOf("a@x"), "a@x")
 * assert.strictEqual(TransferPlan.nameOf({ subAccount: "b@x", note: "", timestamp: undefined }), "b@x")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const nameOf = (account: Account): string => typeof account === "string" ? account : account.subAccount

/**
 * When an account was created, as far as it says: a listed record's creation time, `undefined` for a
 * plain name or the master account.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * assert.strictEqual(TransferPlan.createdAt({ subAccount: "b@x", note: "", timestamp: 1700000000000 }), 1700000000000)
 * assert.strictEqual(TransferPlan.createdAt("a@x"), undefined)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const createdAt = (account: Account | undefined): number | undefined =>
  account === undefined || typeof account === "string" ? undefined : account.timestamp

/**
 * Every ordered pair of account types, repetition included (SPOT→SPOT is a transfer between two
 * accounts' spot wallets).
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * assert.deepStrictEqual(TransferPlan.typePairs(["SPOT", "FUTURES"]), [
 *   ["SPOT", "SPOT"],
 *   ["SPOT", "FUTURES"],
 *   ["FUTURES", "SPOT"],
 *   ["FUTURES", "FUTURES"]
 * ])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const typePairs = (types: ReadonlyArray<string>): ReadonlyArray<readonly [string, string]> =>
  types.flatMap((from) => types.map((to) => [from, to] as const))

/**
 * The pairs that cover sub-accounts: the master's own (master→master), and master→sub and sub→master
 * for every sub-account, in the order given.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * assert.deepStrictEqual(TransferPlan.defaultPairs(["a@x"]), [
 *   { fromAccount: undefined, toAccount: undefined },
 *   { fromAccount: undefined, toAccount: "a@x" },
 *   { fromAccount: "a@x", toAccount: undefined }
 * ])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const defaultPairs = (subAccounts: Iterable<Account>): ReadonlyArray<Pair> => {
  const pairs: Array<Pair> = [{ fromAccount: undefined, toAccount: undefined }]
  for (const sub of subAccounts) {
    pairs.push({ fromAccount: undefined, toAccount: sub }, { fromAccount: sub, toAccount: undefined })
  }
  return pairs
}

/**
 * `pairs` with each sub-account named in `listed` replaced by its record there, so that its creation
 * time reaches the plan (for pairs read as names, e.g. from a file, and the list read from the
 * service). Names not listed stay as they are.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const listed = [{ subAccount: "b@x", note: "", timestamp: 1700000000000 }]
 * const [pair] = TransferPlan.withListed([{ fromAccount: "a@x", toAccount: "b@x" }], listed)
 * assert.deepStrictEqual(pair, { fromAccount: "a@x", toAccount: listed[0] })
 * ```
 *
 * @since 0.2.0
 * @category combinators
 */
export const withListed = (pairs: Iterable<Pair>, listed: Iterable<SubAccount.SubAccount>): ReadonlyArray<Pair> => {
  const byName = new Map<string, SubAccount.SubAccount>()
  for (const record of listed) byName.set(record.subAccount, record)
  const resolve = (account: Account | undefined): Account | undefined =>
    account === undefined ? undefined : byName.get(nameOf(account)) ?? account
  return Array.from(pairs, (pair) => ({
    ...pair,
    fromAccount: resolve(pair.fromAccount),
    toAccount: resolve(pair.toAccount)
  }))
}

// Where the history of a pair starts: the later known creation time of its accounts.
const startOf = (pair: Pair): number | undefined => {
  const from = createdAt(pair.fromAccount)
  const to = createdAt(pair.toAccount)
  return from === undefined ? to : to === undefined ? from : Math.max(from, to)
}

/**
 * The transfer streams of `pairs` for `accountTypes`, each once (the first place it appears). When the
 * same stream is planned twice with different starts, the earlier wins, and no start (`undefined`)
 * is the earliest: a stream is never started later than one of its mentions allows.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const planned = TransferPlan.streams(TransferPlan.defaultPairs(["a@x", "b@x"]), ["SPOT", "FUTURES"])
 * assert.strictEqual(planned.length, 5 * 4) // 5 pairs × 4 ordered account-type pairs
 * // The same pair twice is one stream:
 * assert.strictEqual(TransferPlan.streams(TransferPlan.defaultPairs(["a@x", "a@x"]), ["SPOT"]).length, 3)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const streams = (
  pairs: Iterable<Pair>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<PlannedStream> => {
  const byKey = new Map<string, PlannedStream>()
  const everyType = typePairs(accountTypes)
  for (const pair of pairs) {
    const types: ReadonlyArray<readonly [string, string]> =
      pair.fromAccountType !== undefined && pair.toAccountType !== undefined
        ? [[pair.fromAccountType, pair.toAccountType]]
        : everyType
    const startsAt = startOf(pair)
    for (const [fromAccountType, toAccountType] of types) {
      const query: TransferQuery = {
        fromAccountType,
        toAccountType,
        ...(pair.fromAccount === undefined ? {} : { fromAccount: nameOf(pair.fromAccount) }),
        ...(pair.toAccount === undefined ? {} : { toAccount: nameOf(pair.toAccount) })
      }
      const k = key(query)
      const planned = byKey.get(k)
      if (planned === undefined) {
        byKey.set(k, { key: k, query, startsAt })
      } else if (planned.startsAt !== undefined && (startsAt === undefined || startsAt < planned.startsAt)) {
        byKey.set(k, { ...planned, startsAt })
      }
    }
  }
  return [...byKey.values()]
}

/**
 * The streams that cover sub-accounts and the master account for `accountTypes`:
 * `streams(defaultPairs(subAccounts), accountTypes)`.
 *
 * @example
 * ```ts
 * import * as TransferPlan from "@broker-history/core/plan/TransferPlan"
 *
 * const listed = [
 *   { subAccount: "a@x", note: "", timestamp: 1700000000000 },
 *   { subAccount: "b@x", note: "", timestamp: undefined }
 * ]
 * const planned = TransferPlan.ofSubAccounts(listed, ["SPOT", "FUTURES"])
 * assert.strictEqual(planned.length, (1 + 2 * 2) * 4)
 * assert.deepStrictEqual(
 *   planned.filter((s) => s.query.toAccount === "a@x").map((s) => s.startsAt),
 *   [1700000000000, 1700000000000, 1700000000000, 1700000000000]
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const ofSubAccounts = (
  subAccounts: Iterable<Account>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<PlannedStream> => streams(defaultPairs(subAccounts), accountTypes)
