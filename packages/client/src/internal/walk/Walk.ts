/**
 * The requests of the full-history walk, as a stream of events (`Emission.Event`): complete windows
 * in output order, a release after each, and in follow mode a settlement after each pass. What to
 * emit for them is `Emission`'s business; how wide a window is, `WindowPlan`'s.
 *
 * A window is read with one request. A short page (fewer than `limit` records) is the whole window
 * (docs/wire-contract.md: a window is inclusive at both ends, and a short page ends it).
 * A full page means the window holds more than a page: it is narrowed and read again, so every window
 * emitted came from one short page (no page offsets that live inserts could shift, no deep paging, at
 * most one page in memory). Only a single millisecond that holds more than a page is paged through,
 * at most `maxPagesPerMillisecond` pages (`Crowded`).
 *
 * Every answer is checked against its request (`QueryCheck`): a record outside the window or the
 * query's filters fails the walk at once. So a window narrowed because its page came back full is
 * narrowed over records that are really in it, down to one millisecond at most, and the walk ends
 * whatever the service answers.
 *
 * A window the service refuses as too wide (`WindowLimit.classify`) is narrowed and read again from
 * the same cursor; what the refusals and answers teach of the widest window accepted is kept in the
 * walk's `windowWidths`, shared with the other walks given the same one, and bounds every window
 * planned after it (`WindowLimit.widest`). When nothing is refused, that costs a comparison per page.
 *
 * @internal
 */
import type { Filter } from "@broker-history/core/query/QueryCheck"
import type { Checkpoint } from "@broker-history/core/walk/Checkpoint"
import * as Crowded from "@broker-history/core/walk/Crowded"
import * as Emission from "@broker-history/core/walk/Emission"
import type { WindowWidths } from "@broker-history/core/walk/WindowLimit"
import * as WindowLimit from "@broker-history/core/walk/WindowLimit"
import * as WindowPlan from "@broker-history/core/walk/WindowPlan"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { BrokerError } from "../../BrokerError.js"
import { ApiError, IncompleteHistory } from "../../BrokerError.js"
import * as Streams from "../line/Streams.js"
import * as QueryCheck from "../query/QueryCheck.js"
import * as RetryWait from "../request/RetryWait.js"

/** What a walk needs (public as `FullHistory.Options`). */
export interface Options<A> {
  /** One request: page `page` of the records with `startTime <= time <= endTime`, at most `limit`. */
  readonly fetch: (startTime: number, endTime: number, page: number, limit: number) => Effect.Effect<
    ReadonlyArray<A>,
    BrokerError
  >
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  /** Ascending order: by `time` first, then a tie-break (0 only for the same record, sent twice). */
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
  /** The endpoint's name in the walk's errors (default `"history"`). Since 0.2.0. */
  readonly endpoint?: string | undefined
  /**
   * The query's filters besides the window, which every record must match (default none: only the
   * window is checked). Since 0.2.0.
   */
  readonly filters?: ReadonlyArray<Filter<A>> | undefined
  /** Most pages read of one millisecond that holds more than a page (default 20). Since 0.2.0. */
  readonly maxPagesPerMillisecond?: number | undefined
  /**
   * What to do when the service does not serve every record of a crowded millisecond. By default the
   * walk fails with the `IncompleteHistory`; when this effect succeeds instead, the records received
   * are emitted and the walk goes on (`BrokerHistory` logs a warning and counts it with
   * `onIncomplete: "warn"`). Since 0.2.0.
   */
  readonly onIncomplete?: ((incomplete: IncompleteHistory) => Effect.Effect<void, BrokerError>) | undefined
  /**
   * What is known of the widest window the service accepts, shared by every walk given the same
   * `WindowWidths` (`BrokerHistory` keeps one per endpoint for its layer); by default the walk learns
   * on its own. A refusal of a window as too wide narrows the window and reads it again, and every
   * later window is planned within what was learned; `maxWindow` stays the upper bound (see
   * `WindowWidths`). Since 0.2.0.
   */
  readonly windowWidths?: WindowWidths | undefined
  /**
   * How the walk's errors name the setting of `maxWindow` when the service refuses windows as too
   * wide even after narrowing (default `"maxWindow"`; `BrokerHistory` names its option and
   * environment variable). Since 0.2.0.
   */
  readonly maxWindowSetting?: string | undefined
}

/** Where the sequential walk is: a value handed from one step to the next. */
type State =
  /** Reading [cursor, to]; `release` when the last step emitted a window's records. */
  | {
    readonly _tag: "Reading"
    readonly cursor: number
    readonly to: number
    readonly mode: "walk" | "poll"
    readonly plan: WindowPlan.Plan
    readonly release: boolean
  }
  /** Read everything up to `until`: in follow mode, settle and wait for the next poll; else the end. */
  | { readonly _tag: "CaughtUp"; readonly until: number; readonly plan: WindowPlan.Plan }
  /** Follow mode: the next poll, after the interval, re-reads the settlement window before the server's now. */
  | { readonly _tag: "Waiting"; readonly until: number; readonly plan: WindowPlan.Plan }

type Step<A> = Effect.Effect<Option.Option<readonly [ReadonlyArray<Emission.Event<A>>, State]>, BrokerError>

/**
 * The output of a walk over [from, options.until] (`from`: where the boundary is), then of the polls:
 * its events folded by `step` from `initial` (`Emission.records` / `Emission.changes`). One request at a time, the fold runs inside the walk's own step (one
 * stream stage per page instead of three); with windows fetched ahead, over the stream of events.
 */
export const run = <A, E>(
  options: Options<A>,
  from: number,
  initial: Emission.State,
  step: (state: Emission.State, event: Emission.Event<A>) => readonly [Emission.State, ReadonlyArray<E>]
): Stream.Stream<E, BrokerError> =>
  Stream.suspend(() => {
    const walk = prepared(options)
    if (walk.concurrency > 1) {
      return Streams.mapAccumArrays(eventsOf(walk, from), initial, step)
    }
    return foldedWalk(walk, from, initial, step)
  })

/** The sequential walk with its events folded by `step` as they come (see `run`). */
const foldedWalk = <A, E>(
  options: Run<A>,
  from: number,
  initial: Emission.State,
  step: (state: Emission.State, event: Emission.Event<A>) => readonly [Emission.State, ReadonlyArray<E>]
): Stream.Stream<E, BrokerError> => {
  const next = steps(options)
  const start: State = {
    _tag: "Reading",
    cursor: from,
    to: options.until,
    mode: "walk",
    plan: WindowPlan.make(options.limit, options.maxWindow),
    release: false
  }
  return Streams.unfoldArrays(
    [start, initial] as readonly [State, Emission.State],
    ([state, emission]) =>
      Effect.map(next(state), (stepped) => {
        if (Option.isNone(stepped)) return Option.none()
        const [events, after] = stepped.value
        let folded = emission
        let out: ReadonlyArray<E> = []
        for (const event of events) {
          const [nextEmission, emitted] = step(folded, event)
          folded = nextEmission
          if (emitted.length === 0) continue
          out = out.length === 0 ? emitted : out.concat(emitted)
        }
        return Option.some([out, [after, folded] as const] as const)
      })
  )
}

/** The events of a walk over [from, options.until] (`from`: where the boundary is), then of the polls. */
export const events = <A>(options: Options<A>, from: number): Stream.Stream<Emission.Event<A>, BrokerError> =>
  Stream.suspend(() => eventsOf(prepared(options), from))

/** The options of one run of a walk: with the window widths it learns with. */
type Run<A> = Options<A> & { readonly windowWidths: WindowWidths }

/**
 * The options of one run of a walk: its own window widths unless it was given some to share, and its
 * `onIncomplete` told once per millisecond: a follow poll reads the settlement window again, and with
 * it a crowded millisecond it already reported. The times reported are kept while a poll may read
 * them again (within the settlement window of the latest).
 */
const prepared = <A>(options: Options<A>): Run<A> => {
  const windowWidths = options.windowWidths ?? { current: WindowLimit.unknown }
  const report = options.onIncomplete
  const follow = options.follow
  if (report === undefined || follow === undefined) return { ...options, windowWidths }
  const reported = new Set<number>()
  return {
    ...options,
    windowWidths,
    onIncomplete: (incomplete) =>
      Effect.suspend(() => {
        if (reported.has(incomplete.time)) return Effect.void
        for (const time of reported) if (time < incomplete.time - follow.settlement) reported.delete(time)
        reported.add(incomplete.time)
        return report(incomplete)
      })
  }
}

const eventsOf = <A>(options: Run<A>, from: number): Stream.Stream<Emission.Event<A>, BrokerError> => {
  const plan = WindowPlan.make(options.limit, options.maxWindow)
  if (options.concurrency <= 1) {
    return sequential(options, { _tag: "Reading", cursor: from, to: options.until, mode: "walk", plan, release: false })
  }
  // The first pass with windows fetched ahead; the polls of follow mode go on from the plan it left.
  const shared: Shared = { plan }
  const first = prefetched(options, shared, from, options.until)
  if (options.follow === undefined) return first
  return Stream.concat(
    first,
    Stream.suspend(() => sequential(options, { _tag: "CaughtUp", until: options.until, plan: shared.plan }))
  )
}

/** The plan of a first pass with windows fetched ahead, updated by the answers as they arrive. */
interface Shared {
  plan: WindowPlan.Plan
}

/**
 * The sequential walk (and the polls of follow mode), one request at a time. After a window's
 * records comes a release before the next request: a stage of an Effect 3 stream keeps the last
 * chunk it emitted until it emits another, which would keep a whole page alive while the next one
 * is fetched and parsed (so pages would survive young-generation collections).
 */
const sequential = <A>(options: Run<A>, start: State): Stream.Stream<Emission.Event<A>, BrokerError> =>
  Streams.unfoldArrays(start, steps(options))

/** One step of the sequential walk: the events of one request (or of a wait), and where it goes on. */
const steps = <A>(options: Run<A>) => {
  const step = (state: State): Step<A> => {
    switch (state._tag) {
      case "Reading": {
        if (state.release) return emit([Emission.release], { ...state, release: false })
        if (state.cursor > state.to) return step({ _tag: "CaughtUp", until: state.to, plan: state.plan })
        const window = WindowPlan.window(
          state.plan,
          state.cursor,
          state.to,
          WindowLimit.widest(options.windowWidths.current)
        )
        return Effect.matchEffect(options.fetch(window.start, window.end, 1, options.limit), {
          // Refused as too wide: the same cursor, read again within the narrower width learned.
          onFailure: (error) => Effect.andThen(narrow(options, window, error), emit<A>([], state)),
          onSuccess: (page) => {
            const refused = checked(options, window.start, window.end, 1, options.limit, page)
            if (refused !== undefined) return Effect.fail(refused)
            const plan = WindowPlan.observe(state.plan, window, page, options.time)
            const complete = completed(options, window, page)
            // Narrowed: the same cursor, read again with the plan's new width.
            if (complete === undefined) return learned(options, window, emit<A>([], { ...state, plan }))
            return learned(
              options,
              window,
              Effect.flatMap(complete, (records) =>
                emit([windowOf(window.start, window.end, records, state.mode)], {
                  ...state,
                  cursor: window.end + 1,
                  plan,
                  release: records.length > 0
                }))
            )
          }
        })
      }
      case "CaughtUp": {
        if (options.follow === undefined) return Effect.succeed(Option.none())
        return emit([{ _tag: "Settled", until: state.until }], {
          _tag: "Waiting",
          until: state.until,
          plan: state.plan
        })
      }
      case "Waiting": {
        const follow = options.follow
        if (follow === undefined) return Effect.succeed(Option.none())
        return Effect.andThen(
          Effect.sleep(follow.interval),
          Effect.flatMap(follow.now, (now) => {
            const until = Math.max(now, state.until)
            const from = Math.max(options.since, state.until - follow.settlement + 1)
            return emit<A>([], {
              _tag: "Reading",
              cursor: from,
              to: until,
              mode: "poll",
              plan: WindowPlan.restart(state.plan),
              release: false
            })
          })
        )
      }
    }
  }
  return step
}

/**
 * The first pass with `options.concurrency` windows fetched ahead, output in order. Windows are
 * planned as the stream is pulled, each from the plan as it is then: the answers of windows in flight
 * update it as they arrive (`shared`). A window that came back full is planned again, the same way,
 * inside its own bounds; its first window there is narrower (`narrowed`), as the sequential walk's is,
 * whatever the other windows in flight made of the plan. A window refused as too wide, or planned
 * wider than the widths learned while it waited to be sent (it is then not sent), is planned again
 * the same way inside its own bounds, within the narrower width.
 */
const prefetched = <A>(
  options: Run<A>,
  shared: Shared,
  from: number,
  to: number,
  full?: Full
): Stream.Stream<Emission.Event<A>, BrokerError> =>
  Stream.unwrap(
    Effect.map(RetryWait.makeAhead(options.concurrency), (ahead) =>
      Streams.unfold(from, (cursor) =>
        cursor > to
          ? Effect.succeed(Option.none())
          : Effect.andThen(
            ahead.plan,
            Effect.sync(() => {
              const planned = WindowPlan.window(
                shared.plan,
                cursor,
                to,
                WindowLimit.widest(options.windowWidths.current)
              )
              const window = full !== undefined && cursor === full.start ? narrowed(planned, full) : planned
              return Option.some([window, window.end + 1] as const)
            })
          )).pipe(
          // At most `concurrency` windows planned and in flight, and up to 4 × as many waiting out a
          // refusal's Retry-After, which give back their places meanwhile: about what the budget lets
          // start while a page waits its second (docs/streams.md, the `concurrency` option). A window
          // is checked against the widths learned when it gets its place in flight.
          Stream.mapEffect((window) => ahead.fetch(Effect.suspend(() => fetched(options, shared, window))), {
            concurrency: 5 * options.concurrency
          }),
          Stream.flatMap(({ page, window }) => {
            if (page === undefined) return prefetched(options, shared, window.start, window.end)
            const complete = completed(options, window, page)
            // Planned again inside its own bounds with the narrowed width, still concurrently: walking it
            // sequentially would fall back to one request per round trip (a first window spanning the
            // whole range comes back full, and the rest of the range would be read one window at a time).
            if (complete === undefined) {
              const repeats = full !== undefined && full.start === window.start ? full.repeats + 1 : 1
              return prefetched(options, shared, window.start, window.end, {
                start: window.start,
                end: window.end,
                repeats
              })
            }
            return Stream.unwrap(
              Effect.map(complete, (records) => released(windowOf(window.start, window.end, records, "walk")))
            )
          })
        ))
  )

/** A window that came back full, and how many windows from its start did in a row. */
interface Full {
  readonly start: number
  readonly end: number
  readonly repeats: number
}

/** A window from the start of a full one: narrower than it, and at most half of it from the second on. */
const narrowed = (window: WindowPlan.Window, full: Full): WindowPlan.Window => {
  let end = Math.min(window.end, full.end - 1)
  if (full.repeats >= 2) end = Math.min(end, full.start + Math.floor((full.end - full.start + 1) / 2) - 1)
  end = Math.max(window.start, end)
  return end === window.end ? window : { start: window.start, end, aim: undefined }
}

/** A window of the first pass fetched ahead, and its first page; no page when it must be planned again, narrower. */
interface Fetched<A> {
  readonly window: WindowPlan.Window
  readonly page: ReadonlyArray<A> | undefined
}

/**
 * The first page of a window fetched ahead, checked against it, and the shared plan after it. A window
 * planned wider than what was learned since is not sent; one refused as too wide teaches the widths.
 */
const fetched = <A>(
  options: Run<A>,
  shared: Shared,
  window: WindowPlan.Window
): Effect.Effect<Fetched<A>, BrokerError> => {
  if (window.end - window.start + 1 > WindowLimit.widest(options.windowWidths.current)) {
    return Effect.succeed({ window, page: undefined })
  }
  return Effect.matchEffect(options.fetch(window.start, window.end, 1, options.limit), {
    onFailure: (error) => Effect.as(narrow(options, window, error), { window, page: undefined }),
    onSuccess: (page) => {
      const refused = checked(options, window.start, window.end, 1, options.limit, page)
      if (refused !== undefined) return Effect.fail(refused)
      shared.plan = WindowPlan.observe(shared.plan, window, page, options.time)
      return learned(options, window, Effect.succeed({ window, page }))
    }
  })
}

/** One request, its answer checked against it: a record outside the window or the filters fails it. */
const read = <A>(options: Options<A>, start: number, end: number, page: number, limit: number) =>
  Effect.flatMap(options.fetch(start, end, page, limit), (records) => {
    const refused = checked(options, start, end, page, limit, records)
    return refused === undefined ? Effect.succeed(records) : Effect.fail(refused)
  })

/** What is wrong with an answer to a request: a record outside the window or the filters; undefined when nothing. */
const checked = <A>(
  options: Options<A>,
  start: number,
  end: number,
  page: number,
  limit: number,
  records: ReadonlyArray<A>
) =>
  QueryCheck.check(
    records,
    { start, end, limit, time: options.time, key: options.key, filters: options.filters ?? noFilters },
    requestOf(options, start, end, page)
  )

/**
 * After the first page of `window` failed with `failure`: when the service refused the window as too
 * wide (`WindowLimit.classify`), what that teaches goes into the shared widths, said at debug level,
 * and the walk reads the same cursor again; a refusal narrowing cannot fix, at the floor or from a
 * service that accepted wider windows before, fails naming the setting; any other failure stays as it is.
 */
const narrow = <A>(
  options: Run<A>,
  window: WindowPlan.Window,
  failure: BrokerError
): Effect.Effect<void, BrokerError> => {
  if (failure._tag !== "ApiError") return Effect.fail(failure)
  const error = failure
  const width = window.end - window.start + 1
  const known = options.windowWidths.current
  const verdict = WindowLimit.classify(known, width, error.msg)
  if (verdict === "Other") return Effect.fail(failure)
  if (verdict !== "Narrow") {
    return Effect.fail(
      new ApiError({
        request: error.request,
        status: error.status,
        code: error.code,
        msg: error.msg,
        window: {
          refused: width,
          accepted: known.accepted,
          setting: options.maxWindowSetting ?? defaultSetting
        }
      })
    )
  }
  const after = WindowLimit.refused(known, width, error.msg)
  options.windowWidths.current = after
  const next = WindowLimit.widest(after)
  return Effect.logDebug(
    `${endpointOf(options)}: the service refused a window of ${span(width)} as too wide; ` +
      `windows are now planned at most ${span(next)} wide`
  ).pipe(
    Effect.annotateLogs({
      endpoint: endpointOf(options),
      refusedMillis: width,
      acceptedMillis: after.accepted,
      widestMillis: next
    })
  )
}

/**
 * `next`, after what the service answering `window` teaches of the widths (nothing, usually: then
 * `next` itself); while the walks are learning (a window was refused), a wider window answered is
 * said at debug level.
 */
const learned = <A, X>(
  options: Run<A>,
  window: WindowPlan.Window,
  next: Effect.Effect<X, BrokerError>
): Effect.Effect<X, BrokerError> => {
  const known = options.windowWidths.current
  const after = WindowLimit.accepted(known, window.end - window.start + 1)
  if (after === known) return next
  options.windowWidths.current = after
  if (known.refused === Number.POSITIVE_INFINITY) return next
  const widest = WindowLimit.widest(after)
  const log = Effect.logDebug(
    `${endpointOf(options)}: the service accepts windows of ${span(after.accepted)}` +
      (WindowLimit.settled(after)
        ? `; windows are planned within it from now on`
        : `; windows are now planned at most ${span(widest)} wide`)
  ).pipe(
    Effect.annotateLogs({
      endpoint: endpointOf(options),
      acceptedMillis: after.accepted,
      refusedMillis: after.refused,
      widestMillis: widest
    })
  )
  return Effect.andThen(log, next)
}

const span = (millis: number): string => Duration.format(Duration.millis(millis))

const endpointOf = <A>(options: Options<A>): string => options.endpoint ?? defaultEndpoint

/** What the walk's errors name as the setting of the widest window when its options do not. */
const defaultSetting = "maxWindow"

const noFilters: ReadonlyArray<never> = []

const requestOf = <A>(options: Options<A>, startTime: number, endTime: number, page: number) => ({
  endpoint: endpointOf(options),
  startTime,
  endTime,
  page
})

/** What the errors of a walk name as its endpoint when its options do not. */
const defaultEndpoint = "history"

/** Pages read of one crowded millisecond when the options do not say (`BrokerConfig` has the same default). */
const defaultMaxPages = 20

/**
 * The records of a window, given its first page: the page when it is short; every page when the
 * window is one crowded millisecond; undefined when the window holds more than a page and must be
 * narrowed.
 */
const completed = <A>(
  options: Options<A>,
  window: WindowPlan.Window,
  page: ReadonlyArray<A>
): Effect.Effect<ReadonlyArray<A>, BrokerError> | undefined =>
  page.length < options.limit
    ? Effect.succeed(page)
    : window.start === window.end
    ? crowded(options, window.start, page)
    : undefined

/**
 * Every record of one millisecond that holds more than a page: the pages after `first`, as `Crowded`
 * decides, each record once. When the service does not serve them all, `options.onIncomplete` is told
 * (by default it fails the walk); if it goes on, the records received are the millisecond's.
 */
const crowded = <A>(options: Options<A>, time: number, first: ReadonlyArray<A>) =>
  Effect.gen(function*() {
    const all: Array<A> = []
    const keys = new Set<string>()
    const add = (records: ReadonlyArray<A>): number => {
      const before = keys.size
      for (const record of records) {
        const key = options.key(record)
        if (keys.has(key)) continue
        keys.add(key)
        all.push(record)
      }
      return keys.size - before
    }
    add(first)
    let [state, next] = Crowded.start(options.limit, options.maxPagesPerMillisecond ?? defaultMaxPages)
    for (;;) {
      switch (next._tag) {
        case "Complete":
          return all
        case "Incomplete": {
          const incomplete = new IncompleteHistory({
            request: requestOf(options, time, time, next.page),
            time,
            received: keys.size,
            pages: state.pages,
            reason: next.reason
          })
          yield* options.onIncomplete === undefined ? Effect.fail(incomplete) : options.onIncomplete(incomplete)
          return all
        }
        case "Page": {
          const page = yield* read(options, time, time, next.page, next.limit)
          ;[state, next] = Crowded.afterPage(state, page.length, add(page))
          break
        }
        case "Probe": {
          const page = yield* read(options, time, time, next.page, next.limit)
          next = Crowded.afterProbe(state, next, page.length, add(page))
          break
        }
      }
    }
  })

const windowOf = <A>(
  start: number,
  end: number,
  records: ReadonlyArray<A>,
  mode: "walk" | "poll"
): Emission.Event<A> => ({ _tag: "Window", start, end, records, mode })

const emit = <A>(events: ReadonlyArray<Emission.Event<A>>, state: State): Step<A> =>
  Effect.succeed(Option.some([events, state] as const))

/** A window's records, then a release (see `sequential`), each pulled on its own. */
const released = <A>(event: Emission.Event<A>): Stream.Stream<Emission.Event<A>> =>
  Streams.fromArrays<Emission.Event<A>>([event], [Emission.release])
