/**
 * `@broker-history/cli`: the `broker-history` command, to run in-process, and what a program reading
 * the database it syncs needs.
 *
 * Effect 3 modules, for Effect 3 programs: they import the program's `effect` and Effect 3 packages,
 * which installing the package does not bring (its `broker-history` bin is a bundle with its own
 * copies, so it runs anywhere, Effect 4 projects included). The package's README, "In a program",
 * has the line that installs them.
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
