// Follow streams against the reference service over 127.0.0.1, stopped for longer than any
// request's retries and started again on the same port with the same database plus new records:
// the streams stay alive and every record arrives once.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import type { Store } from "@broker-history/server"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, HashMap, Layer, Logger, LogLevel, Redacted, Schedule, Scope, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { transferRow as row } from "../support/Rows.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const sub = "sub001@broker.test"

/**
 * Polls `check` every 10 ms until it holds; fails naming `what` if it has not held within 15 s: a
 * bound for a hung test, not a time asserted.
 */
const eventually = <A>(what: string, check: Effect.Effect<A>, holds: (a: A) => boolean) =>
  check.pipe(
    Effect.repeat(Schedule.recurUntil(holds).pipe(Schedule.addDelay(() => "10 millis"))),
    Effect.timeoutFail({ duration: "15 seconds", onTimeout: () => new Error(`${what}: not within 15 s`) })
  )

interface Line {
  readonly level: string
  readonly message: string
  readonly annotations: Record<string, unknown>
}

describe("follow streams across a restart of the reference service", () => {
  it.live(
    "stopped longer than the retries, started again on the same port: alive, every record once, one outage logged",
    () =>
      Effect.gen(function*() {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-follow-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
        const serverOptions: ReferenceServer.Options = {
          database: Path.join(dir, "history.db"),
          rateLimit: { limit: 100_000, window: "1 second" }
        }
        const start = (options: ReferenceServer.Options) =>
          Effect.gen(function*() {
            const scope = yield* Scope.make()
            const context = yield* Layer.buildWithScope(ReferenceServer.layer(options), scope)
            yield* Effect.addFinalizer(() => Scope.close(scope, Exit.void))
            return { server: Effect.runSync(Effect.provide(ReferenceServer.ReferenceServer, context)), scope }
          })
        const first = yield* start(serverOptions)
        const port = first.server.port
        let id = 1
        const inserted = { own: [] as Array<string>, sub: [] as Array<string> }
        const insert = (store: Store.Service, at = Date.now() - 1) => {
          const rows = [row(id++, at, null), row(id++, at, sub)]
          inserted.own.push(rows[0]!.tranId)
          inserted.sub.push(rows[1]!.tranId)
          return store.insertTransfers(rows)
        }
        for (let i = 0; i < 5; i++) yield* insert(first.server.store)

        const lines: Array<Line> = []
        const logger = Logger.make<unknown, void>(({ annotations, logLevel, message }) => {
          lines.push({
            level: logLevel.label,
            message: Array.isArray(message) ? message.join(" ") : String(message),
            annotations: Object.fromEntries(HashMap.toEntries(annotations))
          })
        })
        const client = BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
          baseUrl: first.server.baseUrl,
          apiKey: Redacted.make(ApiKeys.demo.apiKey),
          secretKey: Redacted.make(ApiKeys.demo.secretKey),
          requestTimeout: "2 seconds",
          rateLimit: { limit: 10_000, interval: "1 second" },
          retry: { maxRetries: 2, baseDelay: "5 millis", maxDelay: "20 millis", followMaxDelay: "100 millis" }
        })))
        const history = yield* Effect.provide(BrokerHistory.BrokerHistory, yield* Layer.build(client))
        const seen = { one: [] as Array<string>, own: [] as Array<string>, sub: [] as Array<string> }
        const since = Date.now() - 60_000
        const following = Effect.all([
          history.transferChanges({ ...base, since, follow: { interval: "50 millis", settlement: "2 seconds" } }).pipe(
            Stream.runForEach((c) => Effect.sync(() => seen.one.push(c.record.tranId)))
          ),
          history.followTransfers(
            [{ stream: "own" as const, query: { ...base, since } }, {
              stream: "sub" as const,
              query: { ...base, toAccount: sub, since }
            }],
            { minInterval: "50 millis", maxInterval: "200 millis", settlement: "2 seconds" }
          ).pipe(Stream.runForEach((c) => Effect.sync(() => seen[c.stream].push(c.record.tranId))))
        ], { concurrency: "unbounded" }).pipe(
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Logger.withMinimumLogLevel(LogLevel.Debug)
        )
        const fiber = yield* Effect.fork(following)
        const caughtUp = Effect.sync(() =>
          seen.one.length === inserted.own.length && seen.own.length === inserted.own.length &&
          seen.sub.length === inserted.sub.length
        )
        yield* eventually("the streams read the first records", caughtUp, (done) => done)

        // Stopped: every request is refused. Started again only once the followers have retried
        // beyond their requests' own retries several times (each failed after 3 attempts).
        yield* Scope.close(first.scope, Exit.void)
        const stopped = Date.now()
        yield* eventually(
          "the outage is ridden out",
          Effect.sync(() => lines.filter((l) => l.message.includes("failed again")).length),
          (n) => n >= 5
        )
        const down = yield* history.availability
        expect(down.unavailableSince).toBeGreaterThan(0)
        expect(down.lastFailure).toContain("Connect")
        const restarted = Date.now()
        const second = yield* start({ ...serverOptions, port })
        expect(second.server.port).toBe(port)
        // Records of the time the service was down (as if written meanwhile), then new ones.
        for (let i = 0; i < 5; i++) {
          yield* insert(second.server.store, stopped + Math.floor((restarted - stopped) * i / 5))
        }
        for (let i = 0; i < 5; i++) yield* insert(second.server.store)
        yield* eventually("every record arrives", caughtUp, (done) => done)
        for (let i = 0; i < 3; i++) yield* insert(second.server.store)
        yield* eventually("records after the restart arrive", caughtUp, (done) => done)

        expect(fiber.unsafePoll()).toBeNull()
        yield* Fiber.interrupt(fiber)
        expect(seen.one).toEqual(inserted.own)
        expect(seen.own).toEqual(inserted.own)
        expect(seen.sub).toEqual(inserted.sub)
        const unavailable = lines.filter((l) => l.message.startsWith("broker service unavailable"))
        const again = lines.filter((l) => l.message.startsWith("broker service available again"))
        expect(unavailable).toHaveLength(1)
        expect(unavailable[0]).toMatchObject({ level: "WARN", annotations: { error: "TransportError" } })
        expect(again).toHaveLength(1)
        expect(again[0]!.annotations.outageMillis).toBeGreaterThan(0)
        const up = yield* history.availability
        expect(up).toMatchObject({ unavailableSince: undefined, lastFailure: undefined })
        expect(up.lastSuccess).toBeGreaterThan(down.unavailableSince!)
      }).pipe(Effect.scoped),
    60_000
  )
})
