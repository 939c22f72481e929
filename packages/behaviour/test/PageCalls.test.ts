// One request per call, against the reference service over 127.0.0.1, on every line: the records as
// the service holds them, the service's refusals (a wrong key, a missing permission, a window too
// wide) as the same typed errors, bad input refused first.
import * as DepositRecord from "@broker-history/core/record/DepositRecord"
import { ApiKeys } from "@broker-history/server"
import { describe, expect, it } from "vitest"
import { failure, type Outcome, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import { clientSettings, spotToFutures, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const base = spotToFutures.query

describe.each(Lines.all)("page calls ($name)", (line) => {
  it("return the service's records, decoded, amounts byte for byte", () =>
    withReferenceService(
      { seed: { seed: 7, transfers: 2000, deposits: 500, end: END } },
      (service) =>
        line.withClient(clientSettings(service), async (client) => {
          const page = success(await client.transferHistory({ ...base, limit: 50, startTime: 0, endTime: END }))
          const all = await service.allTransfers(spotToFutures.filter)
          expect(page.length).toBe(Math.min(50, all.length))
          const newest = [...all].reverse().slice(0, page.length)
          expect(page.map((t) => [t.tranId, t.amount])).toEqual(newest.map((t) => [t.tranId, t.amount]))

          const deposits = success(
            await client.depositHistory({ startTime: END - 10 * day, endTime: END, limit: 1000 })
          )
          const expected = (await service.allDeposits()).filter((d) =>
            d.insertTime >= END - 10 * day && d.insertTime <= END
          )
          expect(deposits.map(DepositRecord.key).sort()).toEqual(expected.map(DepositRecord.key).sort())
          expect(deposits.every((d) => typeof d.amount === "string")).toBe(true)

          const wide = failure(await client.depositHistory({ startTime: 0, endTime: END }))
          expect(wide).toMatchObject({ _tag: "ApiError", fields: { code: 33333 } })
        })
    ))

  it("a wrong key is an AuthenticationError after one request, and no retry", () =>
    withReferenceService({}, (service) =>
      line.withClient(
        clientSettings(service, { secretKey: "not-the-secret" }),
        async (client) => {
          const before = (await service.stats()).requests
          const refused = failure(await client.transferHistory({ ...base }))
          expect(refused).toMatchObject({ _tag: "AuthenticationError", fields: { reason: "Signature" } })
          expect(refused.message).toContain("secretKey")
          expect((await service.stats()).requests - before).toBe(1)
        }
      )))

  it("a key without the permission is refused as the service says, on that endpoint only", () => {
    const transfersOnly: ApiKeys.ApiKey = {
      apiKey: "t-only",
      secretKey: "t-secret",
      permissions: ["SPOT_TRANSFER_READ"]
    }
    return withReferenceService(
      { keys: [ApiKeys.demo, transfersOnly] },
      (service) =>
        line.withClient(clientSettings(service, { apiKey: "t-only", secretKey: "t-secret" }), async (client) => {
          expect(success(await client.transferHistory({ ...base }))).toEqual([])
          const refused = failure(await client.depositHistory({}))
          expect(refused).toMatchObject({ _tag: "AuthenticationError", fields: { reason: "Permission" } })
        })
    )
  })

  it("bad input fails with InvalidQuery naming the parameter, before any request", () =>
    withReferenceService({}, (service) =>
      line.withClient(clientSettings(service), async (client) => {
        const before = (await service.stats()).requests
        const cases: ReadonlyArray<readonly [Promise<Outcome<unknown>>, string]> = [
          [client.transferHistory({ ...base, limit: 0 }), "limit"],
          [client.transferHistory({ ...base, startTime: 10, endTime: 5 }), "startTime"],
          [client.transferHistory({ fromAccountType: "SPOT" }), "toAccountType"],
          [client.depositHistory({ limit: 1001 }), "limit"],
          [client.transfers({ ...base, concurrency: 0 }), "concurrency"],
          [client.deposits({ since: "not a date" }), "since"]
        ]
        for (const [call, parameter] of cases) {
          const refused = failure(await call)
          expect(refused._tag).toBe("InvalidQuery")
          expect(refused.message).toContain(parameter)
        }
        expect((await service.stats()).requests).toBe(before)
      })))
})
