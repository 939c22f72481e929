// A broken, hostile or skewed service on every line: the client signs against the service's clock,
// refuses what it cannot trust with a typed error in one bounded line, and does not loop.
import { describe, expect, it } from "vitest"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { spotToFutures } from "../src/ReferenceService.js"
import type { Answer, Seen, Service } from "../src/ScriptedService.js"
import { withScriptedService } from "../src/ScriptedService.js"

const base = spotToFutures.query
const settings = (service: Service) => ({
  baseUrl: service.baseUrl,
  apiKey: "scripted-key-1f2e3d",
  secretKey: "scripted-secret-4c5b6a",
  retry: { maxRetries: 2, baseDelay: "1 millis", maxDelay: "5 millis" }
} as const)

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/

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

  it("a 5 MB error message with control characters becomes one short clean line", () =>
    withScriptedService(
      () => ({ status: 400, json: { code: 10001, msg: "\u001b[31mboom\r\n" + "x".repeat(5_000_000) } }),
      (service) =>
        line.withClient(settings(service), async (client) => {
          const refused = failure(await client.transferHistory({ ...base }))
          expect(refused._tag).toBe("ApiError")
          expect(refused.message).not.toMatch(controls)
          expect(refused.message.length).toBeLessThanOrEqual(1000)
        })
    ))

  it("records outside the asked window are refused, not passed on", () =>
    withScriptedService(
      () => ({ status: 200, json: [transfer("1", 5_000)] }),
      (service) =>
        line.withClient(settings(service), async (client) => {
          const refused = failure(await client.transfers({ ...base, since: 1_000, until: 2_000 }))
          expect(refused).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
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
})
