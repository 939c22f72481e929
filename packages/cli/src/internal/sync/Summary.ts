/**
 * The sentences of a sync's summary: what each profile wrote and holds, the streams skipped for a
 * damaged checkpoint (with the `--reset-stream` flags that repair them), the resets done, what the
 * plan costs and what it did not read.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import type { Snapshot } from "../shared/Progress.js"
import type { Damaged } from "./run/Positions.js"
import type { Totals } from "./run/Streams.js"
import type { Counts } from "./store/Store.js"

/** A stream id quoted for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/** The sentence for skipped streams: which, why, and the `--reset-stream` flags that repair them. */
export const damagedSentence = (damaged: ReadonlyArray<Damaged>, streams: number): string => {
  const one = damaged.length === 1
  const list = damaged.map((d) => `${d.stream}: ${d.problem}`).join("; ")
  const flags = damaged.map((d) => `--reset-stream ${shellQuote(d.stream)}`).join(" ")
  const others = streams - damaged.length
  return `${
    one ? "the checkpoint of 1 stream is damaged" : `the checkpoints of ${damaged.length} streams are damaged`
  }: ${list}. ${one ? "It was" : "They were"} skipped${
    others > 0 ? ` and the other ${others} ${others === 1 ? "stream was" : "streams were"} synced` : ""
  }. Run the same sync with ${flags} to reset ${one ? "it" : "them"}: ${
    one ? "its rows stay and it is" : "their rows stay and each is"
  } read again from --since, upserted (nothing duplicates)`
}

/** The line that says which checkpoints `--reset-stream` deleted (or that there was none to delete). */
export const resetLine = (reset: ReadonlyArray<string> | "all", deleted: ReadonlyArray<string>): string => {
  const plural = deleted.length === 1 ? "checkpoint of 1 stream" : `checkpoints of ${deleted.length} streams`
  if (reset === "all") return `reset the ${plural} (all); they are read again from --since`
  const missing = reset.filter((id) => !deleted.includes(id))
  return `reset the ${plural}${deleted.length === 0 ? "" : `: ${deleted.join(", ")}`}${
    missing.length === 0 ? "" : `; no checkpoint was stored for ${missing.join(", ")}`
  }`
}

/** A time for a summary: the date when it is midnight UTC, else the date and minute. */
const dateText = (ms: number): string => {
  const iso = new Date(ms).toISOString()
  return ms % 86_400_000 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/**
 * The sync summary's lines after the first: what was backfilled, what history was not fetched (and how
 * to fetch it), and what the plan leaves out.
 */
export const coverageLines = (
  outcome: {
    /** Streams backfilled, counted by the start they were backfilled from (Unix ms). */
    readonly backfilled: ReadonlyMap<number, number>
    /** Per kind, the latest start of a stream's stored history (Unix ms); 0: every stream holds all of it. */
    readonly coveredFrom: { readonly transfers: number; readonly deposits: number }
  },
  options: {
    /** Where deposits start on a first run without `--since` (Unix ms); `undefined` when it was given. */
    readonly defaultDeposits: number | undefined
    /** The widest deposit window one request covers, as text. */
    readonly depositWindow: string
    /** What the plan does not read (`Plan.uncovered`). */
    readonly uncovered: string | undefined
  }
): ReadonlyArray<string> => {
  const lines: Array<string> = []
  if (outcome.backfilled.size > 0) {
    lines.push(
      `backfilled ${
        [...outcome.backfilled].sort(([a], [b]) => a - b).map(([since, n]) =>
          `${n} ${n === 1 ? "stream" : "streams"} from ${dateText(since)}`
        ).join(" and ")
      }`
    )
  }
  const { deposits, transfers } = outcome.coveredFrom
  const missing = deposits > 0 && deposits === transfers
    ? [`history before ${dateText(deposits)}`]
    : [
      ...(transfers > 0 ? [`transfers before ${dateText(transfers)}`] : []),
      ...(deposits > 0 ? [`deposits before ${dateText(deposits)}`] : [])
    ]
  if (missing.length > 0) {
    // The first-run default is what limits the deposits: say why it is one year.
    const why = options.defaultDeposits === deposits && transfers === 0
      ? ` (without --since a first run reads one year of deposits: one request covers at most ${options.depositWindow} of them)`
      : ""
    lines.push(
      `not fetched: ${
        missing.join(", ")
      }${why}; pass an earlier --since (a date, 5y, or 0 for everything) to backfill it`
    )
  }
  if (options.uncovered !== undefined) lines.push(options.uncovered)
  return lines
}

const requestsText = (requests: Pick<Snapshot, "requests" | "retries"> | undefined): string =>
  requests === undefined ? "" : `${requests.requests} requests, ${requests.retries} retries, `

/**
 * The summary's first line for one key: the streams synced, what was applied, what the tables hold for
 * it, the crowded milliseconds its streams went on without (`--on-incomplete warn`), and (when they
 * are its alone) its requests. With `profile` the counts are said to be the profile's, since the
 * tables hold other profiles' rows too.
 */
export const syncedLine = (summary: {
  readonly streams: number
  /** The database as messages name it (`DatabaseName.describe`). */
  readonly db: string
  readonly totals: Totals
  readonly counts: Counts
  readonly requests: Pick<Snapshot, "requests" | "retries"> | undefined
  readonly seconds: number
  readonly profile: boolean
  /** Crowded milliseconds the streams went on without all their records (`--on-incomplete warn`). */
  readonly incomplete?: number | undefined
}): string =>
  `synced ${summary.streams} streams into ${summary.db}: applied ${summary.totals.transfers} transfer and ${summary.totals.deposits} deposit records in ${summary.totals.batches} transactions; the tables hold ${summary.counts.transfers} transfers and ${summary.counts.deposits} deposits${
    summary.profile ? " of this profile" : ""
  }${incompleteText(summary.incomplete ?? 0)} (${requestsText(summary.requests)}${summary.seconds.toFixed(1)} s)`

const incompleteText = (n: number): string =>
  n === 0
    ? ""
    : n === 1
    ? "; incomplete: 1 crowded millisecond not served whole (see its warning)"
    : `; incomplete: ${n} crowded milliseconds not served whole (see their warnings)`

/** The last line of a sync of a profiles file: how many profiles completed, and the requests of all. */
export const profilesLine = (summary: {
  readonly synced: number
  readonly profiles: number
  readonly db: string
  readonly requests: Pick<Snapshot, "requests" | "retries">
  readonly seconds: number
}): string =>
  `synced ${summary.synced} of ${summary.profiles} profiles into ${summary.db} (${requestsText(summary.requests)}${
    summary.seconds.toFixed(1)
  } s)`

/** A duration for a summary, whole seconds from one second on. */
const durationText = (seconds: number): string =>
  Duration.format(Duration.millis(seconds >= 1 ? Math.round(seconds) * 1000 : Math.round(seconds * 1000)))

/**
 * The line that says what a sync's plan costs, before it runs: the sub-accounts it discovered (and how
 * many the database did not know yet), its streams, and at least how many requests they need and how
 * long those take at the key's budget. An estimate and a lower bound: one request per stream per
 * maximum window of what it reads (its whole range on a first run), list pages included; busy windows'
 * further pages and retries come on top (docs/operations.md, "What a sync costs").
 */
export const planLine = (plan: {
  /**
   * The sub-accounts the service listed, and how many of them no stored stream names (not said when
   * not known, as in a dry run); none without discovery.
   */
  readonly discovered: { readonly listed: number; readonly new?: number | undefined } | undefined
  readonly streams: number
  readonly requests: number
  readonly seconds: number
  /** The key's budget: `limit` requests per `interval` ms. */
  readonly rate: { readonly limit: number; readonly interval: number }
  /** The widest window per kind (ms); none for transfers when no maximum is configured. */
  readonly maxWindow: { readonly transfers: number | undefined; readonly deposits: number }
}): string => {
  const window = (ms: number) => Duration.format(Duration.millis(ms))
  const discovered = plan.discovered === undefined
    ? ""
    : `${plan.discovered.listed} sub-accounts listed by the service${
      plan.discovered.new === undefined ? "" : `, ${plan.discovered.new} of them new to this database`
    }; `
  const how = plan.maxWindow.transfers === undefined
    ? `one request per transfer stream and one per ${window(plan.maxWindow.deposits)} window of the deposits' range`
    : `one request per stream per ${window(plan.maxWindow.transfers)} window of what it reads, ${
      window(plan.maxWindow.deposits)
    } for deposits`
  return `plan: ${discovered}${plan.streams} streams; at least ${plan.requests} requests, about ${
    durationText(plan.seconds)
  } at ${plan.rate.limit} requests per ${window(plan.rate.interval)} (an estimate: ${how}${
    plan.discovered === undefined ? "" : ", plus the list pages"
  }; busy windows take more)`
}
