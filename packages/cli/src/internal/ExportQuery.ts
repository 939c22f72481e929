/**
 * The export commands' flag values read into what the client is asked (see `Export`): the range,
 * each command's filters and the CSV mode. Pure: a value, or the usage message that names the flag.
 *
 * @internal
 */
import * as Either from "effect/Either"
import * as Choices from "../Choices.js"
import type * as Csv from "../Csv.js"
import type { Format } from "../Export.js"
import * as TimeText from "../TimeText.js"

/** A range in Unix ms; an end left `undefined` is the client's default. */
export interface Range {
  readonly since: number | undefined
  readonly until: number | undefined
}

/**
 * Reads `--since` / `--until` (dates, date-times, Unix ms or `90d` before `now`): `--since` first,
 * then `--until`, then their order.
 */
export const range = (
  since: string | undefined,
  until: string | undefined,
  now: number
): Either.Either<Range, string> =>
  Either.gen(function*() {
    const read = (name: string, text: string | undefined) =>
      text === undefined
        ? Either.right(undefined)
        : Either.mapLeft(TimeText.instant(text, now), (message) => `--${name}: ${message}`)
    const s = yield* read("since", since)
    const u = yield* read("until", until)
    if (s !== undefined && u !== undefined && s > u) return yield* Either.left("--since must not be after --until")
    return { since: s, until: u }
  })

/** The filters of `transfers` as given on the command line. */
export interface TransferFlags {
  readonly fromAccountType: string
  readonly toAccountType: string
  readonly fromAccount: string | undefined
  readonly toAccount: string | undefined
  readonly clientTranId: string | undefined
}

/** Reads the filters of `transfers`: each account type in the exchange's spelling. */
export const transferFilters = (flags: TransferFlags): Either.Either<TransferFlags, string> =>
  Either.gen(function*() {
    return {
      fromAccountType: yield* Choices.accountType("--from-account-type", flags.fromAccountType),
      toAccountType: yield* Choices.accountType("--to-account-type", flags.toAccountType),
      fromAccount: flags.fromAccount,
      toAccount: flags.toAccount,
      clientTranId: flags.clientTranId
    }
  })

/** The filters of `deposits` as given on the command line. */
export interface DepositFlags {
  readonly coin: string | undefined
  readonly status: string | undefined
}

/** Reads the filters of `deposits`: a status as its code. */
export const depositFilters = (flags: DepositFlags): Either.Either<DepositFlags, string> =>
  Either.map(
    flags.status === undefined ? Either.right(undefined) : Choices.depositStatus("--status", flags.status),
    (status) => ({ coin: flags.coin, status })
  )

/** Reads `--csv-raw`, which only `--format csv` takes. */
export const csvMode = (format: Format, csvRaw: boolean): Either.Either<Csv.Mode, string> => {
  if (!csvRaw) return Either.right("escapeFormulas")
  return format === "csv" ? Either.right("raw") : Either.left("--csv-raw applies to --format csv only")
}
