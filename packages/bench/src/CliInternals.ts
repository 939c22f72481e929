/**
 * The parts of the `broker-history sync` run that the sync benchmark and the fault soak drive in this
 * process: the run itself with its settings, its plan's streams, its store and rows, its progress and
 * its summary's lines. They are internal modules of `@broker-history/cli` (its public API is the
 * command, `Cli`, and the database a sync writes, `SyncDatabase`), so the bench, a private package,
 * reaches them here by relative path, in this one place.
 *
 * @since 0.2.0
 */
export * as Progress from "../../cli/src/internal/shared/Progress.js"
export * as SyncPlan from "../../cli/src/internal/sync/plan/Plan.js"
export * as SyncRun from "../../cli/src/internal/sync/run/Run.js"
export type { Settings as SyncSettings } from "../../cli/src/internal/sync/run/Settings.js"
export * as SyncColumns from "../../cli/src/internal/sync/store/Columns.js"
export * as SyncStore from "../../cli/src/internal/sync/store/Store.js"
export * as SyncSummary from "../../cli/src/internal/sync/Summary.js"
