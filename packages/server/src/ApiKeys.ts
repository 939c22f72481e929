/**
 * API keys the reference service accepts: the key, its secret and its permissions.
 *
 * @since 0.1.0
 */
import type { Endpoint } from "@broker-history/domain"
import * as Either from "effect/Either"

/**
 * An API key the service accepts: the key, its secret and the permissions it holds.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 *
 * const depositsOnly: ApiKeys.ApiKey = { apiKey: "k1", secretKey: "s1", permissions: ["SPOT_DEPOSIT_READ"] }
 * assert.strictEqual(ApiKeys.allows(depositsOnly, "SPOT_DEPOSIT_READ"), true)
 * assert.strictEqual(ApiKeys.allows(depositsOnly, "SPOT_TRANSFER_READ"), false)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface ApiKey {
  readonly apiKey: string
  readonly secretKey: string
  readonly permissions: ReadonlyArray<Endpoint.Permission>
}

/**
 * Every permission the service knows, one per history endpoint.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import { Endpoint } from "@broker-history/domain"
 *
 * assert.deepStrictEqual(ApiKeys.permissions, [Endpoint.transferHistory.permission, Endpoint.depositHistory.permission])
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const permissions: ReadonlyArray<Endpoint.Permission> = ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"]

/**
 * The deterministic demo key with both permissions, the server's default key; its secret is the one
 * published in MEXC's signing documentation, so it is public by design.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import * as NodeSignature from "@broker-history/domain/NodeSignature"
 *
 * assert.strictEqual(ApiKeys.demo.apiKey, "mx0vglDEMOKEY0000000000000000000")
 * assert.deepStrictEqual(ApiKeys.demo.permissions, ApiKeys.permissions)
 * // The signature of MEXC's documented example request:
 * assert.strictEqual(
 *   NodeSignature.hmacSha256Hex(
 *     ApiKeys.demo.secretKey,
 *     "fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087"
 *   ),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const demo: ApiKey = {
  apiKey: "mx0vglDEMOKEY0000000000000000000",
  secretKey: "45d0b3c26f2644f19bfb98b07741b2f5",
  permissions
}

const isPermission = (text: string): text is Endpoint.Permission =>
  (permissions as ReadonlyArray<string>).includes(text)

/**
 * Reads a key written as `apiKey:secretKey:PERM1,PERM2` (the command-line form); an empty permission
 * list (`apiKey:secretKey:`) makes a key that every signed endpoint refuses.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(
 *   ApiKeys.parse("k1:s1:SPOT_TRANSFER_READ,SPOT_DEPOSIT_READ"),
 *   Either.right({ apiKey: "k1", secretKey: "s1", permissions: ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"] })
 * )
 * assert.deepStrictEqual(ApiKeys.parse("k1:s1:"), Either.right({ apiKey: "k1", secretKey: "s1", permissions: [] }))
 * assert.deepStrictEqual(
 *   ApiKeys.parse("k1:s1:READ_ALL"),
 *   Either.left("unknown permission READ_ALL (known: SPOT_TRANSFER_READ, SPOT_DEPOSIT_READ)")
 * )
 * assert.deepStrictEqual(ApiKeys.parse("k1"), Either.left("expected apiKey:secretKey:PERMISSIONS, got 1 part(s)"))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse = (text: string): Either.Either<ApiKey, string> => {
  const parts = text.split(":")
  if (parts.length !== 3) {
    return Either.left(`expected apiKey:secretKey:PERMISSIONS, got ${parts.length} part(s)`)
  }
  const [apiKey, secretKey, list] = parts as [string, string, string]
  if (apiKey.length === 0 || secretKey.length === 0) return Either.left("apiKey and secretKey must not be empty")
  const granted: Array<Endpoint.Permission> = []
  for (const name of list.split(",").filter((p) => p.length > 0)) {
    if (!isPermission(name)) return Either.left(`unknown permission ${name} (known: ${permissions.join(", ")})`)
    if (!granted.includes(name)) granted.push(name)
  }
  return Either.right({ apiKey, secretKey, permissions: granted })
}

/**
 * True when a key holds a permission.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import { Endpoint } from "@broker-history/domain"
 *
 * assert.strictEqual(ApiKeys.allows(ApiKeys.demo, Endpoint.depositHistory.permission), true)
 * const noRights: ApiKeys.ApiKey = { ...ApiKeys.demo, permissions: [] }
 * assert.strictEqual(ApiKeys.allows(noRights, Endpoint.depositHistory.permission), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const allows = (key: ApiKey, permission: Endpoint.Permission): boolean => key.permissions.includes(permission)
