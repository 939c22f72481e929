import { BrokerHistory } from "@broker-history/client-effect4"
import { Effect, Fiber } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import { historyLayerSyncSigning as historyLayer, mockService, transferWire } from "./support/MockService.js"
import * as TestClock from "./support/TestClock.js"

const query = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

describe("BrokerHistory.availability", () => {
  it.effect("records the last success, and an outage from its first transient failure to the next success", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_000_000)
      let down = false
      const mock = mockService(() =>
        down
          ? { status: 503, body: { code: 503, msg: "Service unavailable" } }
          : { status: 200, body: [transferWire("1", 1)] }
      )
      yield* Effect.gen(function*() {
        const history = yield* BrokerHistory.BrokerHistory
        expect(yield* history.availability).toEqual({
          lastSuccess: undefined,
          unavailableSince: undefined,
          lastFailure: undefined
        })
        yield* history.transferHistory(query)
        expect(yield* history.availability).toEqual({
          lastSuccess: 1_000_000,
          unavailableSince: undefined,
          lastFailure: undefined
        })
        down = true
        yield* TestClock.adjust("1 minute")
        const failing = yield* Effect.forkChild(Effect.flip(history.transferHistory(query)))
        yield* TestClock.adjust("1 minute")
        const error = yield* Fiber.await(failing).pipe(Effect.flatten)
        expect(error._tag).toBe("ServerError")
        const during = yield* history.availability
        expect(during.lastSuccess).toBe(1_000_000)
        expect(during.unavailableSince).toBeGreaterThan(1_060_000)
        expect(during.lastFailure).toBe(error.message.split("\n")[0])
        // A permanent failure (a bad query) neither starts nor ends an outage.
        yield* Effect.flip(history.transferHistory({ ...query, limit: 0 }))
        expect(yield* history.availability).toEqual(during)
        down = false
        yield* TestClock.adjust("1 minute")
        yield* history.transferHistory(query)
        expect(yield* history.availability).toEqual({
          lastSuccess: 1_180_000,
          unavailableSince: undefined,
          lastFailure: undefined
        })
      }).pipe(Effect.provide(historyLayer(mock)))
    }))
})
