// Faults on every line: with the service failing, dropping, truncating, rate-limiting and hanging
// requests at random, the streams are still exact; a permanent failure ends them at once; a transient
// one that outlasts the retries ends them with its own typed error; a stream interrupted while its
// request hangs lets go of everything it held.
import * as DepositRecord from "@broker-history/core/record/DepositRecord"
import * as TransferRecord from "@broker-history/core/record/TransferRecord"
import { describe, expect, it } from "vitest"
import { eventually } from "../src/Eventually.js"
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

  // The seeds run side by side: each has its own service and client, and mostly waits (the random 429s
  // cut the client's adaptive rate to what the service accepted before each).
  it.concurrent.each([1, 2, 3])(
    "seed %i: 5xx, 429s, drops, hangs and truncated bodies over two years: transfers and deposits exact",
    (seed) =>
      withReferenceService({ seed: { seed, transfers: 3000, deposits: 600, end: END } }, async (service) => {
        await service.setFaults({
          seed,
          serverError: 0.05,
          rateLimited: 0.03,
          retryAfterSeconds: 0,
          drop: 0.03,
          hang: 0.02,
          truncate: 0.03
        })
        return line.withClient(
          clientSettings(service, {
            requestTimeout: "300 millis",
            retry: { maxRetries: 10, baseDelay: "5 millis", maxDelay: "20 millis" }
          }),
          async (client) => {
            const since = END - 731 * day
            const transfers = success(await client.transfers({ ...base, since, until: END, limit: 50 }))
            const deposits = success(await client.deposits({ since, until: END, limit: 200 }))
            await service.setFaults({})
            const expected = (await service.allTransfers(spotToFutures.filter)).filter((r) => r.timestamp >= since)
            expect(transfers.map(TransferRecord.key)).toEqual(expected.map((r) => r.tranId))
            expect(deposits.map(DepositRecord.key).sort()).toEqual(
              (await service.allDeposits()).map(DepositRecord.key).sort()
            )
            const met = Object.values((await service.stats()).faults).reduce((a, b) => a + b, 0)
            expect(met).toBeGreaterThan(0)
          }
        )
      }),
    // A bound for a hung run, not a time asserted.
    120_000
  )

  it("a stream interrupted while its request hangs lets go of the request, its sockets and its fibers", async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length
    const before = sockets()
    await withReferenceService({ seed: { seed: 3, transfers: 2000, deposits: 0, end: END } }, async (service) => {
      await service.setFaults({ hang: 1 })
      await line.withClient(clientSettings(service), async (client) => {
        const interrupt = new AbortController()
        const reading = client.transfers({ ...base, since: 0, until: END }, { signal: interrupt.signal })
        // Interrupted only once a request is known to hang (not after a guessed delay).
        await eventually("a request hangs", () => service.stats(), (stats) => (stats.faults.hang ?? 0) > 0)
        interrupt.abort()
        expect((await reading)._tag).toBe("Interrupted")
      })
    })
    // Sockets close asynchronously after the client and the service: wait (bounded) for the count.
    expect(await eventually("the sockets are released", sockets, (n) => n <= before)).toBeLessThanOrEqual(before)
  })

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
