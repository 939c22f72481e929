/**
 * The request signature of `Signature`, computed synchronously with `node:crypto`: for Node
 * programs (the reference service, the Node transport of the client) where a per-request promise
 * would be wasted. Not part of the package index, so importing `@broker-history/core` loads no
 * `node:*` module.
 *
 * @since 0.2.0
 */
import { createHmac } from "node:crypto"
import * as Signature from "./Signature.js"

/**
 * Lowercase hex HMAC-SHA256 of `payload` with `secretKey`.
 *
 * @example
 * ```ts
 * import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
 *
 * assert.strictEqual(
 *   NodeSignature.hmacSha256Hex(
 *     "45d0b3c26f2644f19bfb98b07741b2f5",
 *     "fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087"
 *   ),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const hmacSha256Hex = (secretKey: string, payload: string): string =>
  createHmac("sha256", secretKey).update(payload, "utf8").digest("hex")

/**
 * Checks a received signature against the one recomputed from the secret, in constant time.
 * Anything that is not 64 lowercase hex digits is rejected.
 *
 * @example
 * ```ts
 * import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
 *
 * const signature = NodeSignature.hmacSha256Hex("secret", "a=1")
 * assert.strictEqual(NodeSignature.verify("secret", "a=1", signature), true)
 * assert.strictEqual(NodeSignature.verify("secret", "a=2", signature), false)
 * assert.strictEqual(NodeSignature.verify("secret", "a=1", signature.toUpperCase()), false)
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const verify = (secretKey: string, payload: string, signature: string): boolean => {
  const expected = hmacSha256Hex(secretKey, payload)
  // Compare same-length text either way, so timing does not reveal the shape of the input.
  const given = Signature.isSignature(signature) ? signature : "0".repeat(expected.length)
  return Signature.equalInConstantTime(expected, given) && Signature.isSignature(signature)
}
