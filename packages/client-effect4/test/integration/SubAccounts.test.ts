// The sub-account list against the reference service over real HTTP on 127.0.0.1: every page read,
// creation times decoded, a sub-account created during the read, and a plan from the list whose
// streams start at the creation times and still read every transfer.
import { TransferPlan } from "@broker-history/client-effect4"
import { Effect, Stream } from "effect"
import { describe, expect, it } from "../support/EffectTest.js"
import type * as ReferenceService from "../support/ReferenceService.js"
import { collect, withService } from "../support/WithService.js"

const day = 86_400_000
const END = Date.UTC(2026, 0, 1)

/** Creates `count` sub-accounts `extraNNNN@broker.test`, one a minute from `from`. */
const create = (server: ReferenceService.Bridged, count: number, from: number) =>
  Effect.forEach(Array.from({ length: count }, (_, i) => i), (i) =>
    server.createSubAccount({
      name: `extra${String(i).padStart(4, "0")}@broker.test`,
      note: i % 3 === 0 ? `desk ${i}` : "",
      createdAt: from + i * 60_000
    }), { discard: true })

describe("the sub-account list against the reference service", () => {
  it.live("subAccounts reads every page of the documented answer: each sub-account once, with its creation time", () =>
    withService(
      { seed: { seed: 3, transfers: 0, deposits: 0, end: END, subAccounts: 3 } },
      {},
      (server, history) =>
        Effect.gen(function*() {
          yield* create(server, 450, END - 30 * day)
          const stored = yield* server.store.allSubAccounts()
          const before = (yield* server.stats).requests
          const listed = yield* collect(history.subAccounts())
          expect(listed.length).toBe(453)
          expect(listed).toEqual(
            stored.map((s) => ({ subAccount: s.name, note: s.note, timestamp: s.createdAt }))
          )
          // Pages of 200: 200, 200, 53.
          expect((yield* server.stats).requests - before).toBe(3)
        })
    ))

  it.live("subAccountList: one page, filtered by name, with its creation time", () =>
    withService(
      { seed: { seed: 3, transfers: 0, deposits: 0, end: END, subAccounts: 3 } },
      {},
      (server, history) =>
        Effect.gen(function*() {
          yield* create(server, 12, END - day)
          const first = yield* history.subAccountList()
          expect(first.length).toBe(10)
          const one = yield* history.subAccountList({ subAccount: "extra0003@broker.test" })
          expect(one).toEqual([{ subAccount: "extra0003@broker.test", note: "desk 3", timestamp: END - day + 180_000 }])
          expect(yield* history.subAccountList({ subAccount: "nobody@broker.test" })).toEqual([])
          const last = yield* history.subAccountList({ page: 2, limit: 10 })
          expect(last.map((s) => s.subAccount)).toEqual([
            "extra0007@broker.test",
            "extra0008@broker.test",
            "extra0009@broker.test",
            "extra0010@broker.test",
            "extra0011@broker.test"
          ])
        })
    ))

  it.live("a sub-account created during the read shifts the list: nothing is emitted twice", () =>
    withService(
      { seed: { seed: 3, transfers: 0, deposits: 0, end: END, subAccounts: 3 } },
      {},
      (server, history) =>
        Effect.gen(function*() {
          yield* create(server, 300, END - 30 * day)
          const before = (yield* server.store.allSubAccounts()).map((s) => s.name)
          let created = false
          const listed = yield* collect(
            history.subAccounts().pipe(
              // Once page 1 is read, a sub-account created before all others takes the list's head:
              // page 2 then starts with page 1's last name.
              Stream.tap(() =>
                created ? Effect.void : Effect.asVoid(Effect.andThen(
                  Effect.sync(() => (created = true)),
                  server.createSubAccount({ name: "early@broker.test", createdAt: 0 })
                ))
              )
            )
          )
          const names = listed.map((s) => s.subAccount)
          expect(new Set(names).size).toBe(names.length)
          expect(names).toEqual(before)
          // It was created at the head, already read: the list now holds it first.
          expect((yield* server.store.allSubAccounts())[0]?.name).toBe("early@broker.test")
        })
    ))

  it.live("a plan from the list starts each stream at its sub-account's creation and reads all its transfers", () =>
    withService(
      {
        seed: { seed: 11, transfers: 3000, deposits: 0, end: END, years: 1, subAccounts: 4, staggeredSubAccounts: true }
      },
      {},
      (server, history) =>
        Effect.gen(function*() {
          const listed = yield* collect(history.subAccounts())
          const stored = yield* server.store.allSubAccounts()
          expect(listed.map((s) => s.timestamp)).toEqual(stored.map((s) => s.createdAt))
          const planned = TransferPlan.ofSubAccounts(listed, ["SPOT", "FUTURES"])
          expect(planned.length).toBe((1 + 2 * 4) * 4)
          const late = listed[3]!
          expect(late.timestamp).toBeGreaterThan(END - 365 * day)
          let transfers = 0
          for (const stream of planned.filter((s) => s.query.toAccount === late.subAccount)) {
            expect(stream.startsAt).toBe(late.timestamp)
            const read = yield* collect(
              history.transfers({ ...stream.query, since: stream.startsAt!, until: END })
            )
            const expected = yield* server.store.allTransfers({
              fromAccount: null,
              toAccount: late.subAccount,
              fromAccountType: stream.query.fromAccountType,
              toAccountType: stream.query.toAccountType
            })
            expect(read.map((r) => r.tranId)).toEqual(expected.map((r) => r.tranId))
            transfers += read.length
          }
          expect(transfers).toBeGreaterThan(0)
        })
    ))
})
