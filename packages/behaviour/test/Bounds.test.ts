// A broken, skewed or misbehaving service on every line: the client signs against the service's
// clock, refuses what it cannot trust with a typed error, and does not loop: a service that ignores
// the asked window fails the walk at once; one that pages a crowded millisecond forever, or stops
// paging it, ends the stream saying so, or with onIncomplete "warn" lets it go on, warned and counted.
import { pageOf, transfer as subTransfer } from "@broker-history/testing/Misbehaving"
import { describe, expect, it } from "vitest"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { spotToFutures } from "../src/ReferenceService.js"
import type { Answer, Seen, Service } from "../src/ScriptedService.js"
import { withScriptedService } from "../src/ScriptedService.js"

const base = spotToFutures.query
const day = 86_400_000
const toSub = { ...base, toAccount: "sub001@broker.test" }
const settings = (service: Service) => ({
  baseUrl: service.baseUrl,
  apiKey: "scripted-key-1f2e3d",
  secretKey: "scripted-secret-4c5b6a",
  // A budget that never binds here.
  rateLimit: { limit: 10_000, interval: "1 second" },
  retry: { maxRetries: 2, baseDelay: "1 millis", maxDelay: "5 millis" }
} as const)

/**
 * A script answering 200 with `page(params)` for every history request, and past 1,000 of them 400
 * `{code,msg}`: a client that would loop ends with an ApiError instead of running on.
 */
const paging = (page: (params: URLSearchParams) => unknown) => {
  let requests = 0
  return (seen: Seen): Answer =>
    ++requests > 1_000
      ? { status: 400, json: { code: 33333, msg: "more than 1000 requests" } }
      : { status: 200, json: page(seen.params) }
}

const transfer = (tranId: string, timestamp: number) => ({
  tranId,
  clientTranId: "",
  fromAccount: null,
  toAccount: null,
  asset: "USDT",
  amount: "1.50000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp
})

describe.each(Lines.all)("bounds ($name)", (line) => {
  it("a service whose clock runs an hour ahead: one rejected stamp, one resync, then its time", () => {
    const ahead = 3_600_000
    // Refuses a timestamp more than 5 s away from its own clock, as the exchange does.
    const script = (seen: Seen): Answer =>
      Math.abs(Number(seen.params.get("timestamp")) - (seen.at + ahead)) > 5_000
        ? { status: 400, json: { code: 700003, msg: "Timestamp for this request is outside of the recvWindow." } }
        : { status: 200, json: [] }
    return withScriptedService(script, (service) =>
      line.withClient(settings(service), async (client) => {
        success(await client.transferHistory({ ...base }))
        expect(service.seen.length).toBe(2)
        success(await client.transferHistory({ ...base }))
        // The stream pins its range on the service's clock and stamps with it from the first request.
        success(await client.transfers({ ...base, since: 0 }))
        const statuses = service.seen.map((seen) => script(seen))
        expect(statuses.slice(2).every((answer) => "status" in answer && answer.status === 200)).toBe(true)
        expect(service.seen.length).toBeGreaterThan(2)
      }), { clockAhead: ahead })
  })

  it("a body larger than maxResponseBytes is refused unread (TooLarge), without retries", () =>
    withScriptedService(
      () => ({ status: 200, json: Array.from({ length: 200 }, (_, i) => transfer(String(i), 1000 + i)) }),
      (service) =>
        line.withClient({ ...settings(service), maxResponseBytes: 4096 }, async (client) => {
          const refused = failure(await client.transferHistory({ ...base }))
          expect(refused).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "TooLarge" } })
          expect(refused.message).toContain("maxResponseBytes")
          expect(service.seen.length).toBe(1)
        })
    ))

  it("a service that pages one millisecond forever ends the stream at maxPagesPerMillisecond", () =>
    withScriptedService(
      (seen) => {
        // Full pages of one crowded millisecond, new ids on every page: paging never ends by itself.
        const page = Number(seen.params.get("page") ?? 1)
        const limit = Number(seen.params.get("limit") ?? 10)
        const at = Number(seen.params.get("startTime") ?? 1_000)
        return { status: 200, json: Array.from({ length: limit }, (_, i) => transfer(`${page}-${i}`, at)) }
      },
      (service) =>
        line.withClient(settings(service), async (client) => {
          const ended = failure(await client.transfers({ ...base, since: 1_000, until: 1_000, limit: 10 }))
          // maxPagesPerMillisecond (default 20) bounds the paging of one millisecond.
          expect(ended).toMatchObject({ _tag: "IncompleteHistory", fields: { reason: "PageLimit", pages: 20 } })
          expect(ended.message).toContain("maxPagesPerMillisecond")
          expect(service.seen.length).toBe(20)
        })
    ))

  it("a service that ignores startTime/endTime: the walk fails with OutsideQuery after a page or two, no loop", () => {
    const now = Date.now()
    // 5,000 transfers over two years, newest first, paged whatever the window asked for.
    const rows = Array.from({ length: 5_000 }, (_, i) => subTransfer(5_000 - i, now - 1_000 - i * 12_600_000))
    return withScriptedService(
      paging((params) => pageOf(rows, params)),
      (service) =>
        line.withClient(settings(service), async (client) => {
          const refused = failure(await client.transfers({ ...toSub, since: now - 800 * day, until: now }))
          expect(refused).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
          expect(refused.message).toContain("is outside the query's window")
          // The first window is the whole range (its page is the newest 500 records, all inside it); the
          // narrowed one gets the same page, partly outside it.
          expect(service.seen.length).toBeLessThanOrEqual(3)

          // A page call with a window is checked the same way.
          const page = failure(await client.transferHistory({ ...toSub, startTime: now - day, endTime: now }))
          expect(page).toMatchObject({
            _tag: "ResponseDecodeError",
            fields: {
              reason: "OutsideQuery",
              request: { endpoint: "transferHistory", startTime: now - day, endTime: now }
            }
          })
        })
    )
  })

  describe("a service that stops paging a crowded millisecond", () => {
    const T = Date.UTC(2026, 0, 1, 12)
    // 1,200 transfers in millisecond T, one before and one after it; pages past 2 come back empty.
    const rows = [
      subTransfer(1, T + 60_000),
      ...Array.from({ length: 1_200 }, (_, i) => subTransfer(10_000 - i, T)),
      subTransfer(2, T - 60_000)
    ]
    const capped = paging((params) => {
      const start = Number(params.get("startTime"))
      const end = Number(params.get("endTime"))
      if (Number(params.get("page") ?? 1) > 2) return []
      return pageOf(rows.filter((r) => r.timestamp >= start && r.timestamp <= end), params)
    })
    const range = { ...toSub, since: T - day, until: T + day }

    it("fails with IncompleteHistory naming the millisecond, the records received and the pages", () =>
      withScriptedService(capped, (service) =>
        line.withClient(settings(service), async (client) => {
          const ended = failure(await client.transfers(range))
          expect(ended).toMatchObject({
            _tag: "IncompleteHistory",
            fields: {
              time: T,
              received: 1_000,
              pages: 2,
              reason: "EmptyPage",
              request: { endpoint: "transferHistory", startTime: T, endTime: T, page: 3 }
            }
          })
          expect(ended.message).toContain("1000 records in 2 pages, then page 3 came back empty")
        })))

    it("with onIncomplete warn: the 1,000 records served, a warning, the metric, the client's count", () =>
      withScriptedService(
        capped,
        (service) =>
          line.withClient({ ...settings(service), onIncomplete: "warn" }, async (client) => {
            const counted = await client.incompleteCounter("transferHistory")
            const ids = success(await client.transfers(range)).map((r) => r.tranId)
            expect(ids).toHaveLength(1_002)
            expect(new Set(ids).size).toBe(1_002)
            expect([ids[0], ids[1_001]]).toEqual(["2", "1"])
            expect(await client.incomplete()).toBe(1)
            expect(await client.incompleteCounter("transferHistory") - counted).toBe(1)
            expect(client.logs.filter((l) => l.level === "WARN").map((l) => l.annotations)).toEqual([
              expect.objectContaining({
                endpoint: "transferHistory",
                millisecond: new Date(T).toISOString(),
                received: 1_000,
                pages: 2,
                reason: "EmptyPage"
              })
            ])
          })
      ))
  })
})
