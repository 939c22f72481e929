// Following on every line: a change stream with `follow` never ends by itself, delivers records added
// after it started, and rides out an outage of the service instead of ending with it.
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { clientSettings, spotToFutures, transferRow, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
          history.length + 3
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
            2
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
})
