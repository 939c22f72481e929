/**
 * Flag values read into what the exchange expects: account types, deposit statuses and export
 * formats. An account type is any word of letters, digits and `_` (the service judges it; one outside
 * the documented set is sent with a warning); a deposit status or a format outside its set is refused
 * before any request, with the allowed values in the message. Matching ignores letter case; what is
 * sent is the exchange's spelling (`spot` → `SPOT`, `success` → `5`).
 *
 * @internal
 */
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Either from "effect/Either"

const documented: ReadonlyArray<string> = TransferRecord.accountTypes

/** A word of letters, digits and `_`, as the exchange spells account types (at most 64 characters). */
const word = /^[A-Z0-9_]{1,64}$/

/**
 * Reads an account type (any letter case) into the exchange's spelling, upper case: any word of
 * letters, digits and `_`, documented or not (the service is the judge; see
 * `undocumentedAccountTypes` for the warning). Anything else is the message for `flag`.
 */
export const accountType = (flag: string, text: string): Either.Either<string, string> => {
  const upper = text.trim().toUpperCase()
  return word.test(upper)
    ? Either.right(upper)
    : Either.left(
      `${flag}: ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)} is not an account type: ` +
        `write one word of letters, digits and _ (the exchange documents ${documented.join(", ")})`
    )
}

/**
 * The one warning line for account types outside the documented set (`TransferRecord.accountTypes`),
 * each with where it was given, or `undefined` when every one is documented. Such a type is still
 * sent: the service accepts it or refuses it with its own message.
 */
export const undocumentedAccountTypes = (
  uses: ReadonlyArray<{ readonly type: string; readonly where: string }>
): string | undefined => {
  const seen = new Set<string>()
  const listed: Array<string> = []
  for (const { type, where } of uses) {
    if (documented.includes(type)) continue
    const text = `${type} (${where})`
    if (!seen.has(text)) listed.push(text)
    seen.add(text)
  }
  if (listed.length === 0) return undefined
  const one = listed.length === 1
  return `${listed.join(", ")} ${one ? "is not an account type" : "are not account types"} the exchange documents (${
    documented.join(", ")
  }): ${one ? "it is" : "they are"} sent as written, and the service accepts or refuses ${one ? "it" : "them"}`
}

/**
 * Reads a deposit status, its code (`1`..`12`) or its name (`SUCCESS`, any letter case), into the code
 * the service filters on.
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

/** The export formats, as `--format` takes them. */
export const formats = ["ndjson", "csv", "json"] as const

/**
 * Reads an export format (`ndjson`, `csv`, `json`, any letter case) into its lower-case name, or the
 * message for `flag` that lists the formats.
 */
export const format = (flag: string, text: string): Either.Either<(typeof formats)[number], string> => {
  const lower = text.trim().toLowerCase()
  const found = formats.find((f) => f === lower)
  return found !== undefined
    ? Either.right(found)
    : Either.left(`${flag}: ${JSON.stringify(text)} is not a format; use one of ${formats.join(", ")}`)
}
