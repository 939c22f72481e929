/**
 * The export commands' flag values read into what the client is asked (see `Command`): each
 * command's filters and the CSV mode (the range is `Flags.range`). Pure: a value, or the usage
 * message that names the flag.
 *
 * @internal
 */
import * as Either from "effect/Either"
import * as Choices from "../shared/Choices.js"
import type * as Csv from "./Csv.js"
import type { Format } from "./Encoding.js"

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
