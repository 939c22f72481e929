/**
 * What the full-history walk emits for what it read: a fold over the walk's events (complete
 * windows, releases, settlements) whose state is the boundary and, in follow mode, the settlement
 * memory. Each window's records are put in order (`PageOrder`), what was emitted before is dropped
 * (`Boundary`), and in follow polls records are told new from updated (`Settlement`).
 *
 * @since 0.2.0
 */
import * as Boundary from "./Boundary.js"
import type { Change, Checkpoint } from "./Checkpoint.js"
import * as PageOrder from "./PageOrder.js"
import * as Settlement from "./Settlement.js"

/**
 * What the walk read, in output order.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 *   readonly status: string
 * }
 * const config: Emission.Config<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
 *   fingerprint: (r) => r.status,
 *   until: 100,
 *   settlement: 50,
 *   resumedAt: Number.NEGATIVE_INFINITY
 * }
 *
 * const event: Emission.Event<R> = { _tag: "Window", start: 0, end: 99, records: [], mode: "walk" }
 * assert.deepStrictEqual(Emission.records(config)(Emission.initial(Boundary.start(0, undefined)), event)[1], [])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Event<A> =
  /** The records of one complete window [start, end], in any order, all inside it; "poll" when a follow poll read it. */
  | {
    readonly _tag: "Window"
    readonly start: number
    readonly end: number
    readonly records: ReadonlyArray<A>
    readonly mode: "walk" | "poll"
  }
  /** Emits nothing, so that a stream lets go of the chunk holding the last window's records. */
  | { readonly _tag: "Release" }
  /** Everything up to `until` has been read: what is older than the settlement window is forgotten. */
  | { readonly _tag: "Settled"; readonly until: number }

/**
 * The event that emits nothing: a stream lets go of the chunk holding the last window's records.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 *   readonly status: string
 * }
 * const config: Emission.Config<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
 *   fingerprint: (r) => r.status,
 *   until: 100,
 *   settlement: 50,
 *   resumedAt: Number.NEGATIVE_INFINITY
 * }
 *
 * const state = Emission.initial(Boundary.start(0, undefined))
 * assert.deepStrictEqual(Emission.records(config)(state, Emission.release), [state, []])
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const release: Event<never> = { _tag: "Release" }

// What a step emits when it emits nothing: one shared empty array.
const none: ReadonlyArray<never> = []

/**
 * What the fold needs to know of the records and of the stream: their order and identity (`PageOrder.Order`),
 * what counts as a change, and the follow settings.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 *   readonly status: string
 * }
 * const config: Emission.Config<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
 *   fingerprint: (r) => r.status,
 *   until: 100,
 *   settlement: 50,
 *   resumedAt: Number.NEGATIVE_INFINITY
 * }
 *
 * assert.strictEqual(config.fingerprint({ t: 1, id: "a", status: "PENDING" }), "PENDING")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Config<A> extends PageOrder.Order<A> {
  /** What counts as a change of an emitted record (follow mode). */
  readonly fingerprint: (record: A) => string
  /** The end of the first walk: records within `settlement` of it are remembered for the polls. */
  readonly until: number
  /** The settlement window (ms) of follow mode, undefined without follow. */
  readonly settlement: number | undefined
  /** The time of the checkpoint the stream resumed from (−∞ when it did not). */
  readonly resumedAt: number
}

/**
 * The fold's state: the boundary and the settlement memory.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 *
 * const state: Emission.State = Emission.initial(Boundary.start(10, undefined))
 * assert.deepStrictEqual(state.boundary, { time: 10, ids: [] })
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface State {
  readonly boundary: Boundary.Boundary
  readonly memory: Settlement.Memory
}

/**
 * The fold's state before anything is emitted, from where the walk starts.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 *
 * const state = Emission.initial(Boundary.start(10, { time: 20, ids: ["a"] }))
 * assert.deepStrictEqual(state.boundary, { time: 20, ids: ["a"] })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const initial = (boundary: Boundary.Boundary): State => ({ boundary, memory: Settlement.empty })

/**
 * The records alone, without follow: a window's records past the boundary, then the boundary moved
 * once. The usual window (in order, no repeats, all new) is emitted as the page itself.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 *   readonly status: string
 * }
 * const config: Emission.Config<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
 *   fingerprint: (r) => r.status,
 *   until: 100,
 *   settlement: 50,
 *   resumedAt: Number.NEGATIVE_INFINITY
 * }
 *
 * const step = Emission.records(config)
 * const [state, out] = step(Emission.initial(Boundary.start(0, undefined)), {
 *   _tag: "Window",
 *   start: 0,
 *   end: 99,
 *   records: [{ t: 20, id: "b", status: "SUCCESS" }, { t: 10, id: "a", status: "SUCCESS" }],
 *   mode: "walk"
 * })
 * assert.deepStrictEqual(out.map((r) => r.id), ["a", "b"])
 * assert.deepStrictEqual(state.boundary, { time: 20, ids: ["b"] })
 * ```
 *
 * @since 0.2.0
 * @category folding
 */
export const records =
  <A>(config: Config<A>) => (state: State, event: Event<A>): readonly [State, ReadonlyArray<A>] => {
    if (event._tag !== "Window") return [state, none]
    const inOrder = PageOrder.ascending(config, event.records)
    const out = Boundary.fresh(state.boundary, inOrder, config.time, config.key)
    if (out.length === 0) return [state, none]
    const boundary = Boundary.after(state.boundary, out, config.time, config.key)
    return [{ boundary, memory: state.memory }, out]
  }

/**
 * Every record as an element made by `element` from its kind and the checkpoint after it; in follow
 * mode also the updates of records emitted in the settlement window.
 *
 * @example
 * ```ts
 * import * as Boundary from "@broker-history/core/walk/Boundary"
 * import * as Emission from "@broker-history/core/walk/Emission"
 * interface R {
 *   readonly t: number
 *   readonly id: string
 *   readonly status: string
 * }
 * const config: Emission.Config<R> = {
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
 *   fingerprint: (r) => r.status,
 *   until: 100,
 *   settlement: 50,
 *   resumedAt: Number.NEGATIVE_INFINITY
 * }
 *
 * const step = Emission.changes(config, (kind, record, checkpoint) => `${kind} ${record.id} ${checkpoint.time}`)
 * const walked = step(Emission.initial(Boundary.start(0, undefined)), {
 *   _tag: "Window",
 *   start: 0,
 *   end: 99,
 *   records: [{ t: 60, id: "a", status: "PENDING" }],
 *   mode: "walk"
 * })
 * assert.deepStrictEqual(walked[1], ["new a 60"])
 * // A follow poll reads the settlement window again: the record changed.
 * const polled = step(walked[0], {
 *   _tag: "Window",
 *   start: 50,
 *   end: 120,
 *   records: [{ t: 60, id: "a", status: "SUCCESS" }],
 *   mode: "poll"
 * })
 * assert.deepStrictEqual(polled[1], ["update a 60"])
 * ```
 *
 * @since 0.2.0
 * @category folding
 */
export const changes =
  <A, E>(config: Config<A>, element: Element<A, E>) =>
  (state: State, event: Event<A>): readonly [State, ReadonlyArray<E>] => {
    switch (event._tag) {
      case "Release":
        return [state, none]
      case "Settled":
        return config.settlement === undefined
          ? [state, none]
          : [{ ...state, memory: Settlement.settle(state.memory, event.until - config.settlement) }, none]
      case "Window": {
        const inOrder = PageOrder.ascending(config, event.records)
        return event.mode === "walk" ? walked(config, element, state, inOrder) : polled(config, element, state, inOrder)
      }
    }
  }

/** Makes the stream's element from a record, its kind and the checkpoint after it. */
type Element<A, E> = (kind: Change<A>["kind"], record: A, checkpoint: Checkpoint) => E

/** The fold's step over one window's records, in order. */
type WindowStep = <A, E>(
  config: Config<A>,
  element: Element<A, E>,
  state: State,
  inOrder: ReadonlyArray<A>
) => readonly [State, ReadonlyArray<E>]

/** A window of the walk: each record past the boundary is new; those in the settlement window are remembered. */
const walked: WindowStep = (config, element, state, inOrder) => {
  const { key, time } = config
  const fresh = Boundary.fresh(state.boundary, inOrder, time, key)
  const horizon = config.settlement === undefined ? Number.POSITIVE_INFINITY : config.until - config.settlement
  let { boundary, memory } = state
  const out = new Array<ReturnType<typeof element>>(fresh.length)
  for (let i = 0; i < fresh.length; i++) {
    const record = fresh[i]!
    const t = time(record)
    const k = key(record)
    boundary = Boundary.advance(boundary, t, k)
    if (t > horizon) memory = Settlement.remember(memory, k, t, config.fingerprint(record))
    out[i] = element("new", record, boundary)
  }
  return [{ boundary, memory }, out]
}

/** A window of a follow poll: what is new or changed since it was emitted. */
const polled: WindowStep = (config, element, state, inOrder) => {
  const { key, time } = config
  let { boundary, memory } = state
  const out: Array<ReturnType<typeof element>> = []
  for (const record of inOrder) {
    const t = time(record)
    const k = key(record)
    const past = Boundary.isPast(boundary, t, k)
    const [remembered, kind] = Settlement.observe(
      memory,
      { key: k, time: t, fingerprint: config.fingerprint(record) },
      past,
      config.resumedAt
    )
    memory = remembered
    if (kind === undefined) continue
    if (past) boundary = Boundary.advance(boundary, t, k)
    out.push(element(kind, record, boundary))
  }
  return [{ boundary, memory }, out]
}
