/**
 * Request signatures: lowercase hex HMAC-SHA256 of the exact query string sent (without the
 * `signature` parameter), keyed by the API secret.
 *
 * This module runs wherever WebCrypto does (Node 20+, Bun, Deno, browsers, workers) and loads no
 * `node:*` module. `NodeSignature` computes the same signature synchronously with `node:crypto`.
 *
 * @since 0.2.0
 */

const encoder = new TextEncoder()

const hexDigits = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

/**
 * Lowercase hex of bytes.
 *
 * @example
 * ```ts
 * import * as Signature from "@broker-history/core/signing/Signature"
 *
 * assert.strictEqual(Signature.toHex(new Uint8Array([0, 171, 255])), "00abff")
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const toHex = (bytes: Uint8Array): string => {
  let hex = ""
  for (const byte of bytes) hex += hexDigits[byte]
  return hex
}

/**
 * A signing function for one secret: the secret becomes a WebCrypto HMAC-SHA256 key once (not
 * extractable), and each call returns the lowercase hex signature of `payload`.
 *
 * @example
 * ```ts
 * import * as Signature from "@broker-history/core/signing/Signature"
 *
 * const sign = await Signature.hmacSha256("45d0b3c26f2644f19bfb98b07741b2f5")
 * assert.strictEqual(
 *   await sign("fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087"),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const hmacSha256 = async (secretKey: string): Promise<(payload: string) => Promise<string>> => {
  const subtle = globalThis.crypto.subtle
  const key = await subtle.importKey("raw", encoder.encode(secretKey), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign"
  ])
  return async (payload) => toHex(new Uint8Array(await subtle.sign("HMAC", key, encoder.encode(payload))))
}

const hexSignature = /^[0-9a-f]{64}$/

/**
 * True for the shape of a signature: 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import * as Signature from "@broker-history/core/signing/Signature"
 *
 * assert.strictEqual(Signature.isSignature("6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"), true)
 * assert.strictEqual(Signature.isSignature("AB"), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isSignature = (text: string): boolean => hexSignature.test(text)

/**
 * Compares two texts in time that depends only on their length, not on where they differ.
 *
 * @example
 * ```ts
 * import * as Signature from "@broker-history/core/signing/Signature"
 *
 * assert.strictEqual(Signature.equalInConstantTime("abc", "abc"), true)
 * assert.strictEqual(Signature.equalInConstantTime("abc", "abd"), false)
 * assert.strictEqual(Signature.equalInConstantTime("abc", "ab"), false)
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const equalInConstantTime = (a: string, b: string): boolean => {
  let difference = a.length ^ b.length
  // A missing character of `b` reads as NaN, which `^` treats as 0; the lengths already differ then.
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
