/**
 * Which streams a sync reads. One transfer query covers one account pair and one account-type pair,
 * and an omitted account is the master account (docs/wire-contract.md), so the default plan is: for every listed
 * sub-account and every ordered pair of account types, master→sub and sub→master, plus the master's
 * own transfers for every ordered pair of account types; and one deposit stream. A pairs file lists
 * account pairs explicitly instead (sub→sub included). The plan itself is the client's
 * (`TransferPlan`); this module keeps the command line's names for it and reads its flags and files.
 *
 * @since 0.1.0
 */
import { TransferPlan } from "@broker-history/client"
import * as Either from "effect/Either"
import * as Choices from "./Choices.js"

/**
 * One transfer stream of a sync: its query filters, and the id its checkpoint is stored under.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * const stream: SyncPlan.TransferStream = SyncPlan.transferStream({
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   toAccount: "sub001@broker.test"
 * })
 * assert.strictEqual(stream.id, '["transfers","SPOT","FUTURES",null,"sub001@broker.test"]')
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface TransferStream {
  readonly id: string
  readonly query: {
    readonly fromAccountType: string
    readonly toAccountType: string
    readonly fromAccount?: string | undefined
    readonly toAccount?: string | undefined
  }
}

/**
 * The id the deposit stream's checkpoint is stored under.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncPlan.depositStreamId, '["deposits"]')
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const depositStreamId = JSON.stringify(["deposits"])

/**
 * A transfer stream with its id: the filters as a JSON array, `null` for the master account.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   SyncPlan.transferStream({ fromAccountType: "SPOT", toAccountType: "SPOT" }).id,
 *   '["transfers","SPOT","SPOT",null,null]'
 * )
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const transferStream = (query: TransferStream["query"]): TransferStream => ({
  id: TransferPlan.key(query),
  query
})

/**
 * An account pair, `undefined` for the master account; without account types it stands for every
 * ordered pair of the sync's account types.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * const subToSub: SyncPlan.Pair = { fromAccount: "a@x", toAccount: "b@x" }
 * const spotOnly: SyncPlan.Pair = { ...subToSub, fromAccountType: "SPOT", toAccountType: "SPOT" }
 * assert.strictEqual(SyncPlan.transferStreams([subToSub], ["SPOT", "FUTURES"]).length, 4)
 * assert.strictEqual(SyncPlan.transferStreams([spotOnly], ["SPOT", "FUTURES"]).length, 1)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Pair {
  readonly fromAccount: string | undefined
  readonly toAccount: string | undefined
  readonly fromAccountType?: string | undefined
  readonly toAccountType?: string | undefined
}

/**
 * Every ordered pair of account types, repetition included (SPOT→SPOT is a transfer between two
 * accounts' spot wallets).
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(SyncPlan.typePairs(["SPOT", "FUTURES"]), [
 *   ["SPOT", "SPOT"],
 *   ["SPOT", "FUTURES"],
 *   ["FUTURES", "SPOT"],
 *   ["FUTURES", "FUTURES"]
 * ])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const typePairs: (types: ReadonlyArray<string>) => ReadonlyArray<readonly [string, string]> =
  TransferPlan.typePairs

/**
 * The default pairs: master→master, and master→sub and sub→master for every sub-account.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(SyncPlan.defaultPairs(["a@x"]), [
 *   { fromAccount: undefined, toAccount: undefined },
 *   { fromAccount: undefined, toAccount: "a@x" },
 *   { fromAccount: "a@x", toAccount: undefined }
 * ])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultPairs = (subAccounts: ReadonlyArray<string>): ReadonlyArray<Pair> =>
  // Names in, names out: the client's pairs only hold the accounts given.
  TransferPlan.defaultPairs(subAccounts) as ReadonlyArray<Pair>

/**
 * The transfer streams of a set of pairs for the given account types, without duplicates.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * const streams = SyncPlan.transferStreams(SyncPlan.defaultPairs(["a@x", "b@x"]), ["SPOT", "FUTURES"])
 * assert.strictEqual(streams.length, 5 * 4) // 5 pairs × 4 ordered account-type pairs
 * // The same pair twice is one stream:
 * assert.strictEqual(SyncPlan.transferStreams(SyncPlan.defaultPairs(["a@x", "a@x"]), ["SPOT"]).length, 3)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const transferStreams = (
  pairs: ReadonlyArray<Pair>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<TransferStream> =>
  TransferPlan.streams(pairs, accountTypes).map((planned) => ({ id: planned.key, query: planned.query }))

const lines = (text: string) =>
  text.split(/\r?\n/).map((l, i) => [i + 1, l.replace(/#.*$/, "").trim()] as const).filter(([, l]) => l !== "")

/**
 * A list of names: comma- or line-separated, `#` starts a comment, blanks and repetitions dropped.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(SyncPlan.names("a@x, b@x\n# c@x is closed\nd@x\na@x"), ["a@x", "b@x", "d@x"])
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const names = (text: string): ReadonlyArray<string> => [
  ...new Set(lines(text).flatMap(([, l]) => l.split(",").map((n) => n.trim()).filter((n) => n !== "")))
]

const masterWords = new Set(["-", "master"])

const account = (word: string): string | undefined => masterWords.has(word.toLowerCase()) ? undefined : word

/**
 * Reads a pairs file: one pair a line, `FROM TO` or `FROM TO FROM_TYPE TO_TYPE`, where `-` or `master` is
 * the master account and `#` starts a comment; an account type is a word in any letter case, read
 * in the exchange's spelling (`Choices.accountType`).
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(
 *   SyncPlan.parsePairs("- sub001@x      # master to sub001\nsub001@x sub002@x spot FUTURES"),
 *   Either.right([
 *     { fromAccount: undefined, toAccount: "sub001@x" },
 *     { fromAccount: "sub001@x", toAccount: "sub002@x", fromAccountType: "SPOT", toAccountType: "FUTURES" }
 *   ])
 * )
 * assert.deepStrictEqual(
 *   SyncPlan.parsePairs("a@x b@x SPOT FUTURES/USDT"),
 *   Either.left(
 *     `line 1: TO_TYPE: "FUTURES/USDT" is not an account type: write one word of letters, digits and _ ` +
 *       "(the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)"
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parsePairs = (text: string): Either.Either<ReadonlyArray<Pair>, string> => {
  const out: Array<Pair> = []
  for (const [n, line] of lines(text)) {
    const words = line.split(/\s+/)
    if (words.length !== 2 && words.length !== 4) {
      return Either.left(
        `line ${n}: expected "FROM TO" or "FROM TO FROM_TYPE TO_TYPE" (- or master for the master account), got ${
          JSON.stringify(line)
        }`
      )
    }
    let types = {}
    if (words.length === 4) {
      // One word each, in the exchange's spelling (`spot` is read as `SPOT`); the service judges it.
      const from = Choices.accountType(`line ${n}: FROM_TYPE`, words[2])
      if (Either.isLeft(from)) return Either.left(from.left)
      const to = Choices.accountType(`line ${n}: TO_TYPE`, words[3])
      if (Either.isLeft(to)) return Either.left(to.left)
      types = { fromAccountType: from.right, toAccountType: to.right }
    }
    out.push({ fromAccount: account(words[0]), toAccount: account(words[1]), ...types })
  }
  return out.length === 0 ? Either.left("the pairs file lists no pair") : Either.right(out)
}

/**
 * What a plan of sub-accounts does not read, as a sentence for the sync summary, or `undefined` when it
 * leaves out nothing it could name: transfers between two sub-accounts are read only through `--pairs`.
 * With `discovered` the sub-accounts are the ones the service listed, and the sentence says so without
 * asking for a list.
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   SyncPlan.uncovered(["a@x", "b@x", "c@x"], ["SPOT", "FUTURES"]),
 *   "sub→sub transfers are not read: 6 ordered sub-account pairs × 4 account-type pairs not covered; list them with --pairs FILE"
 * )
 * assert.strictEqual(SyncPlan.uncovered(["a@x"], ["SPOT", "FUTURES"]), undefined)
 * assert.strictEqual(
 *   SyncPlan.uncovered(["a@x", "b@x"], ["SPOT"], true),
 *   "sub→sub transfers are not read: 2 ordered pairs of the 2 sub-accounts the service listed × 1 account-type pair " +
 *     "(a transfer between two sub-accounts is read only for a pair a pairs file names)"
 * )
 * assert.strictEqual(
 *   SyncPlan.uncovered([], ["SPOT"], true),
 *   "the service lists no sub-account: only the master account's own transfers are read"
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const uncovered = (
  subAccounts: ReadonlyArray<string>,
  accountTypes: ReadonlyArray<string>,
  discovered = false
): string | undefined => {
  const n = subAccounts.length
  if (n === 0) {
    return discovered
      ? "the service lists no sub-account: only the master account's own transfers are read"
      : "only the master account's own transfers are read; name sub-accounts with --sub-accounts or --sub-accounts-file, or list pairs with --pairs FILE"
  }
  if (n === 1) return undefined
  const types = typePairs(accountTypes).length
  const typeText = `${types} account-type ${types === 1 ? "pair" : "pairs"}`
  return discovered
    ? `sub→sub transfers are not read: ${
      n * (n - 1)
    } ordered pairs of the ${n} sub-accounts the service listed × ${typeText} (a transfer between two sub-accounts is read only for a pair a pairs file names)`
    : `sub→sub transfers are not read: ${
      n * (n - 1)
    } ordered sub-account pairs × ${typeText} not covered; list them with --pairs FILE`
}

/**
 * Changes of several streams, in arrival order, grouped by stream: each stream's changes in their
 * order, the streams in the order they first appear (a batch of a merged follow stream, written one
 * stream at a time, each with its last checkpoint).
 *
 * @example
 * ```ts
 * import { SyncPlan } from "@broker-history/cli"
 *
 * const changes = [{ stream: "a", n: 1 }, { stream: "b", n: 2 }, { stream: "a", n: 3 }]
 * assert.deepStrictEqual(SyncPlan.byStream(changes), [
 *   ["a", [{ stream: "a", n: 1 }, { stream: "a", n: 3 }]],
 *   ["b", [{ stream: "b", n: 2 }]]
 * ])
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const byStream = <A extends { readonly stream: unknown }>(
  changes: ReadonlyArray<A>
): ReadonlyArray<readonly [A["stream"], ReadonlyArray<A>]> => {
  const groups = new Map<A["stream"], Array<A>>()
  for (const change of changes) {
    const group = groups.get(change.stream)
    if (group === undefined) groups.set(change.stream, [change])
    else group.push(change)
  }
  return [...groups]
}
