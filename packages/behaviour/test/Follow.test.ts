// Following on every line: a change stream with `follow` never ends by itself, delivers records added
// after it started, emits a pending transfer once as new and once more when it settles, and rides out
// an outage of the service instead of ending with it, even a restart of the service (once logged,
// the client's availability saying so meanwhile).
import type * as TransferRecord from "@broker-history/core/record/TransferRecord"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { eventually } from "../src/Eventually.js"
import type { Change, Client, Outcome } from "../src/Line.js"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Running, Service } from "../src/ReferenceService.js"
import {
  clientSettings,
  spotToFutures,
  startReferenceService,
  transferRow,
  withReferenceService
} from "../src/ReferenceService.js"

const day = 86_400_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A following call that is still running, and how to interrupt it (it must end as interrupted). */
const running = <A>(call: (signal: AbortSignal) => Promise<Outcome<A>>) => {
  const interrupt = new AbortController()
  let ended = false
  const outcome = call(interrupt.signal).finally(() => (ended = true))
  return {
    ended: () => ended,
    interrupt: async () => {
      interrupt.abort()
      expect((await outcome)._tag).toBe("Interrupted")
    }
  }
}

/**
 * A client following the master's transfers from a minute ago (a small interval, a settlement window
 * far longer than any delay here), its changes in `seen`; live once it has read a record inserted
 * after it started.
 */
const following = async (service: Service, client: Client) => {
  const seen: Array<Change<TransferRecord.TransferRecord>> = []
  const stream = running((signal) =>
    client.transferChanges(
      { ...spotToFutures.query, since: Date.now() - 60_000, follow: { interval: "50 millis", settlement: "1 minute" } },
      { signal, each: (change) => void seen.push(change) }
    )
  )
  await service.insertTransfers([transferRow(1, Date.now() - 1_000)])
  await eventually("the stream reads", () => seen.length, (n) => n === 1)
  return { seen, stream }
}

/** Waits for `polls` more requests of the client: whatever they read has been emitted by then. */
const morePolls = async (service: Service, polls: number) => {
  const from = (await service.stats()).requests
  await eventually(`${polls} more polls`, async () => (await service.stats()).requests, (n) => n >= from + polls)
}

const shapeOf = (change: Change<TransferRecord.TransferRecord>) => ({
  kind: change.kind,
  tranId: change.record.tranId,
  timestamp: change.record.timestamp,
  status: change.record.status,
  amount: change.record.amount
})

const followingSettings = (service: Service) =>
  clientSettings(service, {
    rateLimit: { limit: 10_000, interval: "1 second" },
    retry: { maxRetries: 2, baseDelay: "5 millis", maxDelay: "20 millis" }
  })

describe.each(Lines.all)("follow ($name)", (line) => {
  it("records added while following arrive, after the history, each once", () => {
    const now = Date.now()
    const history = Array.from({ length: 30 }, (_, i) => transferRow(5_000 + i, now - 20 * day + i * 60_000))
    return withReferenceService({}, async (service) => {
      await service.insertTransfers(history)
      return line.withClient(clientSettings(service), async (client) => {
        const following = client.transferChanges(
          {
            ...spotToFutures.query,
            since: now - 30 * day,
            limit: 10,
            follow: { interval: "20 millis", settlement: "1 second" }
          },
          { take: history.length + 3 }
        )
        await sleep(200)
        await service.insertTransfers([1, 2, 3].map((i) => transferRow(9_000 + i, Date.now() - 100 + i)))
        const changes = success(await following)
        expect(changes.map((c) => c.record.tranId)).toEqual([
          ...history.map((r) => r.tranId),
          "9001",
          "9002",
          "9003"
        ])
      })
    })
  })

  it("an outage of the service is ridden out: the follower goes on once it answers again", () => {
    const now = Date.now()
    return withReferenceService({}, async (service) => {
      await service.insertTransfers([transferRow(1, now - day)])
      return line.withClient(
        clientSettings(service, { retry: { maxRetries: 1, baseDelay: "5 millis", maxDelay: "20 millis" } }),
        async (client) => {
          const following = client.transferChanges(
            { ...spotToFutures.query, since: now - 2 * day, follow: { interval: "20 millis", settlement: "1 second" } },
            { take: 2 }
          )
          await sleep(150)
          // Every request fails for a while: far more failures than the retries allow one request.
          await service.setFaults({ serverError: 1 })
          await sleep(400)
          await service.setFaults({})
          await service.insertTransfers([transferRow(2, Date.now() - 50)])
          const changes = success(await following)
          expect(changes.map((c) => c.record.tranId)).toEqual(["1", "2"])
          expect((await service.stats()).byStatus[500] ?? 0).toBeGreaterThan(2)
        }
      )
    })
  })

  it(
    "a pending transfer settled through the store: emitted once pending, once settled, nothing else",
    () =>
      withReferenceService({}, (service) =>
        line.withClient(followingSettings(service), async (client) => {
          const { seen, stream } = await following(service, client)
          const pending = transferRow(2, Date.now() - 1)
          await service.insertTransfers([{ ...pending, status: "PENDING" }])
          await eventually("the pending record", () => seen.length, (n) => n === 2)
          await morePolls(service, 5)
          await service.settleTransfers([{ tranId: "2", status: "FAILED" }])
          await eventually("the settled record", () => seen.length, (n) => n >= 3)
          await morePolls(service, 10)
          expect(stream.ended()).toBe(false)
          await stream.interrupt()
          const record = { tranId: "2", timestamp: pending.timestamp, amount: pending.amount }
          expect(seen.slice(1).map(shapeOf)).toEqual([
            { kind: "new", ...record, status: "PENDING" },
            { kind: "update", ...record, status: "FAILED" }
          ])
        })),
    60_000
  )

  it(
    "a pending transfer settled by the service's settlement delay: emitted once pending, once settled, nothing else",
    () =>
      // The delay is long against the 50 ms interval, so the stream reads the record while it is pending;
      // with no failed share, it settles as SUCCESS.
      withReferenceService({ pendingSettlement: { after: "4 seconds", failedShare: 0 } }, (service) =>
        line.withClient(followingSettings(service), async (client) => {
          const { seen, stream } = await following(service, client)
          const pending = transferRow(3, Date.now())
          await service.insertTransfers([{ ...pending, status: "PENDING" }])
          await eventually("the pending record", () =>
            seen.length, (n) => n === 2)
          await eventually("the settled record", () => seen.length, (n) => n >= 3)
          await morePolls(service, 10)
          await stream.interrupt()
          const record = { tranId: "3", timestamp: pending.timestamp, amount: pending.amount }
          expect(seen.slice(1).map(shapeOf)).toEqual([
            { kind: "new", ...record, status: "PENDING" },
            { kind: "update", ...record, status: "SUCCESS" }
          ])
          expect((await service.allTransfers()).map((t) => [t.tranId, t.status])).toEqual([
            ["1", "SUCCESS"],
            ["3", "SUCCESS"]
          ])
        })),
    60_000
  )

  it(
    "stopped longer than the retries, started again on the same port: alive, every record once, one outage logged",
    async () => {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-follow-"))
      const options = { database: Path.join(dir, "history.db") }
      let service: Running = await startReferenceService(options)
      try {
        const port = service.port
        const sub = "sub001@broker.test"
        const inserted = { own: [] as Array<string>, sub: [] as Array<string> }
        let id = 1
        const insert = (at = Date.now() - 1) => {
          const rows = [transferRow(id++, at, null), transferRow(id++, at, sub)]
          inserted.own.push(rows[0]!.tranId)
          inserted.sub.push(rows[1]!.tranId)
          return service.insertTransfers(rows)
        }
        for (let i = 0; i < 5; i++) await insert()
        await line.withClient(
          clientSettings(service, {
            requestTimeout: "2 seconds",
            rateLimit: { limit: 10_000, interval: "1 second" },
            retry: { maxRetries: 2, baseDelay: "5 millis", maxDelay: "20 millis", followMaxDelay: "100 millis" }
          }),
          async (client) => {
            const seen = { one: [] as Array<string>, own: [] as Array<string>, sub: [] as Array<string> }
            const since = Date.now() - 60_000
            const base = spotToFutures.query
            const one = running((signal) =>
              client.transferChanges({ ...base, since, follow: { interval: "50 millis", settlement: "2 seconds" } }, {
                signal,
                each: (change) => void seen.one.push(change.record.tranId)
              })
            )
            const together = running((signal) =>
              client.followTransfers(
                [{ stream: "own", query: { ...base, since } }, {
                  stream: "sub",
                  query: { ...base, toAccount: sub, since }
                }],
                { minInterval: "50 millis", maxInterval: "200 millis", settlement: "2 seconds" },
                { signal, each: (change) => void seen[change.stream as "own" | "sub"].push(change.record.tranId) }
              )
            )
            const caughtUp = () =>
              seen.one.length === inserted.own.length && seen.own.length === inserted.own.length &&
              seen.sub.length === inserted.sub.length
            await eventually("the streams read the first records", caughtUp, (done) => done)

            // Stopped: every request is refused. Started again only once the followers have retried
            // beyond their requests' own retries several times (each failed after 3 attempts).
            await service.stop()
            const stopped = Date.now()
            await eventually(
              "the outage is ridden out",
              () => client.logs.filter((l) => l.message.includes("failed again")).length,
              (n) => n >= 5
            )
            const down = await client.availability()
            expect(down.unavailableSince).toBeGreaterThan(0)
            expect(down.lastFailure).toContain("Connect")
            const restarted = Date.now()
            service = await startReferenceService({ ...options, port })
            expect(service.port).toBe(port)
            // Records of the time the service was down (as if written meanwhile), then new ones.
            for (let i = 0; i < 5; i++) await insert(stopped + Math.floor((restarted - stopped) * i / 5))
            for (let i = 0; i < 5; i++) await insert()
            await eventually("every record arrives", caughtUp, (done) => done)
            for (let i = 0; i < 3; i++) await insert()
            await eventually("records after the restart arrive", caughtUp, (done) => done)

            expect([one.ended(), together.ended()]).toEqual([false, false])
            await one.interrupt()
            await together.interrupt()
            expect(seen.one).toEqual(inserted.own)
            expect(seen.own).toEqual(inserted.own)
            expect(seen.sub).toEqual(inserted.sub)
            const unavailable = client.logs.filter((l) => l.message.startsWith("broker service unavailable"))
            const again = client.logs.filter((l) => l.message.startsWith("broker service available again"))
            expect(unavailable).toHaveLength(1)
            expect(unavailable[0]).toMatchObject({ level: "WARN", annotations: { error: "TransportError" } })
            expect(again).toHaveLength(1)
            expect(again[0]!.annotations.outageMillis).toBeGreaterThan(0)
            const up = await client.availability()
            expect(up).toMatchObject({ unavailableSince: undefined, lastFailure: undefined })
            expect(up.lastSuccess).toBeGreaterThan(down.unavailableSince!)
          }
        )
      } finally {
        await service.stop()
        Fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    60_000
  )
})
