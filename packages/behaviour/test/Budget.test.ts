// The request budget on every line: a client given the service's own limit stays inside it, under
// each of the service's limiter shapes, and still reads everything. The client spaces requests when
// it sends them and the service counts them when they arrive: the margin (added to the interval)
// absorbs that delay on a loaded machine, as it does across a network.
import * as TransferRecord from "@broker-history/core/record/TransferRecord"
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { clientSettings, spotToFutures, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)

describe.each(Lines.all)("budget ($name)", (line) => {
  it.each(["sliding", "fixed", "tokenBucket"] as const)(
    "a %s limiter of 20 per second is never exceeded",
    (shape) =>
      withReferenceService({
        seed: { seed: 9, transfers: 1500, deposits: 0, end: END, years: 1 },
        rateLimit: { limit: 20, window: "1 second", shape }
      }, (service) =>
        line.withClient(
          clientSettings(service, { rateLimit: { limit: 20, interval: "1 second", margin: "150 millis" } }),
          async (client) => {
            const got = success(
              await client.transfers({ ...spotToFutures.query, since: END - 365 * day, until: END, limit: 5 })
            )
            const expected = (await service.allTransfers(spotToFutures.filter)).filter((r) =>
              r.timestamp >= END - 365 * day
            )
            expect(got.map(TransferRecord.key)).toEqual(expected.map((r) => r.tranId))
            const stats = await service.stats()
            expect(stats.requests).toBeGreaterThan(40)
            expect(stats.byStatus[429] ?? 0).toBe(0)
          }
        ))
  )
})
