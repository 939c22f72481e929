/**
 * Where a full-history stream stands: every record before `time` has been emitted, and of the
 * records at `time` exactly those whose ids are in `ids`. A stream started from a checkpoint continues
 * with the next record: no gap, no repeat. Store it as JSON (`Checkpoint.encode`) next to what you did
 * with the records, in the same transaction where you can.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * Schema of a checkpoint (JSON-safe).
 *
 * @example
 * import { Checkpoint } from "@broker-history/client"
 * import { Schema } from "effect"
 * Schema.decodeUnknownSync(Checkpoint.Checkpoint)({ time: 1700000000000, ids: ["42"] })
 */
export const Checkpoint = Schema.Struct({
  time: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  ids: Schema.Array(Schema.String)
}).annotations({ identifier: "Checkpoint" })

/**
 * A checkpoint.
 *
 * @example
 * import type { Checkpoint } from "@broker-history/client"
 * const start: Checkpoint.Checkpoint = { time: 0, ids: [] }
 */
export type Checkpoint = typeof Checkpoint.Type

/**
 * The checkpoint as JSON text, to store.
 *
 * @example
 * import { Checkpoint } from "@broker-history/client"
 * Checkpoint.encode({ time: 5, ids: ["a"] }) // '{"time":5,"ids":["a"]}'
 */
export const encode = (checkpoint: Checkpoint): string => JSON.stringify(checkpoint)

/**
 * Reads a stored checkpoint; throws a `ParseError` describing what is wrong when it is not one.
 *
 * @example
 * import { Checkpoint } from "@broker-history/client"
 * Checkpoint.decode('{"time":5,"ids":["a"]}').time // 5
 */
export const decode = (json: string): Checkpoint => Schema.decodeSync(Schema.parseJson(Checkpoint))(json)

/**
 * One element of a change stream: a record, whether it is `new` or an `update` of a record emitted
 * before (follow mode: status or confirmations changed), and the checkpoint after it.
 *
 * @example
 * import type { Checkpoint } from "@broker-history/client"
 * import type { TransferRecord } from "@broker-history/domain"
 * const show = (c: Checkpoint.Change<TransferRecord.TransferRecord>) => `${c.kind} ${c.record.tranId}`
 */
export interface Change<A> {
  readonly kind: "new" | "update"
  readonly record: A
  readonly checkpoint: Checkpoint
}
