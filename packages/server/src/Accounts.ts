/**
 * The account names the reference service answers with: the master account's (stored as `null`)
 * and the seeded sub-accounts'. Kept apart from `Seed` so that reading the command line loads no
 * store code.
 *
 * @since 0.1.0
 */

/**
 * The name the service answers for the master account, which the store keeps as `null`.
 *
 * @example
 * ```ts
 * import { Accounts, WireFormat } from "@broker-history/server"
 *
 * assert.strictEqual(Accounts.masterAccount, "master@broker.test")
 * const answered = WireFormat.transfer({
 *   tranId: "1",
 *   clientTranId: null,
 *   fromAccount: null,
 *   toAccount: "sub001@broker.test",
 *   asset: "USDT",
 *   amount: "1.00000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "SPOT",
 *   fromSymbol: "",
 *   toSymbol: "",
 *   status: "SUCCESS",
 *   timestamp: 1700000000000
 * }, Accounts.masterAccount)
 * assert.strictEqual(answered.fromAccount, "master@broker.test")
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const masterAccount = "master@broker.test"

/**
 * The names of the first `count` seeded sub-accounts: `sub001@broker.test`, `sub002@broker.test`, ….
 *
 * @example
 * ```ts
 * import { Accounts } from "@broker-history/server"
 *
 * assert.deepStrictEqual(Accounts.subAccountNames(2), ["sub001@broker.test", "sub002@broker.test"])
 * assert.strictEqual(Accounts.subAccountNames(40).at(-1), "sub040@broker.test")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const subAccountNames = (count: number): ReadonlyArray<string> =>
  Array.from({ length: count }, (_, i) => `sub${String(i + 1).padStart(3, "0")}@broker.test`)
