/**
 * API keys the reference service accepts: the key, its secret and its permissions.
 *
 * @since 0.1.0
 */
import type { Endpoint } from "@broker-history/domain"
import * as Either from "effect/Either"

/**
 * A stored API key.
 *
 * @example
 * import type { ApiKeys } from "@broker-history/server"
 * const key: ApiKeys.ApiKey = { apiKey: "k", secretKey: "s", permissions: ["SPOT_DEPOSIT_READ"] }
 */
export interface ApiKey {
  readonly apiKey: string
  readonly secretKey: string
  readonly permissions: ReadonlyArray<Endpoint.Permission>
}

/**
 * Every permission the service knows.
 *
 * @example
 * import { ApiKeys } from "@broker-history/server"
 * ApiKeys.permissions // ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"]
 */
export const permissions: ReadonlyArray<Endpoint.Permission> = ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"]

/**
 * The deterministic demo key with both permissions: the default key of the reference server. Its
 * secret is the one published in MEXC's signing documentation, so it is public by design.
 *
 * @example
 * import { ApiKeys } from "@broker-history/server"
 * ApiKeys.demo.apiKey // "mx0vglDEMOKEY0000000000000000000"
 */
export const demo: ApiKey = {
  apiKey: "mx0vglDEMOKEY0000000000000000000",
  secretKey: "45d0b3c26f2644f19bfb98b07741b2f5",
  permissions
}

const isPermission = (text: string): text is Endpoint.Permission =>
  (permissions as ReadonlyArray<string>).includes(text)

/**
 * Reads a key written as `apiKey:secretKey:PERM1,PERM2` (the command-line form). The permission
 * list may be empty (`apiKey:secretKey:`), which makes a key that every signed endpoint refuses.
 *
 * @example
 * import { ApiKeys } from "@broker-history/server"
 * ApiKeys.parse("k1:s1:SPOT_TRANSFER_READ")
 * // Either.right({ apiKey: "k1", secretKey: "s1", permissions: ["SPOT_TRANSFER_READ"] })
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
 * Whether a key holds a permission.
 *
 * @example
 * import { ApiKeys } from "@broker-history/server"
 * ApiKeys.allows(ApiKeys.demo, "SPOT_DEPOSIT_READ") // true
 */
export const allows = (key: ApiKey, permission: Endpoint.Permission): boolean => key.permissions.includes(permission)
