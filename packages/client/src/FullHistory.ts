/**
 * The full-history walk behind `BrokerHistory.transfers` / `deposits`: a lazy stream over a time
 * range that emits every record once, in ascending (time, id) order, in bounded memory.
 *
 * How: the range is cut into disjoint inclusive windows, each no wider than the endpoint's maximum.
 * A window is read with one request. A short page (fewer than `limit` records) is the whole window;
 * it is sorted and emitted. A full page means the window holds more than a page: the window is
 * narrowed (using the density the full page shows) and read again, so every window that is emitted
 * came from a single short page: no page offsets that live inserts could shift, no deep paging, and
 * at most one page in memory. Only a single millisecond that holds more than a page is paged
 * through. Window widths adapt to the density seen so far, aiming at pages as full as the history's
 * regularity allows (`internal/WindowFill`: the fill with the fewest expected requests per record; ~91 % for a random history, 98 % for a regular one).
 * Records come in chunks, one per window, with empty chunks between them (see `walk`).
 *
 * @since 0.1.0
 */
import * as Chunk from "effect/Chunk"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { BrokerError } from "./BrokerError.js"
import type { Change, Checkpoint } from "./Checkpoint.js"
import * as WindowFill from "./internal/WindowFill.js"

/**
 * What the walk needs to know about one kind of record and its endpoint.
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client"
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
 * @since 0.1.0
 * @category models
 */
export interface Options<A> {
  /** One request: page `page` of the records with `startTime <= time <= endTime`, at most `limit`. */
  readonly fetch: (startTime: number, endTime: number, page: number, limit: number) => Effect.Effect<
    ReadonlyArray<A>,
    BrokerError
  >
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  /** Ascending order: by `time` first, then a tie-break. */
  readonly compare: (a: A, b: A) => number
  /** What counts as a change of an emitted record (follow mode). */
  readonly fingerprint: (record: A) => string
  /** Page size; a page with fewer records ends its window. */
  readonly limit: number
  /** Widest window one request may cover (ms), or `undefined` for no limit. */
  readonly maxWindow: number | undefined
  /** Inclusive range (ms). */
  readonly since: number
  readonly until: number
  /** Continue after this checkpoint instead of at `since`. */
  readonly resume?: Checkpoint | undefined
  /** Windows fetched ahead concurrently, output order preserved (1 = strictly lazy). */
  readonly concurrency: number
  /** Keep polling after `until`. */
  readonly follow?: {
    readonly interval: Duration.Duration
    /** Trailing window re-read on every poll, so late records and changed records are seen. */
    readonly settlement: number
    /** The new "until" of each poll (the server's now). */
    readonly now: Effect.Effect<number, BrokerError>
  } | undefined
}

/** Where a sequential walk is, and whether it just emitted records (see `walk`). */
interface WalkState {
  readonly cursor: number
  readonly release: boolean
}

interface Window {
  readonly start: number
  readonly end: number
  /** The count this window was sized to hold, when it was sized from a density (for `WindowFill`). */
  readonly aim?: number | undefined
}

/**
 * The change stream: each record with `kind` and the checkpoint after it.
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client"
 * import { Chunk, Effect, Stream } from "effect"
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
 * const tenth = Chunk.unsafeLast(firstTen)
 * assert.deepStrictEqual(tenth.checkpoint, { time: 1_090, ids: ["r9"] })
 * // Started again from that checkpoint, the walk continues with the next record: no gap, no repeat.
 * const rest = Effect.runSync(Stream.runCollect(FullHistory.records({ ...options, resume: tenth.checkpoint })))
 * assert.deepStrictEqual(Chunk.toReadonlyArray(rest), rows.slice(10))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const changes = <A>(options: Options<A>): Stream.Stream<Change<A>, BrokerError> =>
  walkWith(options, (kind, record, checkpoint) => ({ kind, record, checkpoint: checkpoint() }), true)

/**
 * The records alone, for a walk without `follow` (no checkpoint is made per record).
 *
 * @example
 * ```ts
 * import { FullHistory } from "@broker-history/client"
 * import { Chunk, Effect, Stream } from "effect"
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
 * assert.deepStrictEqual(Chunk.toReadonlyArray(all), rows)
 * // Every window that was emitted came from a single short page: no page beyond the first was asked for.
 * assert.ok(requests.every((request) => request.endsWith("page 1")))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const records = <A>(options: Options<A>): Stream.Stream<A, BrokerError> =>
  walkWith(options, (_kind, record) => record, false)

/**
 * The walk, each emitted record made into an element by `element`. Without `checkpoints` (and
 * without `follow`), the boundary is updated once per window instead of after every record.
 */
const walkWith = <A, E>(
  options: Options<A>,
  element: (kind: Change<A>["kind"], record: A, checkpoint: () => Checkpoint) => E,
  checkpoints: boolean
): Stream.Stream<E, BrokerError> =>
  Stream.suspend(() => {
    const { compare, fetch, key, limit, time } = options
    const maxWindow = options.maxWindow === undefined ? Number.POSITIVE_INFINITY : Math.max(1, options.maxWindow)
    const resume = options.resume
    // Boundary: the latest millisecond emitted and the ids emitted at it. This is all the dedup
    // state the walk keeps, and it is the checkpoint.
    let boundaryTime = resume === undefined ? options.since : Math.max(options.since, resume.time)
    // Kept as a list (the checkpoint's order), with a set only once the list is long: most
    // milliseconds hold one record, and a Set per record was a measurable share of the stream's cost.
    let boundaryIds: Array<string> = resume !== undefined && resume.time >= options.since
      ? [...new Set(resume.ids)]
      : []
    let boundarySet: Set<string> | undefined
    const atBoundary = (k: string) =>
      boundaryIds.length <= 16 ? boundaryIds.includes(k) : (boundarySet ??= new Set(boundaryIds)).has(k)
    // Follow mode remembers the records of the trailing settlement window: key → [time, fingerprint].
    const known = new Map<string, readonly [number, string]>()
    const resumedAt = resume === undefined ? Number.NEGATIVE_INFINITY : resume.time
    let width = Math.min(maxWindow, Math.max(1, options.until - boundaryTime + 1))
    // The count `width` was sized to hold, or undefined when it is a guess (first window, growth cap).
    let aim: number | undefined
    let fillState = WindowFill.initial(limit)

    /** The next window from `cursor`, no further than `to`. */
    const windowFrom = (cursor: number, to: number): Window => {
      const planned = Math.min(width, maxWindow)
      const end = Math.min(to, cursor + planned - 1)
      // Only a window of the planned width tells how good the density estimate was.
      return { start: cursor, end, aim: end - cursor + 1 === planned ? aim : undefined }
    }

    // `boundaryIds` is never changed in place (a tie makes a new array), so checkpoints share it.
    const checkpoint = (): Checkpoint => ({ time: boundaryTime, ids: boundaryIds })

    const adapt = (window: Window, count: number, full: boolean, records: ReadonlyArray<A>) => {
      const span = window.end - window.start + 1
      if (window.aim !== undefined) fillState = WindowFill.observe(fillState, window.aim, count, full, limit)
      const targetFill = WindowFill.fill(fillState)
      if (full) {
        // At least `limit` records in `span`; if they cluster, the cluster's width says more.
        let lo = Number.POSITIVE_INFINITY
        let hi = Number.NEGATIVE_INFINITY
        for (const r of records) {
          const t = time(r)
          if (t < lo) lo = t
          if (t > hi) hi = t
        }
        const observed = hi >= lo ? hi - lo + 1 : span
        width = Math.max(1, Math.floor(Math.min(span / 2, observed * targetFill)))
        aim = undefined
      } else {
        const grow = count === 0 ? 4 : (limit * targetFill) / count
        const capped = Math.min(4, grow)
        const next = Math.floor(span * capped)
        width = Math.max(1, Math.min(maxWindow, next))
        aim = grow <= 4 && next <= maxWindow && next >= 1 ? (count * width) / span : undefined
      }
    }

    const settle = (settledUntil: number) => {
      if (options.follow === undefined) return
      const horizon = settledUntil - options.follow.settlement
      for (const [k, [t]] of known) if (t <= horizon) known.delete(k)
    }

    /**
     * The records of `window` in ascending order. A page the service sent in either time order (as
     * it normally does) is only checked and, newest-first, reversed; anything else is sorted.
     */
    // Set by `ascending`: the page came in order and no two records compared equal.
    let strictlyOrdered = false
    const ascending = (window: Window, records: ReadonlyArray<A>): ReadonlyArray<A> => {
      let up = true
      let down = true
      let equal = false
      let before = Number.NaN
      strictlyOrdered = false
      for (let i = 0; i < records.length; i++) {
        const t = time(records[i]!)
        if (t < window.start || t > window.end) {
          return records.filter((r) => time(r) >= window.start && time(r) <= window.end).sort(compare)
        }
        if (i > 0 && (up || down)) {
          const order = before !== t ? (before < t ? -1 : 1) : compare(records[i - 1]!, records[i]!)
          if (order > 0) up = false
          else if (order < 0) down = false
          else equal = true
        }
        before = t
      }
      strictlyOrdered = (up || down) && !equal
      if (up) return records
      if (down) {
        const n = records.length
        const out = new Array<A>(n)
        for (let i = 0; i < n; i++) out[i] = records[n - 1 - i]!
        return out
      }
      return records.slice().sort(compare)
    }

    /**
     * Emits one complete window: what was not emitted before, ascending. A record sent twice in one
     * answer (same id, same time: adjacent once in order) is emitted once.
     */
    const emitWindow = (window: Window, records: ReadonlyArray<A>, mode: "walk" | "poll"): Chunk.Chunk<E> => {
      const inOrder = ascending(window, records)
      if (!checkpoints && mode === "walk" && options.follow === undefined) return emitRecords(inOrder)
      const out: Array<E> = []
      const horizon = options.follow === undefined
        ? Number.POSITIVE_INFINITY
        : options.until - options.follow.settlement
      let previousKey: string | undefined
      let previousTime = Number.NaN
      for (const record of inOrder) {
        const k = key(record)
        const t = time(record)
        if (t === previousTime && k === previousKey) continue
        previousKey = k
        previousTime = t
        if (mode === "poll") {
          const fp = options.fingerprint(record)
          const before = known.get(k)
          known.set(k, [t, fp])
          if (before !== undefined && before[1] === fp) continue
          const beyond = t > boundaryTime || (t === boundaryTime && !atBoundary(k))
          if (beyond) advance(t, k)
          // Unknown records at or before a resumed checkpoint may have been emitted by the run that
          // stored it: they are reported as updates (an upsert by key is right either way).
          const kind = before !== undefined ? "update" : beyond || t > resumedAt ? "new" : "update"
          out.push(element(kind, record, checkpoint))
          continue
        }
        if (t < boundaryTime || (t === boundaryTime && atBoundary(k))) continue
        advance(t, k)
        if (options.follow !== undefined && t > horizon) known.set(k, [t, options.fingerprint(record)])
        out.push(element("new", record, checkpoint))
      }
      return Chunk.unsafeFromArray(out)
    }

    /** `emitWindow` for plain records: what is past the boundary, then the boundary moved once. */
    const emitRecords = (inOrder: ReadonlyArray<A>): Chunk.Chunk<E> => {
      // The usual window: in order, no repeats, all past the boundary: emitted as it is.
      const whole = strictlyOrdered && inOrder.length > 0 && time(inOrder[0]!) > boundaryTime
      const out: Array<A> = whole ? inOrder as Array<A> : []
      let previousKey: string | undefined
      let previousTime = Number.NaN
      for (const record of whole ? [] : inOrder) {
        const t = time(record)
        if (t < boundaryTime) continue
        const k = key(record)
        if (t === previousTime && k === previousKey) continue
        previousKey = k
        previousTime = t
        if (t === boundaryTime && atBoundary(k)) continue
        out.push(record)
      }
      if (out.length > 0) {
        const last = time(out[out.length - 1]!)
        let first = out.length - 1
        while (first > 0 && time(out[first - 1]!) === last) first--
        const keys = out.slice(first).map(key)
        boundaryIds = last === boundaryTime ? [...boundaryIds, ...keys] : keys
        boundaryTime = last
        boundarySet = undefined
      }
      return Chunk.unsafeFromArray(out as unknown as Array<E>)
    }

    const advance = (t: number, k: string) => {
      if (t > boundaryTime) {
        boundaryTime = t
        boundaryIds = [k]
        boundarySet = undefined
      } else if (t === boundaryTime) {
        boundaryIds = [...boundaryIds, k]
        boundarySet?.add(k)
      }
    }

    /** Every record of one millisecond that holds more than a page: page through it. */
    const wholeMillisecond = (t: number, first: ReadonlyArray<A>, mode: "walk" | "poll") =>
      Effect.gen(function*() {
        const all: Array<A> = [...first]
        const keys = new Set(first.map(key))
        let page = 1
        let last = first
        while (last.length >= limit) {
          page++
          last = yield* fetch(t, t, page, limit)
          const before = keys.size
          for (const r of last) keys.add(key(r))
          // A page that brings nothing new would make this loop forever (a service that ignores `page`).
          if (keys.size === before) break
          all.push(...last)
        }
        return emitWindow({ start: t, end: t }, all, mode)
      })

    /**
     * Walks [from, to] sequentially with adaptive windows. After a window's records comes an empty
     * chunk, before the next request: a stream's executors keep the last chunk they emitted until
     * they emit another, which kept a whole page alive while the next one was fetched and parsed (so
     * pages survived young-generation collections).
     */
    const walk = (from: number, to: number, mode: "walk" | "poll"): Stream.Stream<E, BrokerError> =>
      Stream.unfoldChunkEffect<WalkState, E, BrokerError, never>(
        { cursor: from, release: false },
        ({ cursor, release }) => {
          if (release) return Effect.succeed(Option.some([Chunk.empty<E>(), { cursor, release: false }] as const))
          if (cursor > to) return Effect.succeed(Option.none())
          const window = windowFrom(cursor, to)
          return Effect.map(
            readWindow(window, mode),
            ({ chunk, done }) =>
              Option.some(
                [chunk, { cursor: done ? window.end + 1 : cursor, release: Chunk.isNonEmpty(chunk) }] as const
              )
          )
        }
      )

    /** One request for `window`; a short page completes it. */
    const readWindow = (window: Window, mode: "walk" | "poll") =>
      Effect.flatMap(fetch(window.start, window.end, 1, limit), (records) => {
        const full = records.length >= limit
        adapt(window, records.length, full, records)
        if (!full) return Effect.succeed({ chunk: emitWindow(window, records, mode), done: true })
        if (window.start === window.end) {
          return Effect.map(wholeMillisecond(window.start, records, mode), (chunk) => ({ chunk, done: true }))
        }
        return Effect.succeed({ chunk: Chunk.empty<E>(), done: false })
      })

    /**
     * The initial range. With concurrency > 1, windows are planned ahead and their first pages
     * fetched concurrently; output stays in order, and a window that came back full is planned
     * again, the same way, inside its own bounds.
     */
    const initial = (from: number, to: number): Stream.Stream<E, BrokerError> => {
      if (options.concurrency <= 1) return walk(from, to, "walk")
      const plan = Stream.unfold(from, (cursor) => {
        if (cursor > to) return Option.none()
        const window = windowFrom(cursor, to)
        return Option.some([window, window.end + 1] as const)
      })
      return plan.pipe(
        Stream.mapEffect(
          (window) =>
            Effect.map(fetch(window.start, window.end, 1, limit), (records) => {
              const full = records.length >= limit
              adapt(window, records.length, full, records)
              return { window, records, full }
            }),
          { concurrency: options.concurrency }
        ),
        Stream.flatMap(({ full, records, window }) => {
          // An empty chunk after the records, as in `walk`.
          if (!full) return Stream.fromChunks(emitWindow(window, records, "walk"), Chunk.empty())
          if (window.start === window.end) {
            return Stream.fromIterableEffect(wholeMillisecond(window.start, records, "walk"))
          }
          // Planned again inside its own bounds with the narrowed width, still concurrently: walking it
          // sequentially would fall back to one request per round trip (a first window spanning the
          // whole range comes back full, and the rest of the range would be read one window at a time).
          return initial(window.start, window.end)
        })
      )
    }

    const start = boundaryTime
    const first = initial(start, options.until)
    const follow = options.follow
    if (follow === undefined) return first

    const polls = Stream.unfold(options.until, (until) => Option.some([until, until] as const)).pipe(
      Stream.mapAccumEffect(options.until, (previousUntil) =>
        Effect.zipRight(
          Effect.sleep(follow.interval),
          Effect.map(
            follow.now,
            (now) => [Math.max(now, previousUntil), [previousUntil, Math.max(now, previousUntil)] as const] as const
          )
        )),
      Stream.flatMap(([previousUntil, until]) => {
        const from = Math.max(options.since, previousUntil - follow.settlement + 1)
        width = Math.min(maxWindow, Math.max(1, until - from + 1))
        aim = undefined
        return Stream.concat(
          walk(from, until, "poll"),
          Stream.fromEffect(Effect.sync(() => settle(until))).pipe(Stream.drain)
        )
      })
    )
    return Stream.concat(first.pipe(Stream.ensuring(Effect.sync(() => settle(options.until)))), polls)
  })
