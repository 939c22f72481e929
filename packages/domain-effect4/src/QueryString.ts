/**
 * The canonical query string: the exact text that is signed and sent.
 *
 * Parameters keep the order given; values are percent-encoded per RFC 3986 with uppercase hex, so
 * the string signed is byte for byte the string on the wire.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the re-export.
import type {} from "@broker-history/core/signing/QueryString"

/**
 * Everything of `@broker-history/core/signing/QueryString`: `Param`, `fields`, `encode`, `make`,
 * `withSignature`, `SignedQuery` and `splitSignature`.
 *
 * @example
 * ```ts
 * import { QueryString } from "@broker-history/domain-effect4"
 *
 * assert.strictEqual(QueryString.make([["fromAccount", "master@test.com"], ["limit", "20"]]), "fromAccount=master%40test.com&limit=20")
 * assert.deepStrictEqual(QueryString.splitSignature("a=1&signature=ab"), { payload: "a=1", signature: "ab" })
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/signing/QueryString"
