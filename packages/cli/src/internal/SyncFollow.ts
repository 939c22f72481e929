/**
 * A sync's follow phase, once every stream has caught up: every stream that is not damaged, from its
 * stored checkpoint, through the client's follow schedulers (one for the transfer streams, one for
 * the deposit stream); the merged changes are batched by size or wait and written per stream with
 * that stream's checkpoint. A line says what was applied at most once per poll interval.
 *
 * @internal
 */
import type { BrokerHistory } from "@broker-history/client"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as SyncPlan from "../SyncPlan.js"
import type { Settings } from "../SyncRun.js"
import type * as SyncStore from "../SyncStore.js"
import type { Resilience, State, StreamSpec, Write } from "./SyncStreams.js"
import { asItIs } from "./SyncStreams.js"

/** While following, a stream whose last poll brought records is polled again after this long (ms). */
const pollAfterRecords = 1000

/** The line that starts the follow phase. */
export const caughtUpLine = (now: number, counts: SyncStore.Counts, follow: number): string =>
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

/**
 * Follows the streams that are not damaged until interrupted; the batch being written commits first,
 * and the applied records not yet reported are reported at the end. `again` wraps each run of the
 * streams: after a failure it may run them again, each stream from its committed checkpoint.
 */
export const follow = (
  history: Context.Tag.Service<BrokerHistory.BrokerHistory>,
  settings: Settings & { readonly follow: number },
  specs: ReadonlyArray<StreamSpec<any>>,
  state: State,
  write: Write,
  again: Resilience["catchUp"] = asItIs.catchUp
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
      return { since: position?.checkpoint.time ?? settings.since[spec.kind], resume: position?.checkpoint }
    }
    const schedule = {
      minInterval: Duration.millis(Math.min(pollAfterRecords, settings.follow)),
      maxInterval: Duration.millis(settings.follow),
      settlement: Duration.millis(settings.settlement),
      concurrency: settings.concurrency
    }
    const changes = Stream.suspend(() => {
      const transferQueries = settings.transferStreams.filter((s) => byId.has(s.id)).map((s) => ({
        stream: s.id,
        query: { ...s.query, ...from(byId.get(s.id)!) }
      }))
      const deposits = byId.get(SyncPlan.depositStreamId)
      return Stream.merge(
        transferQueries.length === 0 ? Stream.empty : history.followTransfers(transferQueries, schedule),
        deposits === undefined
          ? Stream.empty
          : history.followDeposits([{ stream: deposits.id, query: { concurrency: 2, ...from(deposits) } }], schedule)
      )
    })
    yield* again(
      changes.pipe(
        Stream.groupedWithin(settings.batchSize, settings.batchWait),
        Stream.runForEach((chunk) =>
          Effect.forEach(
            SyncPlan.byStream(Chunk.toReadonlyArray(chunk)),
            ([id, group]) => {
              const spec = byId.get(id)!
              return write(spec)(group.map((c) => c.record), {
                _tag: "Checkpoint",
                checkpoint: group[group.length - 1].checkpoint,
                coveredSince: state.positions.get(id)?.coveredSince ?? settings.since[spec.kind]
              })
            },
            { discard: true }
          )
        )
      )
    ).pipe(Effect.ensuring(report))
  })
