/**
 * Flag values from a set the project knows: account types, deposit statuses and export formats. A value outside the
 * set is refused before any request, with the allowed values in the message. Matching ignores
 * letter case; what is sent is the exchange's spelling (`spot` → `SPOT`, `success` → `5`).
 *
 * @since 0.1.0
 */
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Either from "effect/Either"

const known: ReadonlyArray<string> = TransferRecord.accountTypes

/**
 * Reads an account type (`SPOT`, `FUTURES`, any letter case) into the exchange's spelling, or the
 * message for `flag` that lists the allowed values.
 *
 * @example
 * ```ts
 * import { Choices } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Choices.accountType("--from-account-type", " spot "), Either.right("SPOT"))
 * assert.deepStrictEqual(
 *   Choices.accountType("--from-account-type", "margin"),
 *   Either.left(`--from-account-type: "margin" is not an account type; use one of SPOT, FUTURES`)
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const accountType = (flag: string, text: string): Either.Either<string, string> => {
  const upper = text.trim().toUpperCase()
  return known.includes(upper)
    ? Either.right(upper)
    : Either.left(
      `${flag}: ${JSON.stringify(text)} is not an account type; use one of ${known.join(", ")}`
    )
}

/**
 * Reads a deposit status, its code (`1`..`12`) or its name (`SUCCESS`, any letter case), into the code
 * the service filters on.
 *
 * @example
 * ```ts
 * import { Choices } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Choices.depositStatus("--status", "success"), Either.right("5"))
 * assert.deepStrictEqual(Choices.depositStatus("--status", "12"), Either.right("12"))
 * const unknown = Choices.depositStatus("--status", "done")
 * assert.ok(Either.isLeft(unknown) && unknown.left.endsWith("use a code or a name: 1 SMALL, 2 TIME_DELAY, 3 LARGE_DELAY, 4 PENDING, 5 SUCCESS, 6 AUDITING, 7 REJECTED, 8 REFUND, 9 PRE_SUCCESS, 10 INVALID, 11 RESTRICTED, 12 COMPLETED"))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const depositStatus = (flag: string, text: string): Either.Either<string, string> => {
  const trimmed = text.trim()
  if (trimmed in DepositRecord.statusNames) return Either.right(trimmed)
  const upper = trimmed.toUpperCase()
  const code = Object.keys(DepositRecord.statusNames).find((c) => DepositRecord.statusNames[c] === upper)
  return code !== undefined ? Either.right(code) : Either.left(
    `${flag}: ${JSON.stringify(text)} is not a deposit status; use a code or a name: ${
      Object.entries(DepositRecord.statusNames).map(([c, name]) => `${c} ${name}`).join(", ")
    }`
  )
}

/**
 * The export formats, as `--format` takes them.
 *
 * @example
 * ```ts
 * import { Choices } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(Choices.formats, ["ndjson", "csv", "json"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const formats = ["ndjson", "csv", "json"] as const

/**
 * Reads an export format (`ndjson`, `csv`, `json`, any letter case) into its lower-case name, or the
 * message for `flag` that lists the formats.
 *
 * @example
 * ```ts
 * import { Choices } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Choices.format("--format", "CSV"), Either.right("csv"))
 * assert.deepStrictEqual(Choices.format("--format", "Ndjson"), Either.right("ndjson"))
 * assert.deepStrictEqual(
 *   Choices.format("--format", "xml"),
 *   Either.left(`--format: "xml" is not a format; use one of ndjson, csv, json`)
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const format = (flag: string, text: string): Either.Either<(typeof formats)[number], string> => {
  const lower = text.trim().toLowerCase()
  const found = formats.find((f) => f === lower)
  return found !== undefined
    ? Either.right(found)
    : Either.left(`${flag}: ${JSON.stringify(text)} is not a format; use one of ${formats.join(", ")}`)
}
