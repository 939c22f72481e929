/**
 * The accounts the reference service answers with: the name of the master account (stored as
 * `null`), and the account types, `SPOT` and the futures account, spelled `FUTURES` (the exchange's
 * parameter table) or `FUTURE` (the exchange's own broker example), as configured. The service's seed
 * writes its records with that spelling and its transfer endpoint accepts only these two types,
 * whatever the domain package documents. Kept apart from the service and the seed so that reading the
 * command line loads neither.
 *
 * @internal
 */

/** The name the service answers for the master account by default, which the store keeps as `null`. */
export const masterAccount = "master@broker.test"

/** A spelling of the futures account type: `FUTURES` or `FUTURE`. */
export type Futures = "FUTURES" | "FUTURE"

/** The spellings of the futures account type the service can use, the default first. */
export const futuresSpellings: ReadonlyArray<Futures> = ["FUTURES", "FUTURE"]

/** The futures spelling used when none is configured: `FUTURES`. */
export const defaultFutures: Futures = "FUTURES"

/** The account types the service accepts and writes with the given futures spelling: `SPOT` first. */
export const accepted = (futures: Futures = defaultFutures): readonly [string, string] => ["SPOT", futures]
