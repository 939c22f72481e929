/**
 * `@broker-history/server`: the reference service of the broker history API. Run it (`ReferenceServer`),
 * fill it (`Store`, `Seed`), give it keys (`ApiKeys`), make it fail on purpose (`Faults`), and run it as
 * a program with its command line (`CommandLine`).
 *
 * @since 0.1.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./ApiKeys.js"

/**
 * API keys, their secrets and permissions.
 *
 * @example
 * ```ts
 * import { ApiKeys } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * assert.ok(Either.isRight(ApiKeys.parse("k1:s1:SPOT_DEPOSIT_READ")))
 * ```
 *
 * @since 0.1.0
 */
export * as ApiKeys from "./ApiKeys.js"
/**
 * The server program's flags and environment variables, and how a command-line program runs and ends.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.isLoopback("localhost"), true)
 * assert.strictEqual(CommandLine.signalCode("SIGTERM"), 143)
 * ```
 *
 * @since 0.1.0
 */
export * as CommandLine from "./CommandLine.js"
/**
 * Fault injection switches and decisions.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * assert.strictEqual(Faults.decide(Faults.normalize({ drop: 1 }), 0.5), "drop")
 * ```
 *
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"
/**
 * The reference service: HTTP endpoints over the store, its options and its layer.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const baseUrl = Effect.map(ReferenceServer.ReferenceServer, (server) => server.baseUrl)
 * assert.match(await Effect.runPromise(Effect.provide(baseUrl, ReferenceServer.layer())), /^http:\/\/127\.0\.0\.1:\d+$/)
 * ```
 *
 * @since 0.1.0
 */
export * as ReferenceServer from "./ReferenceServer.js"
/**
 * Deterministic seeded histories.
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * assert.strictEqual(Seed.transfers({ seed: 1, transfers: 10, deposits: 0 }).length, 10)
 * ```
 *
 * @since 0.1.0
 */
export * as Seed from "./Seed.js"
/**
 * The SQLite store of both histories, the sub-accounts and the API keys.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const counts = Effect.flatMap(Store.Store, (store) => store.counts).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * assert.deepStrictEqual(await Effect.runPromise(counts), { transfers: 0, deposits: 0 })
 * ```
 *
 * @since 0.1.0
 */
export * as Store from "./Store.js"
