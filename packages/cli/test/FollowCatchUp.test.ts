// The sync run (`Run`) with `follow`, in this process against the reference service: the catch-up rides out a
// service outage (each stream run again from its committed position: a backfill from its committed
// progress, never from the run's start) and transient database failures (the batch written again),
// each outage logged once when it starts and once when it ends; permanent failures (a refused key, a
// database error that is not about availability) still end the run.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { DepositRecord } from "@broker-history/domain"
import { ApiKeys, ReferenceServer, Seed } from "@broker-history/server"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, HashMap, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import * as Progress from "../src/internal/shared/Progress.js"
import * as Plan from "../src/internal/sync/plan/Plan.js"
import * as Run from "../src/internal/sync/run/Run.js"
import type { Settings } from "../src/internal/sync/run/Settings.js"
import * as Store from "../src/internal/sync/store/Store.js"

const day = 86_400_000
const subAccounts = 3
// Ten weeks of history.
const seed = { seed: 7, transfers: 3000, deposits: 400, subAccounts, years: 0.2 }

interface Write {
  readonly stream: string
  readonly tag: "Checkpoint" | "Backfill" | undefined
  readonly keys: ReadonlyArray<string>
}

const keyOf = (record: unknown): string =>
  "tranId" in (record as object)
    ? (record as { tranId: string }).tranId
    : DepositRecord.key(record as DepositRecord.DepositRecord)

/** The store with `before` run ahead of every write, recording each write that committed. */
const watched = (
  inner: Store.Service,
  before: (write: number, stream: string, position: Store.Position | undefined) => Effect.Effect<void, SqlError>,
  writes: Array<Write>
): Store.Service => {
  let n = 0
  const wrap = <A>(
    apply: (
      stream: string,
      records: ReadonlyArray<A>,
      position: Store.Position | undefined
    ) => Effect.Effect<void, SqlError>
  ) =>
  (stream: string, records: ReadonlyArray<A>, position: Store.Position | undefined) =>
    Effect.zipRight(
      Effect.suspend(() => before(++n, stream, position)),
      Effect.tap(apply(stream, records, position), () =>
        writes.push({ stream, tag: position?._tag, keys: records.map(keyOf) }))
    )
  return {
    ...inner,
    forProfile: (profile) => watched(inner.forProfile(profile), before, writes),
    applyTransfers: wrap(inner.applyTransfers),
    applyDeposits: wrap(inner.applyDeposits)
  }
}

const settings = (since: number, more: Partial<Settings> = {}): Settings => ({
  transferStreams: Plan.transferStreams(
    Plan.defaultPairs(Seed.subAccountNames(subAccounts)),
    ["SPOT", "FUTURES"]
  ),
  since: { transfers: since, deposits: since },
  reset: undefined,
  follow: undefined,
  settlement: day,
  concurrency: 4,
  batchSize: 40,
  batchWait: 50,
  outageRetry: { baseDelay: "20 millis", maxDelay: "100 millis" },
  log: () => {},
  warn: () => {},
  ...more
})

/** The client of the in-process service: one retry per request, so that an outage reaches the sync. */
const client = (baseUrl: string, secretKey = ApiKeys.demo.secretKey) =>
  BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(secretKey),
    rateLimit: { limit: 10_000, interval: "1 second" },
    retry: { maxRetries: 1, baseDelay: "5 millis", maxDelay: "10 millis" }
  })))

/**
 * Log lines as `LEVEL message` (not the debug ones); `seen` is told of every line, debug included,
 * with its annotations.
 */
const capture = (seen: (line: string) => void = () => {}) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, logLevel, message }) => {
    const line = `${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`
    if (logLevel.label !== "DEBUG") lines.push(line)
    seen(`${line} ${JSON.stringify([...HashMap.entries(annotations)])}`)
  })
  return {
    lines,
    layer: Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.Debug))
  }
}

/**
 * Runs a following sync until it has caught up, then stops it: the store changed by `store`, the
 * log lines captured.
 */
const followUntilCaughtUp = (
  run: Settings,
  store: (inner: Store.Service) => Store.Service,
  secretKey?: string,
  seen?: (line: string) => void
) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    const inner = yield* Store.SyncStore
    const caughtUp = yield* Deferred.make<void>()
    const { layer, lines } = capture(seen)
    const fiber = yield* Run.run({
      ...run,
      follow: 1_000,
      log: (line) => {
        if (line.includes("caught up")) Deferred.unsafeDone(caughtUp, Effect.void)
      }
    }).pipe(
      Effect.scoped,
      Effect.provide(Layer.mergeAll(
        client(server.baseUrl, secretKey),
        Layer.succeed(Store.SyncStore, store(inner)),
        Progress.layer({ label: "sync", endpoints: [], live: false }),
        layer
      )),
      Effect.fork
    )
    const ended = yield* Effect.raceFirst(
      Effect.as(Deferred.await(caughtUp), undefined),
      Effect.map(Fiber.await(fiber), (exit) => exit)
    )
    if (ended === undefined) yield* Fiber.interrupt(fiber)
    return { ended, lines, counts: yield* inner.counts }
  })

/** The same sync without follow and without any fault, into a store of its own: what it holds. */
const reference = (run: Settings) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    return yield* Run.run(run).pipe(
      Effect.scoped,
      Effect.provide(Layer.mergeAll(
        client(server.baseUrl),
        Store.layer(":memory:"),
        Progress.layer({ label: "sync", endpoints: [], live: false })
      )),
      Effect.map((o) => o.counts)
    )
  })

const inService = <A, E>(program: Effect.Effect<A, E, Store.SyncStore | ReferenceServer.ReferenceServer>) =>
  program.pipe(
    Effect.provide(Store.layer(":memory:")),
    Effect.provide(ReferenceServer.layer({ seed })),
    Effect.scoped
  )

/** The error a run ended with, if it ended with one. */
const failure = <E>(exit: Exit.Exit<unknown, E> | undefined): E | undefined =>
  exit !== undefined && Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined

const matching = (lines: ReadonlyArray<string>, pattern: RegExp) => lines.filter((l) => pattern.test(l))

describe("Run following: outages while catching up", () => {
  it.live(
    "a backfill cut by a service outage resumes from its committed progress: no record is backfilled twice",
    () =>
      inService(Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const now = Date.now()
        // A first run holds the last 20 days; the follower then backfills the 50 days before them.
        yield* followUntilCaughtUp(settings(now - 20 * day), (inner) => inner)
        const writes: Array<Write> = []
        let cut = false
        // The sync gave up on a deposit request (after the client's retries) and waits to run the
        // deposit stream's catch-up again; and it logged the outage (a failure that is news: nothing
        // answered since the failed request began).
        const depositFailed = yield* Deferred.make<void>()
        const announced = yield* Deferred.make<void>()
        const seen = (line: string) => {
          const retried = /^(WARN broker service unavailable: |DEBUG broker service still unavailable)/.test(line)
          if (retried && line.includes("depositHistory")) Deferred.unsafeDone(depositFailed, Effect.void)
          if (line.startsWith("WARN broker service unavailable: ")) Deferred.unsafeDone(announced, Effect.void)
        }
        // The service fails every request (5xx) from the deposit stream's first backfill batch on,
        // until the deposit stream's next request has failed (in the middle of its backfill) and the
        // outage is logged.
        const before = (_: number, stream: string, position: Store.Position | undefined) =>
          Effect.suspend(() => {
            if (cut || stream !== Plan.depositStreamId || position?._tag !== "Backfill") return Effect.void
            cut = true
            return Effect.zipRight(
              server.setFaults({ seed: 1, serverError: 1 }),
              Effect.forkDaemon(
                Effect.zipRight(
                  Effect.timeout(Effect.zip(Deferred.await(depositFailed), Deferred.await(announced)), "20 seconds"),
                  server.setFaults({})
                )
              )
            )
          })
        const run = settings(now - 70 * day)
        const { counts, ended, lines } = yield* followUntilCaughtUp(
          run,
          (inner) => watched(inner, before, writes),
          undefined,
          seen
        )
        expect(ended, lines.join("\n")).toBeUndefined()
        const backfilled = writes.filter((w) => w.tag === "Backfill")
        expect(cut).toBe(true)
        expect([yield* Deferred.isDone(depositFailed), yield* Deferred.isDone(announced)]).toEqual([true, true])
        expect(backfilled.filter((w) => w.stream === Plan.depositStreamId).length).toBeGreaterThan(2)
        // Each stream's backfill wrote each record once: after the outage it went on from its last
        // committed batch, not from the range's start.
        for (const stream of new Set(backfilled.map((w) => w.stream))) {
          const keys = backfilled.filter((w) => w.stream === stream).flatMap((w) => w.keys)
          expect({ stream, repeated: keys.length - new Set(keys).size }).toEqual({ stream, repeated: 0 })
        }
        expect(counts).toEqual(yield* reference(run))
        // The outage: once when it started, once when it ended.
        expect(
          matching(lines, /^WARN broker service unavailable: .*; retrying in \d+ms, backing off up to 100ms/),
          lines.join("\n")
        )
          .toHaveLength(1)
        expect(matching(lines, /^INFO broker service available again after /), lines.join("\n")).toHaveLength(1)
      })),
    60_000
  )

  it.live(
    "a transient database failure is written again until the database is back; logged once at each end",
    () =>
      inService(Effect.gen(function*() {
        const writes: Array<Write> = []
        const refused = new SqlError({
          message: "Failed to acquire connection",
          cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
        })
        const run = settings(Date.now() - 70 * day)
        const { counts, ended, lines } = yield* followUntilCaughtUp(
          run,
          (inner) => watched(inner, (n) => (n >= 5 && n <= 12 ? Effect.fail(refused) : Effect.void), writes)
        )
        expect(ended, lines.join("\n")).toBeUndefined()
        expect(counts).toEqual(yield* reference(run))
        expect(matching(lines, /^WARN database unavailable: connect ECONNREFUSED 127\.0\.0\.1:5432; retrying in /))
          .toHaveLength(1)
        expect(matching(lines, /^INFO database available again after \d+m?s.* unavailable \(\d+ failed attempts\)$/))
          .toHaveLength(1)
      })),
    60_000
  )

  it.live("a permanent database failure still ends the run with its SqlError", () =>
    inService(Effect.gen(function*() {
      const denied = new SqlError({
        message: "Failed to execute statement",
        cause: Object.assign(new Error("permission denied for table transfers"), { code: "42501" })
      })
      const { ended } = yield* followUntilCaughtUp(
        settings(Date.now() - 70 * day),
        (inner) => watched(inner, (n) => (n === 3 ? Effect.fail(denied) : Effect.void), [])
      )
      expect(failure(ended)).toBe(denied)
    })), 60_000)

  it.live("a refused key still ends the run with its AuthenticationError", () =>
    inService(Effect.gen(function*() {
      const { ended } = yield* followUntilCaughtUp(settings(Date.now() - 70 * day), (inner) => inner, "f".repeat(32))
      expect(failure(ended)?._tag).toBe("AuthenticationError")
    })), 60_000)
})
