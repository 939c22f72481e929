/**
 * Request signatures: lowercase hex HMAC-SHA256 of the exact query string sent, keyed by the secret.
 *
 * @since 0.1.0
 */
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * Lowercase hex HMAC-SHA256 of `payload` with `secretKey`.
 *
 * @example
 * import { Signature } from "@broker-history/domain"
 * Signature.hmacSha256Hex(
 *   "45d0b3c26f2644f19bfb98b07741b2f5",
 *   "fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087"
 * ) // "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 */
export const hmacSha256Hex = (secretKey: string, payload: string): string =>
  createHmac("sha256", secretKey).update(payload, "utf8").digest("hex")

const hexSignature = /^[0-9a-f]{64}$/

/**
 * Checks a received signature against the one recomputed from the secret, in constant time.
 * Anything that is not 64 lowercase hex digits is rejected.
 *
 * @example
 * import { Signature } from "@broker-history/domain"
 * Signature.verify("secret", "a=1", Signature.hmacSha256Hex("secret", "a=1")) // true
 */
export const verify = (secretKey: string, payload: string, signature: string): boolean => {
  const expected = Buffer.from(hmacSha256Hex(secretKey, payload), "utf8")
  // Compare a same-length buffer either way so timing does not reveal the shape of the input.
  const given = hexSignature.test(signature) ? Buffer.from(signature, "utf8") : Buffer.alloc(expected.length)
  return timingSafeEqual(expected, given) && hexSignature.test(signature)
}
