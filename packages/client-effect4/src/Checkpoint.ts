/**
 * Where a full-history stream stands: every record before `time` has been emitted, and of the
 * records at `time` exactly those whose ids are in `ids`. A stream started from a checkpoint continues
 * with the next record: no gap, no repeat. Store it as JSON (`Checkpoint.encode`) next to what you did
 * with the records, in the same transaction where you can.
 *
 * @since 0.2.0
 */
import * as Core from "@broker-history/core/walk/Checkpoint"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"

/**
 * Schema of a checkpoint (JSON-safe).
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 * import { Result, Schema } from "effect"
 *
 * const decode = Schema.decodeUnknownResult(Checkpoint.Checkpoint)
 * assert.deepStrictEqual(
 *   decode({ time: 1700000000000, ids: ["42"] }),
 *   Result.succeed({ time: 1700000000000, ids: ["42"] })
 * )
 * assert.ok(Result.isFailure(decode({ time: 1.5, ids: [] })))
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const Checkpoint = Schema.Struct({
  time: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  ids: Schema.Array(Schema.String)
}).annotate({ identifier: "Checkpoint" })

/**
 * A checkpoint.
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 *
 * // Every record before 2025-01-01 has been emitted, and of those at that millisecond, "42" and "43".
 * const start: Checkpoint.Checkpoint = { time: Date.UTC(2025, 0, 1), ids: ["42", "43"] }
 * assert.strictEqual(Checkpoint.encode(start), `{"time":1735689600000,"ids":["42","43"]}`)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Checkpoint = typeof Checkpoint.Type

/**
 * The checkpoint as JSON text, to store.
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 *
 * assert.strictEqual(Checkpoint.encode({ time: 5, ids: ["a"] }), `{"time":5,"ids":["a"]}`)
 * ```
 *
 * @since 0.2.0
 * @category encoding
 */
export const encode: (checkpoint: Checkpoint) => string = Core.encode

/**
 * A stored checkpoint could not be read: `message` says in one sentence what is wrong with the
 * text (not JSON, not an object, a time that is not Unix ms, ids that are not texts).
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 *
 * const error = new Checkpoint.CheckpointError({ text: "null", problem: "is null, not an object { time, ids }" })
 * assert.strictEqual(error.message, "the checkpoint null is null, not an object { time, ids }")
 * ```
 *
 * @since 0.2.0
 * @category errors
 */
export class CheckpointError extends Schema.TaggedError<CheckpointError>()(
  "CheckpointError",
  { text: Schema.String, problem: Schema.String }
) {
  override get message(): string {
    return `the checkpoint ${Core.quote(this.text)} ${this.problem}`
  }
}

const decodeJson = Schema.decodeUnknownResult(Schema.fromJsonString(Checkpoint))

/**
 * Reads a stored checkpoint (`Checkpoint.encode`'s JSON), or a `CheckpointError` saying what is
 * wrong with the text. Never throws.
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/client-effect4"
 * import { Result } from "effect"
 *
 * assert.deepStrictEqual(Checkpoint.decode(`{"time":5,"ids":["a"]}`), Result.succeed({ time: 5, ids: ["a"] }))
 * const damaged = Checkpoint.decode(`{"time":5}`)
 * assert.ok(Result.isFailure(damaged))
 * assert.strictEqual(damaged.failure.message, `the checkpoint {"time":5} has no ids (the ids of the records at its time)`)
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const decode = (json: string): Result.Result<Checkpoint, CheckpointError> => {
  const problem = Core.problem(json)
  if (problem !== undefined) return Result.fail(new CheckpointError({ text: json, problem }))
  // The checks above are the schema's rules; the schema still has the last word.
  return Result.mapError(
    decodeJson(json),
    () => new CheckpointError({ text: json, problem: "is not a checkpoint { time, ids }" })
  )
}

/**
 * One element of a change stream: a record, whether it is `new` or an `update` of a record emitted
 * before (follow mode: status or confirmations changed), and the checkpoint after it.
 *
 * @example
 * ```ts
 * import type { Checkpoint } from "@broker-history/client-effect4"
 * import { TransferRecord } from "@broker-history/domain-effect4"
 * import { Schema } from "effect"
 *
 * const show = (change: Checkpoint.Change<TransferRecord.TransferRecord>) =>
 *   `${change.kind} ${change.record.tranId} ${change.record.status}`
 *
 * // A transfer seen before as PENDING, now SUCCESS (follow mode):
 * const record = Schema.decodeUnknownSync(TransferRecord.TransferRecord)({
 *   tranId: 42,
 *   asset: "BTC",
 *   amount: "1",
 *   status: "SUCCESS",
 *   timestamp: 1735689600000
 * })
 * assert.strictEqual(
 *   show({ kind: "update", record, checkpoint: { time: 1735689600000, ids: ["42"] } }),
 *   "update 42 SUCCESS"
 * )
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Change<A> extends Core.Change<A> {}
