// Faults on every line: with the service failing, dropping, truncating, rate-limiting and hanging
// requests at random, the streams are still exact; a permanent failure ends them at once; a transient
// one that outlasts the retries ends them with its own typed error.
import { TransferRecord } from "@broker-history/domain"
import { describe, expect, it } from "vitest"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { clientSettings, spotToFutures, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const base = spotToFutures.query

describe.each(Lines.all)("faults ($name)", (line) => {
  it("random 500s, drops, truncated bodies, 429s and hangs: the stream is still exact", () =>
    withReferenceService({
      seed: { seed: 11, transfers: 1200, deposits: 0, end: END, years: 1 },
      faults: {
        seed: 4,
        serverError: 0.08,
        drop: 0.05,
        truncate: 0.05,
        rateLimited: 0.05,
        hang: 0.03,
        retryAfterSeconds: 0
      }
    }, (service) =>
      line.withClient(
        clientSettings(service, {
          requestTimeout: "300 millis",
          rateLimit: { limit: 5000, interval: "1 second", adaptive: false },
          retry: { maxRetries: 12, baseDelay: "2 millis", maxDelay: "20 millis", maxRetryAfter: "1 second" }
        }),
        async (client) => {
          const query = { ...base, since: END - 365 * day, until: END, limit: 5 }
          const got = success(await client.transfers(query))
          const expected = (await service.allTransfers(spotToFutures.filter))
            .filter((r) => r.timestamp >= query.since && r.timestamp <= END)
          expect(got.map(TransferRecord.key)).toEqual(expected.map((r) => r.tranId))
          const faults = (await service.stats()).faults
          // The run met every kind of fault it was meant to ride out.
          for (const kind of ["serverError", "drop", "truncate", "rateLimited", "hang"]) {
            expect(faults[kind] ?? 0, `${kind} in ${JSON.stringify(faults)}`).toBeGreaterThan(0)
          }
        }
      )))

  it("a service that keeps failing ends the stream with ServerError after the retries", () =>
    withReferenceService({ faults: { serverError: 1 } }, (service) =>
      line.withClient(
        clientSettings(service, {
          retry: { maxRetries: 2, baseDelay: "1 millis", maxDelay: "2 millis" }
        }),
        async (client) => {
          const before = (await service.stats()).requests
          const ended = failure(await client.transfers({ ...base, since: END - day, until: END }))
          expect(ended._tag).toBe("ServerError")
          // The page request and its two retries (the server clock's own requests are answered 500 too).
          expect((await service.stats()).byStatus[500]).toBe((await service.stats()).requests - before)
        }
      )))

  it("a permanent failure ends the stream after one request", () =>
    withReferenceService(
      { seed: { seed: 2, transfers: 100, deposits: 0, end: END } },
      (service) =>
        line.withClient(
          clientSettings(service, { apiKey: "mx0vglUNKNOWN000000000000000000", secretKey: "x" }),
          async (client) => {
            const ended = failure(await client.deposits({ since: END - day, until: END }))
            expect(ended._tag).toBe("AuthenticationError")
            expect((await service.stats()).byStatus[401] ?? 0).toBe(1)
          }
        )
    ))
})
