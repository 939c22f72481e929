/**
 * @broker-history/server: the reference service of the broker history API.
 *
 * @since 0.1.0
 */

/** The master account's and the seeded sub-accounts' names. */
export * as Accounts from "./Accounts.js"
/** API keys, their secrets and permissions. */
export * as ApiKeys from "./ApiKeys.js"
/** The database schema as migrations. */
export * as Migrations from "./Migrations.js"
/** Seeded pseudo-random numbers. */
export * as Prng from "./Prng.js"
/** The SQLite store of both histories and the API keys. */
export * as Store from "./Store.js"
/** Deterministic seeded histories. */
export * as Seed from "./Seed.js"
/** The signed-request checks: signature, timestamp, recvWindow, permission. */
export * as Authentication from "./Authentication.js"
/** Fault injection switches and decisions. */
export * as Faults from "./Faults.js"
/** Business parameters read into store filters and pages. */
export * as HistoryQuery from "./HistoryQuery.js"
/** The per-key sliding-window rate limit. */
export * as RateLimit from "./RateLimit.js"
/** The query string as received. */
export * as RawQuery from "./RawQuery.js"
/** The reference service: HTTP endpoints over the store. */
export * as ReferenceServer from "./ReferenceServer.js"
/** The JSON shapes the service answers. */
export * as WireFormat from "./WireFormat.js"
/** The server program's flags and environment variables. */
export * as CommandLine from "./CommandLine.js"
