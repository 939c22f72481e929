/**
 * One sub-account of the broker's sub-account list as docs/wire-contract.md ("The sub-account
 * list") says: the record, its wire shapes (the documented `{code, message, data}` envelope or a
 * bare array), the name rule and the identity.
 *
 * @since 0.2.0
 */

/**
 * A listed sub-account: its name, its note (`""` when the service sends `null` or omits it) and its
 * creation time in Unix ms (`undefined` when the service sends none).
 *
 * @example
 * ```ts
 * import type * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * const existedAt = (s: SubAccount.SubAccount, time: number): boolean => s.timestamp === undefined || s.timestamp <= time
 * assert.strictEqual(existedAt({ subAccount: "mexc1", note: "", timestamp: 1597026383085 }, 1600000000000), true)
 * assert.strictEqual(existedAt({ subAccount: "mexc1", note: "", timestamp: 1597026383085 }, 1500000000000), false)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccount {
  readonly subAccount: string
  readonly note: string
  readonly timestamp: number | undefined
}

/**
 * A listed sub-account as it arrives: the creation time as a number or integer text, the note
 * nullable.
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * const wire: SubAccount.SubAccountEncoded = { subAccount: "mexc1", note: "1", timestamp: "1597026383085" }
 * assert.strictEqual(wire.timestamp, "1597026383085")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountEncoded {
  readonly subAccount: string
  readonly note?: string | null | undefined
  readonly timestamp?: number | string | null | undefined
}

/**
 * A page of the list as the documented answer wraps it: `code` `"0"` (or `0`, or none) for a
 * success, `message`, and the sub-accounts in `data`. Another code is a refusal
 * (`ErrorBody.fromEnvelope`).
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * const wire: SubAccount.SubAccountEnvelope = {
 *   code: "0",
 *   message: "",
 *   data: [{ subAccount: "mexc1", note: "1", timestamp: "1597026383085" }]
 * }
 * assert.strictEqual(wire.data[0]?.subAccount, "mexc1")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountEnvelope {
  readonly code?: string | number | undefined
  readonly message?: string | null | undefined
  readonly data: ReadonlyArray<SubAccountEncoded>
}

/**
 * The most characters (UTF-16 code units) a sub-account name may have. The client keeps every name
 * of the list it has read (to emit each once), so a name is bounded as well as the count.
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * assert.strictEqual(SubAccount.isName("a".repeat(SubAccount.maxNameLength)), true)
 * assert.strictEqual(SubAccount.isName("a".repeat(SubAccount.maxNameLength + 1)), false)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const maxNameLength = 256

/**
 * True for a value that stands for no creation time: `null`, `""` or a missing field. Any other
 * value must be a Unix millisecond time (`Field.readMillis`).
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * assert.strictEqual(SubAccount.noCreationTime(null), true)
 * assert.strictEqual(SubAccount.noCreationTime(""), true)
 * assert.strictEqual(SubAccount.noCreationTime(0), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const noCreationTime = (u: unknown): boolean => u === null || u === undefined || u === ""

/**
 * True for a sub-account name: non-empty text of at most `maxNameLength` characters, without
 * surrounding spaces (the rule of a transfer query's `fromAccount` / `toAccount`, where the name is
 * sent).
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * assert.strictEqual(SubAccount.isName("sub001@broker.test"), true)
 * assert.strictEqual(SubAccount.isName(""), false)
 * assert.strictEqual(SubAccount.isName(" sub001"), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isName = (text: string): boolean => text.length > 0 && text.length <= maxNameLength && text.trim() === text

/**
 * The identity of a listed sub-account: its name.
 *
 * @example
 * ```ts
 * import * as SubAccount from "@broker-history/core/record/SubAccount"
 *
 * assert.strictEqual(SubAccount.key({ subAccount: "mexc1", note: "", timestamp: undefined }), "mexc1")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const key = (subAccount: SubAccount): string => subAccount.subAccount
