/**
 * Flag values from a set the project knows: account types and deposit statuses. A value outside the
 * set is refused before any request, with the allowed values in the message. Matching ignores
 * letter case; what is sent is the exchange's spelling (`spot` → `SPOT`, `success` → `5`).
 *
 * @since 0.1.0
 */
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Either from "effect/Either"

const known: ReadonlyArray<string> = TransferRecord.accountTypes

/**
 * An account type (`SPOT`, `FUTURES`, any letter case) in the exchange's spelling.
 *
 * @example
 * import { Choices } from "@broker-history/cli"
 * Choices.accountType("--from-account-type", "spot") // Either.right("SPOT")
 */
export const accountType = (flag: string, text: string): Either.Either<string, string> => {
  const upper = text.trim().toUpperCase()
  return known.includes(upper)
    ? Either.right(upper)
    : Either.left(
      `${flag}: ${JSON.stringify(text)} is not an account type; use one of ${
        known.join(", ")
      }`
    )
}

/**
 * A deposit status: its code (`1`..`12`) or its name (`SUCCESS`, any letter case), as the code the
 * service filters on.
 *
 * @example
 * import { Choices } from "@broker-history/cli"
 * Choices.depositStatus("--status", "success") // Either.right("5")
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
