/**
 * The sync benchmark's settings and results (shared by SyncThroughput and the parts it runs).
 */
/**
 * The data and the rounds.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const tiny: SyncThroughput.Options = { seed: 1, transfers: 500, deposits: 100, subAccounts: 2, rounds: 1, batchSize: 500, concurrency: 4, defaultBudget: false }
 */
export interface Options {
  readonly seed: number
  /** Transfers the service generates (the sync reads those touching the master account). */
  readonly transfers: number
  readonly deposits: number
  readonly subAccounts: number
  readonly rounds: number
  /** `--batch-size`: records per transaction. */
  readonly batchSize: number
  /** `--concurrency`: streams read at once. */
  readonly concurrency: number
  /** Also sync the demo's data with `broker-history sync` (own process) at the default budget. */
  readonly defaultBudget: boolean
}

/**
 * Where rows go: SQLite, PostgreSQL, or nowhere (the fetch alone).
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const targets: ReadonlyArray<SyncThroughput.Target> = ["sqlite", "pg", "none"]
 */
export type Target = "sqlite" | "pg" | "none"

/**
 * One contender's run in one round.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const cpuPerRow = (s: SyncThroughput.Sample) => s.cpuMillis / s.rows
 */
export interface Sample {
  readonly round: number
  readonly target: Target
  readonly contender: "sync" | "store" | "raw" | "fetch"
  /** Records written (fetch: read). */
  readonly rows: number
  readonly requests: number
  readonly wallMillis: number
  /** User + system CPU of this process. */
  readonly cpuMillis: number
  /** User + system CPU of the service's process meanwhile (`NaN` where it cannot be read). */
  readonly serviceCpuMillis: number
  readonly rowsPerSecond: number
  /** The table counts (fetch: the records read) equal the service's rows for the plan. */
  readonly exact: boolean
}

/**
 * Medians of one contender over the rounds.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const met = (s: SyncThroughput.Summary) => s.ratio >= 0.8
 */
export interface Summary {
  readonly target: Target
  readonly contender: Sample["contender"]
  readonly rowsPerSecond: number
  readonly cpuMicrosPerRow: number
  /** The service's CPU per row meanwhile (fetch and sync; about 0 for the others). */
  readonly serviceCpuMicrosPerRow: number
  readonly wallMillis: number
  /** Median of the per-round ratios of rows/s to the raw loop of the same target (fetch: to raw SQLite). */
  readonly ratio: number
  readonly ratioRange: readonly [number, number]
  readonly exact: boolean
}

/**
 * `broker-history sync` of the demo's data at the default budget.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const met = (r: SyncThroughput.BudgetRun) => r.overBound <= 1.1
 */
export interface BudgetRun {
  /** The client's default budget, requests per second. */
  readonly budget: number
  readonly requests: number
  readonly retries: number
  readonly rows: number
  /** From starting the process to its exit. */
  readonly wallMillis: number
  /** The command's own elapsed time (its summary line: flags read to the end). */
  readonly commandMillis: number
  /** requests / budget. */
  readonly boundMillis: number
  readonly overBound: number
  readonly commandOverBound: number
  readonly exitCode: number | null
  /** What was started: the compiled CLI, or the sources through tsx and why. */
  readonly runs: string
  /** From starting the process to the service's answer to its first request (start, flags, opening the database, the first request). */
  readonly firstRequestMillis: number
  /** From the first answer to the last (the bound's part). */
  readonly requestsMillis: number
  /** From the last answer to the exit (the last writes, the summary, closing). */
  readonly exitMillis: number
}

/**
 * Everything the part measured.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const rows = (r: SyncThroughput.Result) => r.expected.transfers + r.expected.deposits
 */
export interface Result {
  readonly options: Options
  readonly expected: { readonly transfers: number; readonly deposits: number; readonly streams: number }
  readonly samples: ReadonlyArray<Sample>
  readonly summaries: ReadonlyArray<Summary>
  /** Why PostgreSQL was not measured, or `undefined` when it was. */
  readonly postgresSkipped: string | undefined
  readonly atDefaultBudget: BudgetRun | undefined
}
