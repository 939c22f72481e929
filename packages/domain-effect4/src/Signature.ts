/**
 * Request signatures: lowercase hex HMAC-SHA256 of the exact query string sent (without the
 * `signature` parameter), keyed by the API secret.
 *
 * This module runs wherever WebCrypto does (Node 20+, Bun, Deno, browsers, workers) and loads no
 * `node:*` module. `NodeSignature` computes the same signature synchronously with `node:crypto`.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the re-export.
import type {} from "@broker-history/core/signing/Signature"

/**
 * Everything of `@broker-history/core/signing/Signature`: `toHex`, `hmacSha256`, `isSignature` and
 * `equalInConstantTime`.
 *
 * @example
 * ```ts
 * import { Signature } from "@broker-history/domain-effect4"
 *
 * const sign = await Signature.hmacSha256("45d0b3c26f2644f19bfb98b07741b2f5")
 * assert.ok(Signature.isSignature(await sign("timestamp=1644489390087")))
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/signing/Signature"
