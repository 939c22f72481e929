/**
 * A sync's follow phase, once every stream has caught up: every stream that is not damaged, from its
 * stored checkpoint, through the client's follow schedulers (one for the transfer streams, one for
 * the deposit stream); the merged changes are batched by size or wait and written per stream with
 * that stream's checkpoint. A line says what was applied at most once per poll interval.
 *
 * @internal
 */
import type { BrokerError, BrokerHistory } from "@broker-history/client"
import type { SqlError } from "@effect/sql/SqlError"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Plan from "../plan/Plan.js"
import { printable } from "../ServiceText.js"
import type * as Store from "../store/Store.js"
import { startOf } from "./Positions.js"
import type { Settings } from "./Settings.js"
import type { Resilience, State, StreamSpec, Write } from "./Streams.js"
import { asItIs } from "./Streams.js"

/** While following, a stream whose last poll brought records is polled again after this long (ms). */
const pollAfterRecords = 1000

/** The line that starts the follow phase. */
export const caughtUpLine = (now: number, counts: Store.Counts, follow: number): string =>
  `${
    new Date(now).toISOString()
  } caught up: ${counts.transfers} transfers, ${counts.deposits} deposits; following, each stream at least every ${
    Duration.format(Duration.millis(follow))
  }`

/** The line of what was applied since the last one; none when nothing was. */
export const appliedLine = (now: number, transfers: number, deposits: number): string | undefined =>
  transfers + deposits === 0
    ? undefined
    : `${
      new Date(now).toISOString()
    } applied ${transfers} transfer and ${deposits} deposit records (new, changed, or re-read in the settlement window)`

/** The line that says which new sub-accounts a listing found while following, and what is done with them. */
export const discoveredLine = (now: number, subAccounts: ReadonlyArray<string>, streams: number): string => {
  const shown = subAccounts.slice(0, 10).map((name) => printable(name, 256)).join(", ")
  const more = subAccounts.length > 10 ? ` and ${subAccounts.length - 10} more` : ""
  return `${new Date(now).toISOString()} ${
    subAccounts.length === 1 ? "1 new sub-account" : `${subAccounts.length} new sub-accounts`
  }${subAccounts.length === 0 ? "" : ` (${shown}${more})`}: reading ${streams} new ${
    streams === 1 ? "stream" : "streams"
  } from their creation, then following them with the others`
}

/** The warning when listing the sub-accounts failed while following: the others go on, the list is read again later. */
export const listFailedLine = (now: number, reason: string, every: number): string =>
  `${new Date(now).toISOString()} listing the sub-accounts failed (${reason}); the streams already planned go on ` +
  `following, and the list is read again in ${Duration.format(Duration.millis(every))}`

/**
 * Follows the streams that are not damaged until interrupted; the batch being written commits first,
 * and the applied records not yet reported are reported at the end. `again` wraps each run of the
 * streams: after a failure it may run them again, each stream from its committed checkpoint. With
 * `more`, every `every` ms `next` gives streams to follow as well (already caught up): they join
 * the followed ones, and a run after a failure follows them too.
 */
export const follow = (
  history: Context.Tag.Service<BrokerHistory.BrokerHistory>,
  settings: Settings & { readonly follow: number },
  specs: ReadonlyArray<StreamSpec<any>>,
  state: State,
  write: Write,
  again: Resilience["catchUp"] = asItIs.catchUp,
  more?: {
    readonly every: number
    readonly next: Effect.Effect<ReadonlyArray<StreamSpec<any>>, BrokerError.BrokerError | SqlError>
  }
) =>
  Effect.gen(function*() {
    const { totals } = state
    let reported = { ...totals }
    const report = Effect.suspend(() => {
      const line = appliedLine(Date.now(), totals.transfers - reported.transfers, totals.deposits - reported.deposits)
      reported = { ...totals }
      return line === undefined ? Effect.void : Effect.sync(() => settings.log(line))
    })
    yield* Effect.forkScoped(Effect.repeat(report, Schedule.spaced(Duration.millis(settings.follow))))
    // Busy streams are polled again after a second and quiet ones less often, none less often than
    // every --interval.
    const live = specs.filter((s) => !state.damaged.has(s.id))
    const byId = new Map(live.map((s) => [s.id, s]))
    // Read at each run: a run after a failure starts every stream from its last committed checkpoint.
    const from = (spec: StreamSpec<any>) => {
      const position = state.positions.get(spec.id)
      return { since: position?.checkpoint.time ?? startOf(settings.since, spec), resume: position?.checkpoint }
    }
    const schedule = {
      minInterval: Duration.millis(Math.min(pollAfterRecords, settings.follow)),
      maxInterval: Duration.millis(settings.follow),
      settlement: Duration.millis(settings.settlement),
      concurrency: settings.concurrency
    }
    // The transfer queries by stream id: the plan's, and those of streams that join while following.
    const queries = new Map<string, Plan.TransferStream["query"]>(
      settings.transferStreams.map((s) => [s.id, s.query])
    )
    // Each run follows each stream once: those of `byId` at its start, then those that join.
    let following = new Set<string>()
    const followed = (group: ReadonlyArray<StreamSpec<any>>) => {
      const transferQueries = group.filter((s) => s.kind === "transfers" && !following.has(s.id) && queries.has(s.id))
        .map((s) => ({ stream: s.id, query: { ...queries.get(s.id)!, ...from(s) } }))
      const deposits = group.find((s) => s.id === Plan.depositStreamId && !following.has(s.id))
      for (const s of group) following.add(s.id)
      return Stream.merge(
        transferQueries.length === 0 ? Stream.empty : history.followTransfers(transferQueries, schedule),
        deposits === undefined
          ? Stream.empty
          : history.followDeposits([{ stream: deposits.id, query: { concurrency: 2, ...from(deposits) } }], schedule)
      )
    }
    const joined = yield* Queue.unbounded<ReadonlyArray<StreamSpec<any>>>()
    const joining = more === undefined ? Stream.empty : Stream.merge(
      Stream.fromQueue(joined).pipe(Stream.flatMap(followed, { concurrency: "unbounded" })),
      // The next streams, caught up, join the followed ones: in `byId` for a run after a failure.
      Stream.repeatEffect(
        Effect.flatMap(Effect.zipRight(Effect.sleep(Duration.millis(more.every)), more.next), (group) => {
          const live = group.filter((s) => !state.damaged.has(s.id) && !byId.has(s.id))
          for (const s of live) byId.set(s.id, s)
          return live.length === 0 ? Effect.void : Queue.offer(joined, live)
        })
      ).pipe(Stream.drain)
    )
    const changes = Stream.suspend(() => {
      following = new Set()
      return Stream.merge(followed([...byId.values()]), joining)
    })
    yield* again(
      changes.pipe(
        Stream.groupedWithin(settings.batchSize, settings.batchWait),
        Stream.runForEach((chunk) =>
          Effect.forEach(
            Plan.byStream(Chunk.toReadonlyArray(chunk)),
            ([id, group]) => {
              const spec = byId.get(id)!
              return write(spec)(group.map((c) => c.record), {
                _tag: "Checkpoint",
                checkpoint: group[group.length - 1].checkpoint,
                coveredSince: state.positions.get(id)?.coveredSince ?? startOf(settings.since, spec)
              })
            },
            { discard: true }
          )
        )
      )
    ).pipe(Effect.ensuring(report))
  })
