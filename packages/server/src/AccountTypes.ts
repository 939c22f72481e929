/**
 * The account types the reference service uses: `SPOT` and the futures account, spelled `FUTURES`
 * (the exchange's parameter table) or `FUTURE` (the exchange's own broker example), as configured.
 * The service's seed writes its records with that spelling and its transfer endpoint accepts only
 * these two types, whatever the domain package documents. Kept apart from the service so that
 * reading the command line loads no service code.
 *
 * @since 0.2.0
 */

/**
 * A spelling of the futures account type: `FUTURES` or `FUTURE`.
 *
 * @example
 * ```ts
 * import { AccountTypes } from "@broker-history/server"
 *
 * const spelling: AccountTypes.Futures = "FUTURE"
 * assert.deepStrictEqual(AccountTypes.accepted(spelling), ["SPOT", "FUTURE"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Futures = "FUTURES" | "FUTURE"

/**
 * The spellings of the futures account type the service can use, the default first.
 *
 * @example
 * ```ts
 * import { AccountTypes } from "@broker-history/server"
 *
 * assert.deepStrictEqual(AccountTypes.futuresSpellings, ["FUTURES", "FUTURE"])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const futuresSpellings: ReadonlyArray<Futures> = ["FUTURES", "FUTURE"]

/**
 * The futures spelling used when none is configured: `FUTURES`.
 *
 * @example
 * ```ts
 * import { AccountTypes } from "@broker-history/server"
 *
 * assert.strictEqual(AccountTypes.defaultFutures, "FUTURES")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultFutures: Futures = "FUTURES"

/**
 * The account types the service accepts and writes with the given futures spelling: `SPOT` first.
 *
 * @example
 * ```ts
 * import { AccountTypes } from "@broker-history/server"
 *
 * assert.deepStrictEqual(AccountTypes.accepted(), ["SPOT", "FUTURES"])
 * assert.deepStrictEqual(AccountTypes.accepted("FUTURE"), ["SPOT", "FUTURE"])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const accepted = (futures: Futures = defaultFutures): readonly [string, string] => ["SPOT", futures]
