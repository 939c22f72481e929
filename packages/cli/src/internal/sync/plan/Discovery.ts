/**
 * The whole broker without a list: the sub-accounts as the service lists them
 * (`BrokerHistory.subAccounts`), and the sync's transfer streams planned over them by the client's
 * `TransferPlan`, each starting at its sub-account's creation. Also the lines `--dry-run` prints for
 * them. The names and notes come from the service: they are printed with control characters escaped.
 *
 * @internal
 */
import type { BrokerError, BrokerHistory } from "@broker-history/client"
import { TransferPlan } from "@broker-history/client"
import type { SubAccount } from "@broker-history/domain"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { printable } from "../ServiceText.js"
import * as Estimate from "./Estimate.js"
import type { PlannedStream } from "./Plan.js"

/** The most sub-accounts one page of the list holds: the service's maximum, which the client asks for. */
export const pageSize = 200

/** What a listing found: the sub-accounts, the pages it took, and the transfer streams planned over them. */
export interface Discovered {
  readonly listed: ReadonlyArray<SubAccount.SubAccount>
  readonly pages: number
  readonly transferStreams: ReadonlyArray<PlannedStream>
}

/** The transfer streams of the whole broker over `listed`, each starting at its sub-account's creation. */
export const plan = (
  listed: ReadonlyArray<SubAccount.SubAccount>,
  accountTypes: ReadonlyArray<string>
): ReadonlyArray<PlannedStream> =>
  TransferPlan.ofSubAccounts(listed, accountTypes).map((s) => ({ id: s.key, query: s.query, startsAt: s.startsAt }))

/** Lists the sub-accounts and plans their streams. */
export const discover = (
  history: Context.Tag.Service<BrokerHistory.BrokerHistory>,
  accountTypes: ReadonlyArray<string>
): Effect.Effect<Discovered, BrokerError.BrokerError> =>
  Effect.map(Stream.runCollect(history.subAccounts()), (chunk) => {
    const listed = Chunk.toReadonlyArray(chunk)
    return {
      listed,
      pages: Estimate.listPages(listed.length, pageSize),
      transferStreams: plan(listed, accountTypes)
    }
  })

/** A time as `--dry-run` prints it: ISO 8601 in UTC. */
const timeText = (ms: number): string => new Date(ms).toISOString()

/**
 * One sub-account's `--dry-run` line: its name, when its history starts (its creation, or `--since`
 * when that is later), and its note.
 */
export const subAccountLine = (sub: SubAccount.SubAccount, since: number): string => {
  const created = sub.timestamp === undefined
    ? "creation time not given: read from --since"
    : sub.timestamp < since
    ? `created ${timeText(sub.timestamp)}, read from --since`
    : `created ${timeText(sub.timestamp)}, read from then`
  const note = sub.note === "" ? "" : ` (note: ${printable(sub.note, 80)})`
  return `sub-account ${printable(sub.subAccount, 256)}: ${created}${note}`
}
