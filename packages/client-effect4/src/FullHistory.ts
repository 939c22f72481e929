/**
 * The full-history walk behind `BrokerHistory.transfers` / `deposits`: a lazy stream over a time
 * range that emits every record once, in ascending (time, id) order, in bounded memory.
 *
 * How: the range is cut into disjoint inclusive windows, each no wider than the endpoint's maximum,
 * each read with one request. A short page (fewer than `limit` records) is the whole window; it is
 * put in order and emitted. A full page means the window holds more than a page: the window is
 * narrowed and read again, so every window emitted came from a single short page: no page offsets
 * that live inserts could shift, no deep paging, and at most one page in memory. Only a single
 * millisecond that holds more than a page is paged through, at most `maxPagesPerMillisecond` pages.
 * Window widths follow the density seen so far, aiming at pages as full as the history's regularity
 * allows. A window the service refuses as too wide is narrowed and read again; what the refusals
 * teach of the widest window it accepts (`WindowWidths`, shared by the walks given the same one)
 * bounds every later window, below `maxWindow` (docs/streams.md, "Window widths").
 *
 * Every answer must hold only what its request asked for: a record outside the window (or the
 * `filters`) fails the walk with `ResponseDecodeError` (`OutsideQuery`), so a service that ignores the
 * window cannot send the walk round the same records forever.
 *
 * Records come in chunks, one per window, each followed by an empty chunk (so that the stream does
 * not hold the last window's page while the next one is read).
 *
 * @since 0.2.0
 */
import type * as QueryCheck from "@broker-history/core/query/QueryCheck"
import * as Boundary from "@broker-history/core/walk/Boundary"
import * as Emission from "@broker-history/core/walk/Emission"
import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
import type * as Stream from "effect/Stream"
import type { BrokerError } from "./BrokerError.js"
import type { Change } from "./Checkpoint.js"
import * as Walk from "./internal/walk/Walk.js"

/**
 * A filter of the query that every record of an answer must match, besides the time window: the
 * record's `field` (read by `read`) must be `value`. Without a value, the field is an account the
 * query left to the service (an omitted account means the master account, whose name the client does
 * not know): every record of one answer must then name the same account there. A record that leaves
 * the field empty (the service sent nothing or `null`) passes.
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 * import type { TransferRecord } from "@broker-history/domain-effect4"
 *
 * // Transfers from the master account (whatever its name) to sub1@example.com:
 * const toSub1: ReadonlyArray<FullHistory.Filter<TransferRecord.TransferRecord>> = [
 *   { field: "fromAccount", read: (t) => t.fromAccount, value: undefined },
 *   { field: "toAccount", read: (t) => t.toAccount, value: "sub1@example.com" }
 * ]
 * assert.strictEqual(toSub1.length, 2)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Filter<A> extends QueryCheck.Filter<A> {}

/**
 * What the walk needs to know about one kind of record and its endpoint.
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 * import { Effect } from "effect"
 *
 * // An in-memory history of 25 records, one every 10 ms, served 10 to a page.
 * const rows = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, t: 1_000 + 10 * i }))
 * const options: FullHistory.Options<(typeof rows)[number]> = {
 *   fetch: (startTime, endTime, page, limit) =>
 *     Effect.succeed(rows.filter((r) => r.t >= startTime && r.t <= endTime).slice((page - 1) * limit, page * limit)),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || a.id.localeCompare(b.id),
 *   fingerprint: (r) => r.id,
 *   limit: 10,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 2_000,
 *   concurrency: 1
 * }
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Options<A> extends Walk.Options<A> {}

/**
 * What walks have learned of the widest window (inclusive, in ms) one request of an endpoint may
 * cover, from the service's answers: the widest window it answered, the narrowest it refused as too
 * wide, and a width a refusal named as its maximum, to be tried next. A value: `WindowWidths` holds
 * the current one.
 *
 * @example
 * ```ts
 * import type { FullHistory } from "@broker-history/client-effect4"
 *
 * // Windows of 20 days were answered, one of 40 days refused: the next probe lies between them.
 * const known: FullHistory.KnownWidths = { accepted: 20 * 86_400_000, refused: 40 * 86_400_000, stated: undefined }
 * assert.ok(known.accepted < known.refused)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface KnownWidths extends WindowLimit.KnownWidths {}

/**
 * What the walks sharing it know of an endpoint's widest window: `current`, replaced by the walks as
 * they learn (a refusal of a window as too wide, a wider window answered). Walks given the same one
 * plan every window within what any of them learned, so only the first to meet a refusal pays for
 * it. How widths are learned: docs/streams.md, "Window widths".
 *
 * @example
 * ```ts
 * import { BrokerError, FullHistory } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const day = 86_400_000
 * const rows = Array.from({ length: 120 }, (_, i) => ({ id: `r${i}`, t: 3 * i * day }))
 * // A service that refuses windows longer than 30 days without saying how long they may be.
 * const refused: Array<string> = []
 * const widths = FullHistory.windowWidths()
 * const options: FullHistory.Options<(typeof rows)[number]> = {
 *   fetch: (startTime, endTime, page, limit) =>
 *     endTime - startTime > 30 * day
 *       ? Effect.fail(
 *         new BrokerError.ApiError({
 *           request: { endpoint: "history", startTime, endTime, page },
 *           status: 400,
 *           code: 33333,
 *           msg: "time window too large"
 *         })
 *       ).pipe(Effect.tapError(() => Effect.sync(() => refused.push(`${startTime}..${endTime}`))))
 *       : Effect.succeed(rows.filter((r) => r.t >= startTime && r.t <= endTime).slice((page - 1) * limit, page * limit)),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t,
 *   fingerprint: (r) => r.id,
 *   limit: 100,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 360 * day - 1,
 *   concurrency: 1,
 *   windowWidths: widths
 * }
 * const all = Effect.runSync(Stream.runCollect(FullHistory.records(options)))
 * assert.deepStrictEqual(all, rows)
 * // Halving from 360 days to below 30, then bisection: within 1/32 below the real maximum.
 * assert.ok(widths.current.accepted <= 30 * day + 1 && widths.current.accepted > 29 * day)
 * assert.ok(refused.length <= Math.ceil(Math.log2(360 / 30)) + 6)
 * // A second walk given the same widths sends no window too wide.
 * const before = refused.length
 * Effect.runSync(Stream.runDrain(FullHistory.records({ ...options, since: 100 * day })))
 * assert.strictEqual(refused.length, before)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface WindowWidths extends WindowLimit.WindowWidths {}

/**
 * A new `WindowWidths`, knowing nothing yet: give it to every walk of one endpoint that should learn
 * together (`BrokerHistory` makes one per endpoint for its layer).
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 *
 * const widths = FullHistory.windowWidths()
 * assert.deepStrictEqual(widths.current, { accepted: 0, refused: Infinity, stated: undefined })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const windowWidths = (): WindowWidths => ({ current: WindowLimit.unknown })

/**
 * The change stream: each record with `kind` and the checkpoint after it.
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const rows = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, t: 1_000 + 10 * i }))
 * const options: FullHistory.Options<(typeof rows)[number]> = {
 *   fetch: (startTime, endTime, page, limit) =>
 *     Effect.succeed(rows.filter((r) => r.t >= startTime && r.t <= endTime).slice((page - 1) * limit, page * limit)),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || a.id.localeCompare(b.id),
 *   fingerprint: (r) => r.id,
 *   limit: 10,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 2_000,
 *   concurrency: 1
 * }
 * const firstTen = Effect.runSync(Stream.runCollect(Stream.take(FullHistory.changes(options), 10)))
 * const tenth = firstTen[firstTen.length - 1]
 * assert.deepStrictEqual(tenth.checkpoint, { time: 1_090, ids: ["r9"] })
 * // Started again from that checkpoint, the walk continues with the next record: no gap, no repeat.
 * const rest = Effect.runSync(Stream.runCollect(FullHistory.records({ ...options, resume: tenth.checkpoint })))
 * assert.deepStrictEqual(rest, rows.slice(10))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const changes = <A>(options: Options<A>): Stream.Stream<Change<A>, BrokerError> =>
  walkWith(options, Emission.changes(configOf(options), (kind, record, checkpoint) => ({ kind, record, checkpoint })))

/**
 * The records alone, for a walk without `follow` (no checkpoint is made per record).
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client-effect4"
 * import { Effect, Stream } from "effect"
 *
 * const rows = Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, t: 1_000 + 10 * i }))
 * const requests: Array<string> = []
 * const options: FullHistory.Options<(typeof rows)[number]> = {
 *   fetch: (startTime, endTime, page, limit) =>
 *     Effect.sync(() => {
 *       requests.push(`${startTime}..${endTime} page ${page}`)
 *       return rows.filter((r) => r.t >= startTime && r.t <= endTime).slice((page - 1) * limit, page * limit)
 *     }),
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || a.id.localeCompare(b.id),
 *   fingerprint: (r) => r.id,
 *   limit: 10,
 *   maxWindow: undefined,
 *   since: 0,
 *   until: 2_000,
 *   concurrency: 1
 * }
 * const all = Effect.runSync(Stream.runCollect(FullHistory.records(options)))
 * assert.deepStrictEqual(all, rows)
 * // Every window that was emitted came from a single short page: no page beyond the first was asked for.
 * assert.ok(requests.every((request) => request.endsWith("page 1")))
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const records = <A>(options: Options<A>): Stream.Stream<A, BrokerError> =>
  walkWith(
    options,
    options.follow === undefined
      ? Emission.records(configOf(options))
      : Emission.changes(configOf(options), (_kind, record) => record)
  )

// The parts, each a function of values with its own tests, in `@broker-history/core`: `walk/WindowPlan`
// (window widths, with `walk/WindowFill` for the fill to aim at), `query/QueryCheck` (an answer holds
// only what its request asked for), `walk/Crowded` (the pages of a crowded millisecond), `walk/PageOrder`
// (a page in order, each record once), `walk/Boundary` (what was emitted: the dedup state and the
// checkpoint), `walk/Settlement` (follow mode: new or updated), `walk/WindowLimit` (the widest window
// the service accepts, learned from its refusals) and `walk/Emission` (the fold of those over the
// walk's events). `internal/walk/Walk` sequences the requests and emits the events.

/** The walk's events folded into elements by `step`. */
const walkWith = <A, E>(
  options: Options<A>,
  step: (state: Emission.State, event: Emission.Event<A>) => readonly [Emission.State, ReadonlyArray<E>]
): Stream.Stream<E, BrokerError> => {
  const boundary = Boundary.start(options.since, options.resume)
  return Walk.run(options, boundary.time, Emission.initial(boundary), step)
}

const configOf = <A>(options: Options<A>): Emission.Config<A> => ({
  time: options.time,
  key: options.key,
  compare: options.compare,
  fingerprint: options.fingerprint,
  until: options.until,
  settlement: options.follow?.settlement,
  resumedAt: options.resume === undefined ? Number.NEGATIVE_INFINITY : options.resume.time
})
