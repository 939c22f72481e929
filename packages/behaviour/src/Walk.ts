/**
 * What the walk's tests ask of a line: its full-history walk (`FullHistory.records` / `changes`) run
 * on the line's virtual clock against a plain endpoint function, with plain options, giving back what
 * was emitted and requested with their virtual times. Each line implements it in a small adapter
 * (`walk/`), so that one test source runs the walk's properties and its follow clock against both.
 */
import type { Checkpoint } from "@broker-history/core/walk/Checkpoint"
import type { WindowWidths } from "@broker-history/core/walk/WindowLimit"
import type { Failure } from "./Line.js"

/** One request of the walk, with the virtual time (ms) at which it was sent. */
export interface Request {
  readonly startTime: number
  readonly endTime: number
  readonly page: number
  readonly limit: number
  readonly now: number
}

/** The service refusing a request: the line fails it with its `ApiError` of these fields. */
export interface Refusal {
  readonly _tag: "Refusal"
  readonly status: number
  readonly code: number
  readonly msg: string
}

/**
 * The service: a page of records for a request, or a refusal, at once or as a promise that settles
 * without the virtual time moving. A throw is a defect of the walk (`Defect`), for a test's own bounds.
 */
export type Endpoint<A> = (request: Request) => ReadonlyArray<A> | Refusal | Promise<ReadonlyArray<A> | Refusal>

/** `FullHistory.Options` in plain terms: no effects, durations in ms. */
export interface Options<A> {
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly compare: (a: A, b: A) => number
  readonly fingerprint: (record: A) => string
  readonly limit: number
  readonly maxWindow: number | undefined
  readonly since: number
  readonly until: number
  readonly concurrency: number
  readonly resume?: Checkpoint | undefined
  /** Keep polling every `interval` ms; `now` gives the server's now from the virtual clock's time. */
  readonly follow?: {
    readonly interval: number
    readonly settlement: number
    readonly now: (clock: number) => number
  } | undefined
  readonly endpoint?: string | undefined
  readonly maxPagesPerMillisecond?: number | undefined
  /** Told of each `IncompleteHistory`; the walk then goes on (without it, the walk fails). */
  readonly onIncomplete?: ((incomplete: Failure) => void) | undefined
  readonly windowWidths?: WindowWidths | undefined
  readonly maxWindowSetting?: string | undefined
}

/** One walk to run: `records` or `changes` over `options`, to its end or its first `take` elements. */
export interface Spec<A> {
  readonly kind: "records" | "changes"
  readonly options: Options<A>
  readonly take?: number | undefined
  /**
   * Each chunk the walk emits, handed over as it arrives and then let go: with it the walk's output
   * is not kept (`emitted` stays empty), for tests of what the walk itself holds on to.
   */
  readonly chunks?: ((chunk: ReadonlyArray<unknown>) => void) | undefined
}

/** How a walk ended. */
export type End =
  | { readonly _tag: "Done" }
  | { readonly _tag: "Failure"; readonly failure: Failure }
  | { readonly _tag: "Interrupted" }
  | { readonly _tag: "Defect"; readonly message: string }

/** An element with the virtual time (ms) at which it was emitted. */
export interface Emitted<A> {
  readonly at: number
  readonly value: A
}

/** What one walk emitted (records, or `{ kind, record, checkpoint }` changes) and how it ended. */
export interface Outcome<A> {
  readonly emitted: ReadonlyArray<Emitted<A>>
  readonly end: End
}

/**
 * How the walks run. Without `advance`, each runs to its end (one after the other, or all at once
 * with `together`), the clock standing still. With `advance`, all start at once and the clock moves
 * on by each of its steps (ms) in turn, every fiber running until suspended before and after each
 * wake-up; the walks still running are then interrupted.
 */
export interface Script {
  readonly together?: boolean | undefined
  readonly advance?: ReadonlyArray<number> | undefined
}

/** The walks' outcomes, in the order of their specs, and every request of the endpoint in order. */
export interface Run {
  readonly walks: ReadonlyArray<Outcome<unknown>>
  readonly requests: ReadonlyArray<Request>
}

/** One line's walk, under the suite's name for the line. */
export interface WalkLine {
  readonly name: string
  readonly run: <A>(endpoint: Endpoint<A>, specs: ReadonlyArray<Spec<A>>, script?: Script) => Promise<Run>
}

/** A refusal of the request (`Refusal`). */
export const refuse = (code: number, msg: string, status = 400): Refusal => ({ _tag: "Refusal", status, code, msg })

/** The answer is a refusal. */
export const isRefusal = (answer: unknown): answer is Refusal =>
  typeof answer === "object" && answer !== null && !Array.isArray(answer) && (answer as Refusal)._tag === "Refusal"

/** The records a walk emitted, in order. */
export const values = <A>(outcome: Outcome<unknown>): ReadonlyArray<A> => outcome.emitted.map((e) => e.value as A)

/** The walk ended with a typed failure: it; otherwise the test fails, naming the end. */
export const failureOf = (outcome: Outcome<unknown>): Failure => {
  if (outcome.end._tag === "Failure") return outcome.end.failure
  throw new Error(`expected a failure, the walk ended ${JSON.stringify(outcome.end)}`)
}

/** The walk ended as `tags` allow; otherwise the test fails, naming the end. */
export const expectEnd = (outcome: Outcome<unknown>, ...tags: ReadonlyArray<End["_tag"]>): void => {
  if (!tags.includes(outcome.end._tag)) {
    throw new Error(`expected the walk to end ${tags.join(" or ")}, it ended ${JSON.stringify(outcome.end)}`)
  }
}
