// Follow streams ride out transient failures: an outage longer than any request's retries, then
// recovery, on a virtual clock, on both lines. Every record inserted meanwhile comes once, and the
// outage is logged once when it starts and once when it ends, per layer.
import * as Prng from "@broker-history/core/random/Prng"
import { describe, expect, it } from "vitest"
import type { Row } from "../../../client/test/support/MockHistory.js"
import { transferService } from "../../../client/test/support/MockHistory.js"
import type { Answer, Availability, LogLine, Seen } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const T0 = 1_000_000
const minute = 60_000
const settings = { rateLimit: { limit: 1000, interval: "1 second" } }

// The credentials of the lines' mock transport (test/support/MockService.ts).
const apiKey = "mock-api-key-3f9a1c"
const secretKey = "mock-secret-key-9b7e2d41"

const unavailable = (lines: ReadonlyArray<LogLine>) =>
  lines.filter((l) => l.message.startsWith("broker service unavailable"))
const availableAgain = (lines: ReadonlyArray<LogLine>) =>
  lines.filter((l) => l.message.startsWith("broker service available again"))

/** Down in [from, to): 503 for the first half, connection refused for the second. */
const outage = (from: number, to: number, answer: (seen: Seen) => Answer) => (seen: Seen): Answer =>
  seen.at < from || seen.at >= to
    ? answer(seen)
    : seen.at < (from + to) / 2
    ? { status: 503, body: { code: 503, msg: "Service unavailable" } }
    : { transport: "connect ECONNREFUSED 127.0.0.1:8080" }

const ordered = (rows: ReadonlyArray<Row>) =>
  [...rows].sort((a, b) => a.timestamp - b.timestamp || Number(a.tranId) - Number(b.tranId)).map((r) => r.tranId)

interface Change {
  readonly kind: string
  readonly stream?: string
  readonly record: { readonly tranId: string }
}

describe.each(Simulations.all)("follow streams ($name) ride out transient failures", (line) => {
  it("transferChanges with follow: alive through 10 minutes of 503 and refused connections, every record once", async () => {
    const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
    const down = { from: T0 + 30_000, to: T0 + 30_000 + 10 * minute }
    await line.run(
      { answer: outage(down.from, down.to, transferService(rows)) },
      { start: T0, settings },
      async (sim) => {
        const availability: Array<Availability> = []
        const stream = sim.start("transferChanges", {
          ...base,
          since: 0,
          follow: { interval: "10 seconds", settlement: "1 minute" }
        })
        let id = 2
        for (let s = 5; s <= 15 * 60; s += 5) {
          // A record every 5 s, before, during and after the outage; what a supervisor sees every 10 s.
          rows.push({ tranId: String(id++), timestamp: T0 + s * 1_000 - 1, status: "SUCCESS" })
          if (s % 10 === 5) availability.push(await sim.availability())
          await sim.adjust(5_000)
        }
        expect(stream.end()).toBeUndefined()
        const seen = (stream.emitted as ReadonlyArray<Change>).map((c) => `${c.kind}:${c.record.tranId}`)
        // Every record up to a poll's reach (the last minute is sure to be read) came once, in order, as new.
        const reached = rows.filter((r) => r.timestamp <= T0 + 14 * minute)
        expect(seen.slice(0, reached.length)).toEqual(ordered(reached).map((id) => `new:${id}`))
        expect(new Set(seen).size).toBe(seen.length)
        expect(seen.every((s) => s.startsWith("new:"))).toBe(true)
        // The outage: one warning at its start, one line at its end, debug lines between.
        const lines = sim.logs
        const [start] = unavailable(lines)
        const [end] = availableAgain(lines)
        expect(unavailable(lines)).toHaveLength(1)
        expect(availableAgain(lines)).toHaveLength(1)
        expect(start).toMatchObject({ level: "WARN", annotations: { error: "ServerError" } })
        expect(start!.message).toContain("failed with a server error (503")
        expect(start!.annotations["retryMillis"]).toBeGreaterThanOrEqual(50)
        expect(start!.annotations["retryMillis"]).toBeLessThanOrEqual(100)
        expect(end!.level).toBe("INFO")
        const since = Date.parse(start!.annotations["since"] as string)
        expect(since).toBeGreaterThanOrEqual(down.from)
        expect(since).toBeLessThan(down.from + 5_000)
        // It ends at the first request after the service is back: within one capped retry interval (1 minute).
        const length = end!.annotations["outageMillis"] as number
        expect(since + length).toBeGreaterThanOrEqual(down.to)
        expect(since + length).toBeLessThanOrEqual(down.to + minute)
        expect(end!.message).toMatch(/after \d+m( \d+s)?( \d+ms)?/)
        expect(lines.filter((l) => l.level === "DEBUG" && l.message.includes("failed again")).length)
          .toBeGreaterThan(5)
        // No line holds a secret.
        const text = JSON.stringify(lines)
        expect(text).not.toContain(apiKey)
        expect(text).not.toContain(secretKey)
        expect(text).not.toContain("signature=")
        // What a supervisor saw meanwhile.
        const during = availability.filter((a) => a.unavailableSince !== undefined)
        expect(during.length).toBeGreaterThan(50)
        expect(during.every((a) => a.unavailableSince === since && a.lastSuccess! < down.from)).toBe(true)
        expect(during[0]!.lastFailure).toContain("503")
        expect(availability.at(-1)).toMatchObject({ unavailableSince: undefined, lastFailure: undefined })
        expect(availability.at(-1)!.lastSuccess).toBeGreaterThan(down.to)
      }
    )
  })

  it("followTransfers: six streams through 10 minutes of outage, every record of every stream once, two log lines", async () => {
    const names = ["a", "b", "c", "d", "e", "f"]
    const rows: Record<string, Array<Row>> = Object.fromEntries(names.map((n) => [n, []]))
    const services = Object.fromEntries(names.map((n) => [n, transferService(rows[n]!)]))
    const down = { from: T0 + 30_000, to: T0 + 30_000 + 10 * minute }
    const answer = outage(down.from, down.to, (seen) => services[seen.params.get("toAccount")!]!(seen))
    await line.run({ answer }, { start: T0, settings }, async (sim) => {
      const stream = sim.start(
        "followTransfers",
        names.map((name) => ({ stream: name, query: { ...base, toAccount: name, since: 0 } })),
        { minInterval: "5 seconds", maxInterval: "30 seconds", settlement: "1 minute", concurrency: 4 }
      )
      const next = Prng.mulberry32(21)
      let id = 1
      for (let s = 5; s <= 15 * 60; s += 5) {
        rows[names[Prng.int(next, 0, names.length - 1)]!]!.push({
          tranId: String(id++),
          timestamp: T0 + s * 1_000 - 1,
          status: "SUCCESS"
        })
        await sim.adjust(5_000)
      }
      expect(stream.end()).toBeUndefined()
      const seen = stream.emitted as ReadonlyArray<Change>
      for (const name of names) {
        const mine = seen.filter((c) => c.stream === name)
        const reached = rows[name]!.filter((r) => r.timestamp <= T0 + 14 * minute)
        expect(mine.slice(0, reached.length).map((c) => c.record.tranId)).toEqual(ordered(reached))
        expect(new Set(mine.map((c) => c.record.tranId)).size).toBe(mine.length)
        expect(mine.every((c) => c.kind === "new")).toBe(true)
      }
      expect(unavailable(sim.logs)).toHaveLength(1)
      expect(availableAgain(sim.logs)).toHaveLength(1)
      const since = Date.parse(unavailable(sim.logs)[0]!.annotations["since"] as string)
      const ended = since + (availableAgain(sim.logs)[0]!.annotations["outageMillis"] as number)
      expect(ended).toBeGreaterThanOrEqual(down.to)
      expect(ended).toBeLessThanOrEqual(down.to + minute)
    })
  })

  it("a follow stream started while the service is down (server time and pages refused) catches up when it is back", async () => {
    const rows: Array<Row> = [
      { tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" },
      { tranId: "2", timestamp: T0 + 60_000, status: "SUCCESS" }
    ]
    const upAt = T0 + 5 * minute
    const service = {
      answer: outage(T0, upAt, transferService(rows)),
      // The server-time endpoint is down as long as the pages are.
      time: (_n: number, at: number): Answer | undefined =>
        at < upAt ? { transport: "connect ECONNREFUSED 127.0.0.1:8080" } : undefined
    }
    await line.run(service, { start: T0, settings }, async (sim) => {
      const stream = sim.start("transferChanges", { ...base, since: 0, follow: { interval: "10 seconds" } })
      await sim.adjust(7 * minute)
      expect(stream.end()).toBeUndefined()
      expect((stream.emitted as ReadonlyArray<Change>).map((c) => c.record.tranId)).toEqual(["1", "2"])
      expect(sim.timeRequests.length).toBeGreaterThan(0)
      expect(unavailable(sim.logs)).toHaveLength(1)
      expect(unavailable(sim.logs)[0]!.annotations["error"]).toBe("TransportError")
      expect(availableAgain(sim.logs)).toHaveLength(1)
    })
  })

  it("a permanent failure (700001) mid-follow still ends the stream, during an outage too", async () => {
    const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
    const revokedAt = T0 + 4 * minute
    // Down from 30 s, then the key is revoked at 4 minutes.
    const answer = outage(T0 + 30_000, revokedAt, (seen) =>
      seen.at >= revokedAt
        ? { status: 401, body: { code: 700001, msg: "Api key info invalid" } }
        : transferService(rows)(seen))
    await line.run({ answer }, { start: T0, settings }, async (sim) => {
      const changes = sim.start("transferChanges", { ...base, since: 0, follow: { interval: "10 seconds" } })
      const many = sim.start("followTransfers", [{ stream: "one", query: { ...base, since: 0 } }, {
        stream: "two",
        query: { ...base, toAccount: "sub2@x", since: 0 }
      }])
      // Within one capped retry interval (1 minute) of the revocation, both have ended.
      await sim.adjust(305_000)
      for (const stream of [changes, many]) {
        expect(stream.end()).toMatchObject({
          _tag: "Failure",
          failure: { _tag: "AuthenticationError", fields: { code: 700001 } }
        })
      }
      expect(unavailable(sim.logs)).toHaveLength(1)
      expect(availableAgain(sim.logs)).toHaveLength(0)
    })
  })
})

describe.each(Simulations.all)("a Retry-After beyond retry.maxRetryAfter ($name)", (line) => {
  it("over HTTP: a 429 asking for 5 minutes fails a page call and a stream at once; a follow stream waits it out", async () => {
    const rows: Array<Row> = [{ tranId: "1", timestamp: T0 - 5_000, status: "SUCCESS" }]
    const refusedFrom = T0 + 30_000
    let refusals = 0
    const answer = (seen: Seen): Answer => {
      if (seen.at >= refusedFrom && refusals === 0) {
        refusals++
        return { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "300" } }
      }
      return transferService(rows)(seen)
    }
    await line.run({ answer }, { start: T0, settings }, async (sim) => {
      const stream = sim.start("transferChanges", { ...base, since: 0, follow: { interval: "10 seconds" } })
      rows.push({ tranId: "2", timestamp: T0 + 60_000, status: "SUCCESS" })
      await sim.adjust(8 * minute)
      expect(stream.end()).toBeUndefined()
      expect((stream.emitted as ReadonlyArray<Change>).map((c) => c.record.tranId)).toEqual(["1", "2"])
      const refusedAt = sim.requests.find((s) => s.at >= refusedFrom)!.at
      // Refused once: the next request exactly when the service asked, not after the backoff.
      expect(sim.requests.filter((s) => s.at > refusedAt)[0]!.at).toBe(refusedAt + 5 * minute)
      expect(unavailable(sim.logs)).toHaveLength(1)
      const [start] = unavailable(sim.logs)
      expect(start).toMatchObject({
        level: "WARN",
        annotations: {
          error: "RateLimited",
          retryMillis: 5 * minute,
          resumesAt: new Date(refusedAt + 5 * minute).toISOString()
        }
      })
      expect(start!.message).toContain("Retry-After of 5m")
      expect(availableAgain(sim.logs)).toHaveLength(1)
      expect(availableAgain(sim.logs)[0]!.annotations["outageMillis"]).toBe(5 * minute)
    })
    // A page call meets the same refusal: it fails at once, after one attempt.
    const refuses = (): Answer => ({
      status: 429,
      body: { code: 429, msg: "Too many requests." },
      headers: { "retry-after": "300" }
    })
    await line.run({ answer: refuses }, { start: T0, settings }, async (sim) => {
      const outcome = await sim.call("transferHistory", { ...base, startTime: 1_000, endTime: 2_000, page: 1 })
      expect(outcome).toMatchObject({
        _tag: "Failure",
        failure: { _tag: "RateLimited", fields: { retryAfterMillis: 5 * minute, attempts: 1 } }
      })
      expect(sim.requests).toHaveLength(1)
    })
    // So does a change stream without follow.
    await line.run({ answer: refuses }, { start: T0, settings }, async (sim) => {
      const stream = sim.start("transferChanges", { ...base, since: 0 })
      await sim.adjust(0)
      expect(stream.end()).toMatchObject({
        _tag: "Failure",
        failure: { _tag: "RateLimited", fields: { retryAfterMillis: 5 * minute, attempts: 1 } }
      })
      expect(sim.requests.map((s) => s.at)).toEqual([T0])
    })
  })

  it("many streams refused at once during an outage: one line for the outage, one for the wait, one for the end", async () => {
    const names = ["a", "b", "c", "d"]
    const rows: Record<string, Array<Row>> = Object.fromEntries(
      names.map((n) => [n, [{ tranId: `${n}1`, timestamp: T0 - 5_000, status: "SUCCESS" }]])
    )
    const services = Object.fromEntries(names.map((n) => [n, transferService(rows[n]!)]))
    // 503 from 30 s to 90 s, then a 5-minute Retry-After for every request until 3 minutes.
    const answer = (seen: Seen): Answer =>
      seen.at >= T0 + 30_000 && seen.at < T0 + 90_000
        ? { status: 503, body: { code: 503, msg: "Service unavailable" } }
        : seen.at >= T0 + 90_000 && seen.at < T0 + 3 * minute
        ? { status: 429, body: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "300" } }
        : services[seen.params.get("toAccount")!]!(seen)
    await line.run({ answer }, { start: T0, settings }, async (sim) => {
      const stream = sim.start(
        "followTransfers",
        names.map((name) => ({ stream: name, query: { ...base, toAccount: name, since: 0 } })),
        { minInterval: "5 seconds", maxInterval: "10 seconds", settlement: "1 minute" }
      )
      for (const name of names) rows[name]!.push({ tranId: `${name}2`, timestamp: T0 + 2 * minute, status: "SUCCESS" })
      await sim.adjust(10 * minute)
      expect(stream.end()).toBeUndefined()
      const seen = (stream.emitted as ReadonlyArray<Change>).map((c) => c.record.tranId)
      expect([...seen].sort()).toEqual(names.flatMap((n) => [`${n}1`, `${n}2`]))
      expect(unavailable(sim.logs)).toHaveLength(1)
      expect(unavailable(sim.logs)[0]!.annotations["error"]).toBe("ServerError")
      const waits = sim.logs.filter((l) => l.message.startsWith("broker service asks to wait"))
      expect(waits).toHaveLength(1)
      expect(waits[0]).toMatchObject({ level: "WARN", annotations: { error: "RateLimited", retryMillis: 5 * minute } })
      expect(availableAgain(sim.logs)).toHaveLength(1)
      // Several streams were refused, and each asked again exactly 5 minutes later.
      const byStream = sim.requests.map((s) => ({ stream: s.params.get("toAccount")!, at: s.at }))
      const refused = byStream.filter(({ at }) => at >= T0 + 90_000 && at < T0 + 3 * minute)
      expect(new Set(refused.map((r) => r.stream)).size).toBeGreaterThan(1)
      for (const { at, stream } of refused) {
        expect(byStream.find((r) => r.stream === stream && r.at > at)?.at).toBe(at + 5 * minute)
      }
    })
  })
})
