/**
 * The flags of the export commands (see `Command`), as `@effect/cli` options: those both commands
 * share (range, format, output, client settings) and each command's filters. Declarations only; they
 * are read by `Query`.
 *
 * @internal
 */
import { TransferRecord } from "@broker-history/domain"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Choices from "../shared/Choices.js"
import * as ClientOptions from "../shared/ClientOptions.js"
import { optionalText, verbose } from "../shared/Flags.js"
import type * as Encoding from "./Encoding.js"

/** The flags both export commands take, after their filters. */
export const common = {
  since: optionalText(
    "since",
    "start of the range, inclusive: 2024-01-01 (UTC), an ISO date-time, Unix ms (any digits, 0 included, but ten: " +
      "those are Unix seconds, refused with the ms to write), or 90d for 90 days ago (default: one year before --until)"
  ),
  until: optionalText(
    "until",
    "end of the range, inclusive, same forms as --since, at most 1 minute (allowed for clock skew) after the " +
      "service's now (default: the service's now)"
  ),
  // Text read by `Choices.format` rather than `Options.choice`, which matches the letter case exactly.
  format: Options.text("format").pipe(
    Options.withPseudoName(Choices.formats.join(" | ")),
    Options.mapEffect((text) =>
      Either.match(Choices.format("--format", text), {
        onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
        onRight: Effect.succeed
      })
    ),
    Options.withDefault<Encoding.Format>("ndjson"),
    Options.withDescription(
      "ndjson: one JSON record a line; csv: header row + RFC 4180 rows; json: one array; any letter case (default ndjson)"
    )
  ),
  csvRaw: Options.boolean("csv-raw").pipe(
    Options.withDescription(
      "with --format csv, write values exactly as received; by default a value starting with = + - @ TAB or CR " +
        "gets a ' before it so a spreadsheet does not run it as a formula (negative decimals such as -12.50 stay numbers) (default off)"
    )
  ),
  out: optionalText(
    "out",
    "write to this file instead of stdout (default stdout; - is stdout): a regular file is replaced only when the export " +
      "completes, keeping its owner, group and mode (its other hard links keep the old content), and a failed export " +
      "leaves it as it was; a symlink's target is written; a device, FIFO or /dev/fd/N is written straight into; " +
      "a file you cannot write is refused before any request"
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.withDefault(2),
    Options.withDescription("time windows read ahead at once, 1..16; the output order is kept (default 2)")
  ),
  verbose,
  client: ClientOptions.options
}

/** The filters of `transfers`: the account-type pair (required) and the account pair. */
export const transfers = {
  fromAccountType: Options.text("from-account-type").pipe(
    Options.withDescription(
      `account type money left, any letter case, sent in upper case (required): the exchange documents ${
        TransferRecord.accountTypes.join(", ")
      }; another word of letters, digits and _ is sent with a warning and the service judges it`
    )
  ),
  toAccountType: Options.text("to-account-type").pipe(
    Options.withDescription(
      `account type money went to, any letter case, sent in upper case (required): the exchange documents ${
        TransferRecord.accountTypes.join(", ")
      }; another word of letters, digits and _ is sent with a warning and the service judges it`
    )
  ),
  fromAccount: optionalText(
    "from-account",
    "sending account (default: the master account); the service decides which accounts exist"
  ),
  toAccount: optionalText(
    "to-account",
    "receiving account (default: the master account); the service decides which accounts exist"
  ),
  clientTranId: optionalText(
    "client-tran-id",
    "only the transfer with this client id, 32 letters or digits (default: every transfer)"
  )
}

/** The filters of `deposits`: a coin and a status. */
export const deposits = {
  coin: optionalText(
    "coin",
    "only this coin, e.g. USDT (default: every coin); the service decides which coins exist, an unknown one gives an empty export"
  ),
  status: optionalText(
    "status",
    "only this status: a code 1..12 or its name (SUCCESS, PENDING, …, any letter case) (default: every status)"
  )
}
