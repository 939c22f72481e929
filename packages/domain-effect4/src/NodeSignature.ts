/**
 * The request signature of `Signature`, computed synchronously with `node:crypto`: for Node programs
 * where a per-request promise would be wasted. Not part of the package index, so importing
 * `@broker-history/domain-effect4` loads no `node:*` module.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the re-export.
import type {} from "@broker-history/core/signing/NodeSignature"

/**
 * Everything of `@broker-history/core/signing/NodeSignature`: `hmacSha256Hex` and `verify`.
 *
 * @example
 * ```ts
 * import * as NodeSignature from "@broker-history/domain-effect4/NodeSignature"
 *
 * const signature = NodeSignature.hmacSha256Hex("secret", "a=1")
 * assert.strictEqual(NodeSignature.verify("secret", "a=1", signature), true)
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/signing/NodeSignature"
