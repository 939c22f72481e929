// The sub-account list against the reference service over 127.0.0.1, on every line: every page read,
// creation times decoded, a page filtered by name, a sub-account created during the read, and a plan
// from the list whose streams start at the creation times and still read every transfer.
import * as TransferRecord from "@broker-history/core/record/TransferRecord"
import { describe, expect, it } from "vitest"
import { success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Service } from "../src/ReferenceService.js"
import { clientSettings, withReferenceService } from "../src/ReferenceService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)
const threeSeeded = { seed: { seed: 3, transfers: 0, deposits: 0, end: END, subAccounts: 3 } }

/** Creates `count` sub-accounts `extraNNNN@broker.test`, one a minute from `from`. */
const create = async (service: Service, count: number, from: number) => {
  for (let i = 0; i < count; i++) {
    await service.createSubAccount({
      name: `extra${String(i).padStart(4, "0")}@broker.test`,
      note: i % 3 === 0 ? `desk ${i}` : "",
      createdAt: from + i * 60_000
    })
  }
}

describe.each(Lines.all)("sub-accounts ($name)", (line) => {
  it("subAccounts reads every page: each sub-account once, in the service's order, with its creation time", () =>
    withReferenceService(threeSeeded, async (service) => {
      await create(service, 450, END - 30 * day)
      return line.withClient(clientSettings(service), async (client) => {
        const stored = await service.allSubAccounts()
        const before = (await service.stats()).requests
        const listed = success(await client.subAccounts())
        expect(listed.length).toBe(453)
        expect(listed).toEqual(stored.map((s) => ({ subAccount: s.name, note: s.note, timestamp: s.createdAt })))
        // Pages of 200: 200, 200, 53.
        expect((await service.stats()).requests - before).toBe(3)
        const five = success(await client.subAccounts({}, { take: 5 }))
        expect(five).toEqual(listed.slice(0, 5))
      })
    }))

  it("subAccountList: one page as asked, filtered by name, with its creation time", () =>
    withReferenceService(threeSeeded, async (service) => {
      await create(service, 12, END - day)
      return line.withClient(clientSettings(service), async (client) => {
        expect(success(await client.subAccountList()).length).toBe(10)
        const one = success(await client.subAccountList({ subAccount: "extra0003@broker.test" }))
        expect(one).toEqual([{ subAccount: "extra0003@broker.test", note: "desk 3", timestamp: END - day + 180_000 }])
        expect(success(await client.subAccountList({ subAccount: "nobody@broker.test" }))).toEqual([])
        const last = success(await client.subAccountList({ page: 2, limit: 10 }))
        expect(last.map((s) => s.subAccount)).toEqual((await service.allSubAccounts()).slice(10, 20).map((s) => s.name))
        expect(last.map((s) => s.subAccount)).toEqual([
          "extra0007@broker.test",
          "extra0008@broker.test",
          "extra0009@broker.test",
          "extra0010@broker.test",
          "extra0011@broker.test"
        ])
      })
    }))

  it("a sub-account created during the read shifts the list: nothing is emitted twice", () =>
    withReferenceService(threeSeeded, async (service) => {
      await create(service, 300, END - 30 * day)
      const before = (await service.allSubAccounts()).map((s) => s.name)
      let created = false
      return line.withClient(clientSettings(service), async (client) => {
        const listed = success(
          await client.subAccounts({}, {
            // Once page 1 is read, a sub-account created before all others takes the list's head:
            // page 2 then starts with page 1's last name.
            each: async () => {
              if (created) return
              created = true
              await service.createSubAccount({ name: "early@broker.test", createdAt: 0 })
            }
          })
        )
        const names = listed.map((s) => s.subAccount)
        expect(new Set(names).size).toBe(names.length)
        expect(names).toEqual(before)
        // It was created at the head, already read: the list now holds it first.
        expect((await service.allSubAccounts())[0]?.name).toBe("early@broker.test")
      })
    }))

  it("a plan from the list starts each stream at its sub-account's creation and reads all its transfers", () =>
    withReferenceService({
      seed: { seed: 11, transfers: 3000, deposits: 0, end: END, years: 1, subAccounts: 4, staggeredSubAccounts: true }
    }, (service) =>
      line.withClient(clientSettings(service), async (client) => {
        const listed = success(await client.subAccounts())
        const stored = await service.allSubAccounts()
        expect(listed.map((s) => s.timestamp)).toEqual(stored.map((s) => s.createdAt))
        const planned = line.planTransfers(listed, ["SPOT", "FUTURES"])
        expect(planned.length).toBe((1 + 2 * 4) * 4)
        const late = listed[3]!
        expect(late.timestamp).toBeGreaterThan(END - 365 * day)
        let transfers = 0
        for (const stream of planned.filter((s) => s.query.toAccount === late.subAccount)) {
          expect(stream.startsAt).toBe(late.timestamp)
          const read = success(await client.transfers({ ...stream.query, since: stream.startsAt!, until: END }))
          const expected = await service.allTransfers({
            fromAccount: null,
            toAccount: late.subAccount,
            fromAccountType: stream.query.fromAccountType,
            toAccountType: stream.query.toAccountType
          })
          expect(read.map(TransferRecord.key)).toEqual(expected.map((r) => r.tranId))
          transfers += read.length
        }
        expect(transfers).toBeGreaterThan(0)
      })))
})
