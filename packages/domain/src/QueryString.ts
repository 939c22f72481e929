/**
 * The canonical query string: the exact text that is signed and sent. Parameters keep the order
 * given; values are percent-encoded per RFC 3986 with uppercase hex, so the string signed is byte for
 * byte the string on the wire.
 *
 * @since 0.1.0
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
 * import { QueryString } from "@broker-history/domain"
 *
 * const query = QueryString.make([["coin", "USDT"], ["limit", "20"]])
 * assert.strictEqual(query, "coin=USDT&limit=20")
 * assert.strictEqual(QueryString.withSignature(query, "ab"), "coin=USDT&limit=20&signature=ab")
 * ```
 *
 * @since 0.1.0
 * @category exports
 */
export * from "@broker-history/core/signing/QueryString"
