/**
 * Follow at scale: how stale records are when many streams share one key's budget. The reference
 * service (a child process) holds a seeded history of `subAccounts` sub-accounts; the followed streams
 * are every sub-account × both directions (master → sub, sub → master) × two account-type pairs
 * (SPOT → FUTURES, FUTURES → SPOT): 4 streams per sub-account. While the streams are followed, a
 * seeded insert process adds transfers at exponential intervals, each to a stream drawn from a Zipf
 * law over a seeded ranking of the streams (a few busy pairs, a long quiet tail), written straight
 * into the service's SQLite file.
 *
 * Two followers, one after the other (the first alternating from round to round), each alone with
 * its own service, key and the same budget, over the same seeded history and inserts:
 * `BrokerHistory.followTransfers` with the adaptive schedule, and round-robin (the same scheduler with
 * minInterval = maxInterval = 1 ms: every stream is always due and the one polled longest ago goes
 * first, so the streams are polled in turn as fast as the budget allows).
 *
 * Time is compressed by `scale`: the budget's interval, the service's window, the schedule's intervals
 * and the durations are divided by it, and staleness is reported multiplied back, in the simulated
 * time of a budget of `rate`.
 * The inserts start 30 s (simulated) before the follower; only those made after its first pass over
 * every stream (which tells the adaptive schedule which streams are busy) are measured. Staleness is
 * the time from a record's insert to its emission by the merged stream.
 *
 * @since 0.2.0
 */
import { Seed, Store } from "@broker-history/server"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Path from "node:path"
import * as PerfHooks from "node:perf_hooks"
import * as CountingTransport from "./CountingTransport.js"
import * as FollowStreams from "./FollowStreams.js"
import type { StreamSpec } from "./FollowStreams.js"
import * as InsertPlan from "./InsertPlan.js"
import * as ServiceLog from "./ServiceLog.js"
import * as ServiceProcess from "./ServiceProcess.js"
import * as StalenessFollowers from "./StalenessFollowers.js"
import type { Label, Options, RankGroup, Result, Round, Run } from "./StalenessModel.js"
import * as StalenessStats from "./StalenessStats.js"
import * as StalenessTable from "./StalenessTable.js"
import * as TempDir from "./TempDir.js"

export type { Label, Options, RankGroup, Result, Round, Run }

/**
 * One follower alone: seeds the history into a fresh SQLite file, starts the service on it with the
 * follower's key, inserts the seeded records while following every stream, and measures.
 */
const runOne = (
  label: Label,
  options: Options,
  streams: ReadonlyArray<StreamSpec>,
  log: (line: string) => void
): Effect.Effect<Run, unknown> =>
  Effect.gen(function*() {
    const dir = yield* TempDir.scoped("broker-staleness-")
    const database = Path.join(dir, "history.sqlite")
    const store = Context.get(yield* Layer.build(Store.layerSqlite(database)), Store.Store)
    const since = Date.now()
    yield* Seed.seedStore(store, {
      seed: options.seed,
      transfers: options.history,
      deposits: 0,
      subAccounts: options.subAccounts,
      end: since - 86_400_000,
      years: 1
    })
    const arrivals: Array<number> = []
    const { baseUrl } = yield* ServiceProcess.spawn(
      StalenessFollowers.serviceFlags(database, options, label),
      (line) => {
        const at = ServiceLog.arrivalOf(line)
        if (at !== undefined) arrivals.push(at)
      }
    )
    const real = (simulatedMillis: number) => simulatedMillis / options.scale
    const cycleMillis = (streams.length / options.rate) * 1000

    // The inserts (`InsertPlan`), written in batches every 100 ms until `stop`; only those after
    // `measureFrom` are measured. The same seed every run: each follower sees the same inserts at the
    // same times from its start.
    const due = InsertPlan.make({ ...options, streams: streams.length }, Date.now())
    const inserts: Array<StalenessStats.Insert> = []
    const phase = { measureFrom: Infinity, stop: false }
    let tranId = 70_000_000_000
    const inserting = yield* Effect.forkScoped(Effect.gen(function*() {
      while (!phase.stop) {
        const now = Date.now()
        const batch: Array<Store.TransferRow> = []
        for (const insert of due(now)) {
          batch.push(FollowStreams.rowOf(streams[insert.stream]!, tranId, now))
          inserts.push({ id: String(tranId++), at: now, rank: insert.rank, measured: now >= phase.measureFrom })
        }
        if (batch.length > 0) yield* store.insertTransfers(batch)
        yield* Effect.sleep("100 millis")
      }
    }))
    yield* StalenessFollowers.warmUp(baseUrl, options, streams, since)
    // The follower starts after 30 s (simulated) of inserts, as after a restart: its first pass finds
    // the streams that are busy.
    yield* Effect.sleep(Duration.millis(real(30_000)))

    const settlement = Duration.millis(options.settlementMillis)
    const seen: StalenessStats.Seen = { at: new Map(), repeated: 0 }
    const counts = CountingTransport.empty()
    const loopDelay = PerfHooks.monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const followed = Date.now()
    const follower = yield* StalenessFollowers.follow(
      label,
      baseUrl,
      options,
      streams,
      since,
      label === "adaptive"
        ? {
          minInterval: Duration.millis(real(options.minIntervalMillis)),
          maxInterval: Duration.millis(real(options.maxIntervalMillis)),
          concurrency: options.concurrency,
          settlement
        }
        : { minInterval: "1 millis", maxInterval: "1 millis", concurrency: options.concurrency, settlement },
      seen,
      counts
    )
    // Measured: the inserts after the first pass (as many requests as streams), for `minutes`.
    while (counts.requests < streams.length) yield* Effect.sleep("100 millis")
    phase.measureFrom = Date.now()
    log(`staleness ${label}: first pass done in ${((phase.measureFrom - followed) / 1000).toFixed(0)} s (real)`)
    yield* Effect.sleep(Duration.millis(real(options.minutes * 60_000)))
    phase.stop = true
    yield* Fiber.join(inserting)
    const stopped = Date.now()
    const requestsAtStop = counts.requests

    // Drain: until every record was emitted, or the longest a record may wait has passed.
    const drainUntil = Date.now() + real(options.maxIntervalMillis + cycleMillis) * 1.5 + 5_000
    while (Date.now() < drainUntil && !inserts.every((i) => seen.at.has(i.id))) yield* Effect.sleep("100 millis")
    yield* Fiber.interrupt(follower)
    loopDelay.disable()
    const { limit, windowMillis } = StalenessFollowers.serviceLimit(options)
    const run: Run = {
      label,
      inserted: inserts.length,
      measured: inserts.filter((i) => i.measured).length,
      requests: counts.requests,
      // The request rate achieved while inserting (simulated requests/s), against the budget.
      requestRate: requestsAtStop / ((stopped - followed) / 1000) / options.scale,
      rateLimited: counts.rateLimited,
      rateLimitedAt: counts.refusedAt.map((at) => Math.round((at - followed) / 100) / 10),
      ...StalenessStats.stalenessOf(seen, inserts, options.scale),
      sendBunches: StalenessStats.bunches(counts.sends, limit, windowMillis),
      arrivalBunches: StalenessStats.bunches(arrivals.sort((a, b) => a - b), limit, windowMillis),
      loopDelayP99: loopDelay.percentile(99) / 1e6,
      loopDelayMax: loopDelay.max / 1e6
    }
    log(StalenessTable.describe(run))
    return run
  }).pipe(Effect.scoped)

/**
 * Runs `rounds` rounds; in each, both followers one after the other (the first alternating), each
 * alone with its own service over the same seeded history and inserts, and measures each inserted
 * record's staleness.
 *
 * @example
 * import { Staleness } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(Staleness.run({
 *   subAccounts: 5, rate: 20, scale: 4, minutes: 0.5, insertsPerSecond: 1, zipf: 1.5, seed: 1,
 *   history: 100, minIntervalMillis: 1_000, maxIntervalMillis: 20_000, settlementMillis: 2_000, concurrency: 8,
 *   marginMillis: 100, rounds: 1
 * }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const started = Date.now()
    const streams = FollowStreams.streamsOf(options.subAccounts)
    log(
      `staleness: ${streams.length} streams, budget ${options.rate}/s x ${options.scale} (time ${options.scale}x faster), ` +
        `${(options.minutes * 60 / options.scale).toFixed(0)} s measured (real) after the first pass, ` +
        `${options.rounds} round(s) of both followers one after the other`
    )
    const rounds: Array<Round> = []
    for (let i = 0; i < options.rounds; i++) {
      const order: ReadonlyArray<Label> = i % 2 === 0 ? ["adaptive", "round-robin"] : ["round-robin", "adaptive"]
      const [first, second] = [
        yield* runOne(order[0]!, options, streams, log),
        yield* runOne(order[1]!, options, streams, log)
      ]
      const byLabel = (label: Label) => first.label === label ? first : second
      rounds.push({ first: order[0]!, adaptive: byLabel("adaptive"), roundRobin: byLabel("round-robin") })
    }
    return {
      options,
      streams: streams.length,
      cycleMillis: (streams.length / options.rate) * 1000,
      rounds,
      wallMillis: Date.now() - started
    } satisfies Result
  })

/**
 * The table rows of a result: one per follower.
 *
 * @example
 * import { Staleness } from "@broker-history/bench"
 * declare const result: Staleness.Result
 * const lines = Staleness.rows(result).map((row) => row.join(" | "))
 */
export const rows = StalenessTable.rows
