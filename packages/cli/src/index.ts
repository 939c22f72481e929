/**
 * @broker-history/cli: the `broker-history` command, as modules other programs can reuse.
 *
 * @since 0.1.0
 */

/** The command tree. */
export * as Cli from "./Cli.js"
/** Flag values from known sets: account types, deposit statuses. */
export * as Choices from "./Choices.js"
/** The client's settings as flags and variables. */
export * as ClientOptions from "./ClientOptions.js"
/** CSV per RFC 4180. */
export * as Csv from "./Csv.js"
/** Exit codes and error sentences. */
export * as ExitCode from "./ExitCode.js"
/** The transfers/deposits export commands. */
export * as Export from "./Export.js"
/** Stdout or file output with backpressure. */
export * as Output from "./Output.js"
/** The progress line and summary. */
export * as Progress from "./Progress.js"
/** Dates and durations as typed on the command line. */
export * as TimeText from "./TimeText.js"
/** The `sync` command. */
export * as Sync from "./Sync.js"
/** Which streams a sync reads. */
export * as SyncPlan from "./SyncPlan.js"
/** The sync database (SQLite or PostgreSQL). */
export * as SyncStore from "./SyncStore.js"
/** The sync database's migrations. */
export * as SyncMigrations from "./SyncMigrations.js"
/** The demo (the main job). */
export * as Demo from "./Demo.js"
/** The `serve` command. */
export * as Serve from "./Serve.js"
