/**
 * What a sync's plan costs before it runs: a lower bound on its requests and the time they take at
 * the key's rate limit (docs/operations.md, "What a sync costs"). Every stream reads its range in
 * windows no wider than the service accepts, and each window is at least one request even when it is
 * empty, so a stream costs at least one request per maximum window over what it has to read: its
 * whole range on a first run; later, its settlement window, what came after its checkpoint and any
 * backfill. Pages beyond the first of a busy window, retries and the waits of an adaptive rate are
 * not counted. Pure: the streams, the limits and the clock in, the figures out.
 *
 * @internal
 */

/** One stream of a plan: its kind, where its history starts, and what the store holds of it. */
export interface Stream {
  readonly kind: "transfers" | "deposits"
  /** Where the stream's history starts in this run (Unix ms): the later of `--since` and its creation. */
  readonly start: number
  /** What the store holds: its checkpoint's time and where its stored history starts; none on a first run. */
  readonly stored?: { readonly checkpoint: number; readonly coveredSince: number } | undefined
}

/** What bounds the requests: the widest window per kind (none: unlimited), the settlement window, the budget. */
export interface Limits {
  readonly maxWindow: { readonly transfers: number | undefined; readonly deposits: number }
  readonly settlement: number
  /** The key's budget: `limit` requests per `interval` ms. */
  readonly rate: { readonly limit: number; readonly interval: number }
}

/** A plan's cost: the streams, at least how many requests, and how long they take at the budget (s). */
export interface Estimate {
  readonly streams: number
  readonly requests: number
  readonly seconds: number
}

/** The windows of at most `width` ms over [from, to]: at least one (none wide: one for the whole range). */
export const windows = (from: number, to: number, width: number | undefined): number =>
  width === undefined || width <= 0 || to < from ? 1 : Math.max(1, Math.ceil((to - from + 1) / width))

/** The requests one stream needs at least in a run at `now`. */
export const streamRequests = (stream: Stream, limits: Limits, now: number): number => {
  const width = limits.maxWindow[stream.kind]
  if (stream.stored === undefined) return windows(stream.start, now, width)
  const { checkpoint, coveredSince } = stream.stored
  const backfill = stream.start < coveredSince ? windows(stream.start, coveredSince - 1, width) : 0
  const settled = limits.settlement > 0
    ? windows(Math.max(coveredSince, checkpoint - limits.settlement), checkpoint, width)
    : 0
  return backfill + settled + windows(checkpoint, now, width)
}

/**
 * The pages a list of `count` names costs at `pageSize` a page: the list ends at a page shorter than
 * a full one, so a count that fills its last page needs one more, empty, page.
 */
export const listPages = (count: number, pageSize: number): number => Math.floor(count / pageSize) + 1

/**
 * A plan's cost at `now`: its streams' requests plus `more` (the list pages already read or to be read,
 * the server-time request), and the seconds they take at the budget.
 */
export const estimate = (
  streams: ReadonlyArray<Stream>,
  limits: Limits,
  now: number,
  more: number
): Estimate => {
  let requests = more
  for (const stream of streams) requests += streamRequests(stream, limits, now)
  return {
    streams: streams.length,
    requests,
    seconds: (requests / Math.max(1, limits.rate.limit)) * limits.rate.interval / 1000
  }
}
