/**
 * `@broker-history/cli`: the `broker-history` command, to run in-process, and what a program reading
 * the database it syncs needs.
 *
 * @since 0.1.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./Cli.js"

/**
 * The command tree, and the command line run in-process.
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(Cli.hoistLogLevel(["node", "broker-history", "sync", "--log-level=debug"]), [
 *   "node",
 *   "broker-history",
 *   "--log-level=debug",
 *   "sync"
 * ])
 * ```
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"

/**
 * A database `broker-history sync` wrote: its tables and rows, its streams' ids, opened for reading.
 *
 * @example
 * ```ts
 * import { SyncDatabase } from "@broker-history/cli"
 *
 * assert.strictEqual(SyncDatabase.tables.transfers.name, "transfers")
 * ```
 *
 * @since 0.2.0
 */
export * as SyncDatabase from "./SyncDatabase.js"
