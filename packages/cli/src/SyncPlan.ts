/**
 * Which streams a sync reads. One transfer query covers one account pair and one account-type pair,
 * and an omitted account is the master account (SPEC.md), so the default plan is: for every listed
 * sub-account and every ordered pair of account types, master→sub and sub→master, plus the master's
 * own transfers for every ordered pair of account types; and one deposit stream. A pairs file lists
 * account pairs explicitly instead (sub→sub included).
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Choices from "./Choices.js"

/**
 * One transfer stream: its filters and the id its checkpoint is stored under.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * const s = SyncPlan.transferStream({ fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub001@broker.test" })
 * s.id // '["transfers","SPOT","FUTURES",null,"sub001@broker.test"]'
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
 * The id of the deposit stream's checkpoint.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.depositStreamId // '["deposits"]'
 */
export const depositStreamId = JSON.stringify(["deposits"])

/**
 * A transfer stream with its id (the filters as a JSON array; `null` is the master account).
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.transferStream({ fromAccountType: "SPOT", toAccountType: "SPOT" }).id // '["transfers","SPOT","SPOT",null,null]'
 */
export const transferStream = (query: TransferStream["query"]): TransferStream => ({
  id: JSON.stringify([
    "transfers",
    query.fromAccountType,
    query.toAccountType,
    query.fromAccount ?? null,
    query.toAccount ?? null
  ]),
  query
})

/**
 * An account pair; `undefined` is the master account. Account types, when absent, are every
 * ordered pair of the sync's account types.
 *
 * @example
 * import type { SyncPlan } from "@broker-history/cli"
 * const subToSub: SyncPlan.Pair = { fromAccount: "a@x", toAccount: "b@x" }
 */
export interface Pair {
  readonly fromAccount: string | undefined
  readonly toAccount: string | undefined
  readonly fromAccountType?: string | undefined
  readonly toAccountType?: string | undefined
}

/**
 * Every ordered pair of account types (repetition included: SPOT→SPOT is a transfer between two
 * accounts' spot wallets).
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.typePairs(["SPOT", "FUTURES"]).length // 4
 */
export const typePairs = (types: ReadonlyArray<string>): ReadonlyArray<readonly [string, string]> =>
  types.flatMap((from) => types.map((to) => [from, to] as const))

/**
 * The default pairs: master→sub and sub→master for every sub-account, and master→master.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.defaultPairs(["a@x"]).length // 3
 */
export const defaultPairs = (subAccounts: ReadonlyArray<string>): ReadonlyArray<Pair> => [
  { fromAccount: undefined, toAccount: undefined },
  ...subAccounts.flatMap((sub): ReadonlyArray<Pair> => [
    { fromAccount: undefined, toAccount: sub },
    { fromAccount: sub, toAccount: undefined }
  ])
]

/**
 * The transfer streams of a set of pairs, without duplicates.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.transferStreams(SyncPlan.defaultPairs(["a@x", "b@x"]), ["SPOT", "FUTURES"]).length // 20
 */
export const transferStreams = (
  pairs: ReadonlyArray<Pair>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<TransferStream> => {
  const byId = new Map<string, TransferStream>()
  for (const pair of pairs) {
    const types: ReadonlyArray<readonly [string, string]> =
      pair.fromAccountType !== undefined && pair.toAccountType !== undefined
        ? [[pair.fromAccountType, pair.toAccountType]]
        : typePairs(accountTypes)
    for (const [fromAccountType, toAccountType] of types) {
      const stream = transferStream({
        fromAccountType,
        toAccountType,
        ...(pair.fromAccount === undefined ? {} : { fromAccount: pair.fromAccount }),
        ...(pair.toAccount === undefined ? {} : { toAccount: pair.toAccount })
      })
      byId.set(stream.id, stream)
    }
  }
  return [...byId.values()]
}

const lines = (text: string) =>
  text.split(/\r?\n/).map((l, i) => [i + 1, l.replace(/#.*$/, "").trim()] as const).filter(([, l]) => l !== "")

/**
 * A list of names: comma- or line-separated, `#` starts a comment, blanks ignored.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.names("a@x, b@x\n# c\nd@x") // ["a@x", "b@x", "d@x"]
 */
export const names = (text: string): ReadonlyArray<string> => [
  ...new Set(lines(text).flatMap(([, l]) => l.split(",").map((n) => n.trim()).filter((n) => n !== "")))
]

const masterWords = new Set(["-", "master"])

const account = (word: string): string | undefined => masterWords.has(word.toLowerCase()) ? undefined : word

/**
 * Reads a pairs file: one pair a line, `FROM TO` or `FROM TO FROM_TYPE TO_TYPE`, where `-` or
 * `master` is the master account; `#` starts a comment. Account types must be known ones (any letter
 * case; the exchange's spelling is kept).
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.parsePairs("- sub001@x\nsub001@x sub002@x SPOT FUTURES")
 * // Either.right([{ fromAccount: undefined, toAccount: "sub001@x" }, { fromAccount: "sub001@x", toAccount: "sub002@x", fromAccountType: "SPOT", toAccountType: "FUTURES" }])
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
      // Known account types only, in the exchange's spelling (`spot` is read as `SPOT`).
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
 * What a plan of `--sub-accounts` does not read, as a sentence for the sync summary, or `undefined`
 * when it leaves nothing out that it could name. Transfers between two sub-accounts are read only
 * through `--pairs`: n sub-accounts have n × (n − 1) ordered pairs, each for every account-type pair.
 *
 * @example
 * import { SyncPlan } from "@broker-history/cli"
 * SyncPlan.uncovered(["a@x", "b@x", "c@x"], ["SPOT", "FUTURES"])
 * // "sub→sub transfers are not read: 6 ordered sub-account pairs × 4 account-type pairs not covered; list them with --pairs FILE"
 */
export const uncovered = (
  subAccounts: ReadonlyArray<string>,
  accountTypes: ReadonlyArray<string>
): string | undefined => {
  const n = subAccounts.length
  if (n === 0) {
    return "only the master account's own transfers are read; name sub-accounts with --sub-accounts or --sub-accounts-file, or list pairs with --pairs FILE"
  }
  if (n === 1) return undefined
  const types = typePairs(accountTypes).length
  return `sub→sub transfers are not read: ${n * (n - 1)} ordered sub-account pairs × ${types} account-type ${
    types === 1 ? "pair" : "pairs"
  } not covered; list them with --pairs FILE`
}
