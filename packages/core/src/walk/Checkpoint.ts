/**
 * Where a full-history stream stands, as plain values: every record before `time` has been emitted,
 * and of the records at `time` exactly those whose ids are in `ids`; a change of a change stream
 * carries the checkpoint after it. Also the rule that reads a stored checkpoint's JSON text, so that
 * both lines refuse a damaged one with the same words.
 *
 * @since 0.2.0
 */

/**
 * A checkpoint: the last millisecond emitted and the ids emitted at it.
 *
 * @example
 * ```ts
 * import type { Checkpoint } from "@broker-history/core/walk/Checkpoint"
 *
 * // Every record before 2025-01-01 has been emitted, and of those at that millisecond, "42" and "43".
 * const checkpoint: Checkpoint = { time: 1735689600000, ids: ["42", "43"] }
 * assert.strictEqual(checkpoint.ids.length, 2)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Checkpoint {
  readonly time: number
  readonly ids: ReadonlyArray<string>
}

/**
 * One element of a change stream: a record, whether it is `new` or an `update` of a record emitted
 * before (follow mode: status or confirmations changed), and the checkpoint after it.
 *
 * @example
 * ```ts
 * import type { Change } from "@broker-history/core/walk/Checkpoint"
 *
 * const show = (change: Change<{ readonly id: string }>) => `${change.kind} ${change.record.id}`
 * assert.strictEqual(show({ kind: "update", record: { id: "42" }, checkpoint: { time: 1, ids: ["42"] } }), "update 42")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Change<A> {
  readonly kind: "new" | "update"
  readonly record: A
  readonly checkpoint: Checkpoint
}

/**
 * The checkpoint as JSON text, to store.
 *
 * @example
 * ```ts
 * import * as Checkpoint from "@broker-history/core/walk/Checkpoint"
 *
 * assert.strictEqual(Checkpoint.encode({ time: 5, ids: ["a"] }), `{"time":5,"ids":["a"]}`)
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const encode = (checkpoint: Checkpoint): string => JSON.stringify(checkpoint)

const kindOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "string"
    ? "a string"
    : typeof value === "object"
    ? "an object"
    : `a ${typeof value}`

/**
 * What is wrong with a stored checkpoint's text, as the end of a sentence that starts with the text
 * ("… is not JSON", "… has no time (Unix ms)"), or `undefined` when it is JSON `{ time, ids }` with
 * a Unix millisecond time and ids that are texts.
 *
 * @example
 * ```ts
 * import * as Checkpoint from "@broker-history/core/walk/Checkpoint"
 *
 * assert.strictEqual(Checkpoint.problem(`{"time":5,"ids":["a"]}`), undefined)
 * assert.strictEqual(Checkpoint.problem(`{"ids":[]}`), "has no time (Unix ms)")
 * assert.strictEqual(Checkpoint.problem("[]"), "is an array, not an object { time, ids }")
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const problem = (text: string): string | undefined => {
  if (text.trim() === "") return "is not JSON { time, ids }"
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return "is not JSON: expected { time, ids } as Checkpoint.encode writes it"
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `is ${kindOf(value)}, not an object { time, ids }`
  }
  const record = value as Record<string, unknown>
  if (!("time" in record)) return "has no time (Unix ms)"
  const time = record.time
  if (typeof time !== "number" || !Number.isSafeInteger(time) || time < 0) {
    return `has time ${JSON.stringify(time)}, which is not a Unix time in ms (an integer from 0)`
  }
  if (!("ids" in record)) return "has no ids (the ids of the records at its time)"
  const ids = record.ids
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) return "has ids that are not a list of texts"
  return undefined
}

/**
 * A stored checkpoint's text on one line, shortened, as an error message quotes it: a message stays
 * one readable sentence.
 *
 * @example
 * ```ts
 * import * as Checkpoint from "@broker-history/core/walk/Checkpoint"
 *
 * assert.strictEqual(Checkpoint.quote("  {\n }"), "{ }")
 * assert.strictEqual(Checkpoint.quote(""), "(empty text)")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const quote = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim()
  return line === "" ? "(empty text)" : line.length > 80 ? `${line.slice(0, 80)}… (${text.length} characters)` : line
}
