// The full-history streams against a mocked service on a virtual clock, on both lines: when they ask
// the server's time, how a failing page ends them, how follow mode polls, how streams share a budget.
import * as Checkpoint from "@broker-history/core/walk/Checkpoint"
import { describe, expect, it } from "vitest"
import type { Row } from "../../../client/test/support/MockHistory.js"
import { expected, transferService } from "../../../client/test/support/MockHistory.js"
import { success } from "../../src/Line.js"
import * as Lines from "../../src/Lines.js"
import * as Simulations from "../../src/Simulations.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const fast = { rateLimit: { limit: 10_000, interval: "1 millis" } } as const

const ids = (records: ReadonlyArray<unknown>) => (records as ReadonlyArray<{ tranId: string }>).map((r) => r.tranId)

describe.each(Simulations.all)("full-history streams ($name) on the clock", (line) => {
  it("an empty history is an empty stream that still walks to the end", async () => {
    const service = { answer: transferService([]) }
    const settings = { ...fast, maxWindow: { transfers: "1 day" } }
    await line.run(service, { start: 10 * 86_400_000, settings }, async (sim) => {
      const stream = sim.start("transfers", { ...base, since: 0, until: 10 * 86_400_000 - 1, limit: 5 })
      await sim.adjust(0)
      expect(stream.end()).toEqual({ _tag: "Done" })
      expect(stream.emitted).toEqual([])
      expect(sim.requests.length).toBe(10)
    })
  })

  it("is lazy, take(n) sends only what it needs, and an until in the past no request for the server's time", async () => {
    const rows = Array.from(
      { length: 100 },
      (_, i) => ({ tranId: String(1000 + i), timestamp: i * 1000, status: "SUCCESS" })
    )
    await line.run({ answer: transferService(rows) }, { start: 200_000, settings: fast }, async (sim) => {
      const opened = sim.open("transfers", { ...base, since: 0, until: 200_000, limit: 10 })
      await sim.adjust(0)
      // Nothing is sent before the stream runs.
      expect(sim.requests.length).toBe(0)
      const stream = opened.run(3)
      await sim.adjust(0)
      expect(stream.end()).toEqual({ _tag: "Done" })
      expect(ids(stream.emitted)).toEqual(["1000", "1001", "1002"])
      // Shrinking from the whole range to a window that fits: a handful of requests, not the history.
      expect(sim.requests.length).toBeLessThanOrEqual(6)
      expect(sim.timeRequests.length).toBe(0)
    })
  })

  it("a change stream's checkpoint, stored as text and decoded, resumes it", async () => {
    const decode = Lines.all.find((l) => l.name === line.name)!.decodeCheckpoint
    // Ties at each millisecond, so that the checkpoint carries ids as well as a time.
    const rows = Array.from(
      { length: 30 },
      (_, i) => ({ tranId: String(10 + i), timestamp: (i >> 2) * 10, status: "SUCCESS" })
    )
    const query = { ...base, since: 0, until: 1000, limit: 4 }
    interface Change {
      readonly record: { readonly tranId: string }
      readonly checkpoint: Checkpoint.Checkpoint
    }
    await line.run({ answer: transferService(rows) }, { start: 2000, settings: fast }, async (sim) => {
      const head = sim.take(10, "transferChanges", query)
      await sim.adjust(0)
      const last = (head.emitted as ReadonlyArray<Change>).at(-1)!.checkpoint
      expect(last.ids.length).toBeGreaterThan(0)
      const resume = success(decode(Checkpoint.encode(last)))
      expect(resume).toEqual(last)
      const rest = sim.start("transferChanges", { ...query, resume })
      await sim.adjust(0)
      expect(rest.end()).toEqual({ _tag: "Done" })
      expect([...head.emitted, ...rest.emitted].map((c) => (c as Change).record.tranId)).toEqual(
        expected(rows, 0, 1000)
      )
    })
  })

  it("until defaults to the server's now, pinned once", async () => {
    const rows = [
      { tranId: "1", timestamp: 999_000, status: "SUCCESS" },
      { tranId: "2", timestamp: 1_000_500, status: "SUCCESS" }
    ]
    await line.run({ answer: transferService(rows) }, { start: 1_000_000, settings: fast }, async (sim) => {
      const stream = sim.start("transfers", { ...base, since: 0 })
      await sim.adjust(0)
      expect(stream.end()).toEqual({ _tag: "Done" })
      expect(ids(stream.emitted)).toEqual(["1"])
      expect(sim.timeRequests.length).toBe(1)
    })
  })

  it("a page that keeps failing ends the stream with an error naming its window and page", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ tranId: String(100 + i), timestamp: i, status: "SUCCESS" }))
    const good = transferService(rows)
    const service = {
      answer: (seen: Parameters<typeof good>[0]) =>
        Number(seen.params.get("startTime")) > 0 ? { status: 503, text: "down" } : good(seen)
    }
    const settings = { ...fast, maxWindow: { transfers: "5 millis" }, retry: { maxRetries: 2, baseDelay: "10 millis" } }
    await line.run(service, { start: 0, settings }, async (sim) => {
      const stream = sim.start("transfers", { ...base, since: 0, until: 19, limit: 100 })
      await sim.adjust(10_000)
      const end = stream.end()
      expect(end).toMatchObject({
        _tag: "Failure",
        failure: { _tag: "ServerError", fields: { attempts: 3, request: { startTime: 5, endTime: 9, page: 1 } } }
      })
      expect(end!._tag === "Failure" && end!.failure.message).toContain("page 1")
      // The first window's records came before it.
      expect(ids(stream.emitted)).toEqual(["100", "101", "102", "103", "104"])
    })
  })

  it("follow: new records and status updates appear within one interval", async () => {
    const rows: Array<Row> = [
      { tranId: "1", timestamp: 10_000, status: "SUCCESS" },
      { tranId: "2", timestamp: 99_000, status: "PENDING" }
    ]
    await line.run({ answer: transferService(rows) }, { start: 100_000, settings: fast }, async (sim) => {
      const stream = sim.start("transferChanges", {
        ...base,
        since: 0,
        follow: { interval: "10 seconds", settlement: "1 minute" }
      })
      const seen = () =>
        (stream.emitted as ReadonlyArray<{ kind: string; record: Row }>).map((c) =>
          `${c.kind}:${c.record.tranId}:${c.record.status}`
        )
      await sim.adjust(1)
      expect(seen()).toEqual(["new:1:SUCCESS", "new:2:PENDING"])
      rows.push({ tranId: "3", timestamp: 105_000, status: "SUCCESS" })
      rows[1]!.status = "SUCCESS"
      await sim.adjust(10_000)
      expect(seen().slice(2)).toEqual(["update:2:SUCCESS", "new:3:SUCCESS"])
      await sim.adjust(10_000)
      expect(seen().length).toBe(4)
      expect(stream.end()).toBeUndefined()
      // Interrupted, it sends nothing more.
      const before = sim.requests.length
      await stream.interrupt()
      await sim.adjust(60_000)
      expect(stream.end()).toEqual({ _tag: "Interrupted" })
      expect(sim.requests.length).toBe(before)
    })
  })

  it("several concurrent streams from one layer share one budget", async () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) => ({ tranId: String(100 + i), timestamp: i * 1000, status: "SUCCESS" })
    )
    const query = { ...base, since: 0, until: 60_000, limit: 5 }
    const settings = { rateLimit: { limit: 5, interval: "1 second" } }
    await line.run({ answer: transferService(rows) }, { start: 0, settings }, async (sim) => {
      const streams = [
        sim.start("transfers", query),
        sim.start("transfers", { ...query, concurrency: 3 }),
        sim.start("transfers", { ...query, toAccount: "sub@x" })
      ]
      await sim.adjust(2 * 60_000)
      for (const stream of streams) {
        expect(stream.end()).toEqual({ _tag: "Done" })
        // The mock has every record for every account, so the third stream (one account only) is the same set.
        expect(ids(stream.emitted)).toEqual(expected(rows, 0, 60_000))
      }
      expect(sim.requests.some((s) => s.params.get("toAccount") === "sub@x")).toBe(true)
      const times = sim.requests.map((s) => s.at)
      expect(times.length).toBeGreaterThan(15)
      for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(5)
    })
  })
})
