/**
 * The account names the reference service answers with: the master account's (stored as `null`)
 * and the seeded sub-accounts'. Kept apart from `Seed` so that reading the command line loads no
 * store code.
 *
 * @since 0.1.0
 */

/**
 * The master account's name in answers (stored as `null`).
 *
 * @example
 * import { Accounts } from "@broker-history/server"
 * Accounts.masterAccount // "master@broker.test"
 */
export const masterAccount = "master@broker.test"

/**
 * The sub-account names a seed uses: `sub001@broker.test`, `sub002@broker.test`, ….
 *
 * @example
 * import { Accounts } from "@broker-history/server"
 * Accounts.subAccountNames(2) // ["sub001@broker.test", "sub002@broker.test"]
 */
export const subAccountNames = (count: number): ReadonlyArray<string> =>
  Array.from({ length: count }, (_, i) => `sub${String(i + 1).padStart(3, "0")}@broker.test`)
