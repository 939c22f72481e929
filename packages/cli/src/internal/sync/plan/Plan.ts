/**
 * Which streams a sync reads. One transfer query covers one account pair and one account-type pair,
 * and an omitted account is the master account (docs/wire-contract.md), so the default plan is: for every listed
 * sub-account and every ordered pair of account types, master→sub and sub→master, plus the master's
 * own transfers for every ordered pair of account types; and one deposit stream. A pairs file lists
 * account pairs explicitly instead (sub→sub included). The plan itself is the client's
 * (`TransferPlan`); this module keeps the command line's names for it and reads its flags and files.
 *
 * @internal
 */
import { TransferPlan } from "@broker-history/client"
import * as Either from "effect/Either"
import * as Choices from "../../shared/Choices.js"

/** One transfer stream of a sync: its query filters, and the id its checkpoint is stored under. */
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
 * A transfer stream of a sync's plan, with when its history begins when that is known (a
 * sub-account's creation, Unix ms).
 */
export interface PlannedStream extends TransferStream {
  readonly startsAt?: number | undefined
}

/** The id the deposit stream's checkpoint is stored under. */
export const depositStreamId = JSON.stringify(["deposits"])

/** A transfer stream with its id: the filters as a JSON array, `null` for the master account. */
export const transferStream = (query: TransferStream["query"]): TransferStream => ({
  id: TransferPlan.key(query),
  query
})

/**
 * An account pair, `undefined` for the master account; without account types it stands for every
 * ordered pair of the sync's account types.
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
 */
export const typePairs: (types: ReadonlyArray<string>) => ReadonlyArray<readonly [string, string]> =
  TransferPlan.typePairs

/** The default pairs: master→master, and master→sub and sub→master for every sub-account. */
export const defaultPairs = (subAccounts: ReadonlyArray<string>): ReadonlyArray<Pair> =>
  // Names in, names out: the client's pairs only hold the accounts given.
  TransferPlan.defaultPairs(subAccounts) as ReadonlyArray<Pair>

/** The transfer streams of a set of pairs for the given account types, without duplicates. */
export const transferStreams = (
  pairs: ReadonlyArray<Pair>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<TransferStream> =>
  TransferPlan.streams(pairs, accountTypes).map((planned) => ({ id: planned.key, query: planned.query }))

const lines = (text: string) =>
  text.split(/\r?\n/).map((l, i) => [i + 1, l.replace(/#.*$/, "").trim()] as const).filter(([, l]) => l !== "")

/** A list of names: comma- or line-separated, `#` starts a comment, blanks and repetitions dropped. */
export const names = (text: string): ReadonlyArray<string> => [
  ...new Set(lines(text).flatMap(([, l]) => l.split(",").map((n) => n.trim()).filter((n) => n !== "")))
]

const masterWords = new Set(["-", "master"])

const account = (word: string): string | undefined => masterWords.has(word.toLowerCase()) ? undefined : word

/**
 * Reads a pairs file: one pair a line, `FROM TO` or `FROM TO FROM_TYPE TO_TYPE`, where `-` or `master` is
 * the master account and `#` starts a comment; an account type is a word in any letter case, read
 * in the exchange's spelling (`Choices.accountType`).
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
