// `BrokerHistory.availability` through page calls on a virtual clock, on both lines.
import { describe, expect, it } from "vitest"
import { transferWire } from "../../../client/test/support/MockService.js"
import { failure, success } from "../../src/Line.js"
import type { Answer } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const query = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const

describe.each(Simulations.all)("BrokerHistory.availability ($name)", (line) => {
  it("records the last success, and an outage from its first transient failure to the next success", async () => {
    let down = false
    const answer = (): Answer =>
      down
        ? { status: 503, body: { code: 503, msg: "Service unavailable" } }
        : { status: 200, body: [transferWire("1", 1)] }
    await line.run({ answer }, { start: 1_000_000 }, async (sim) => {
      expect(await sim.availability()).toEqual({
        lastSuccess: undefined,
        unavailableSince: undefined,
        lastFailure: undefined
      })
      success(await sim.call("transferHistory", query))
      expect(await sim.availability()).toEqual({
        lastSuccess: 1_000_000,
        unavailableSince: undefined,
        lastFailure: undefined
      })
      down = true
      await sim.adjust(60_000)
      const failing = sim.call("transferHistory", query)
      await sim.adjust(60_000)
      const error = failure(await failing)
      expect(error._tag).toBe("ServerError")
      const during = await sim.availability()
      expect(during.lastSuccess).toBe(1_000_000)
      expect(during.unavailableSince).toBeGreaterThan(1_060_000)
      expect(during.lastFailure).toBe(error.message.split("\n")[0])
      // A permanent failure (a bad query) neither starts nor ends an outage.
      expect(failure(await sim.call("transferHistory", { ...query, limit: 0 }))._tag).toBe("InvalidQuery")
      expect(await sim.availability()).toEqual(during)
      down = false
      await sim.adjust(60_000)
      success(await sim.call("transferHistory", query))
      expect(await sim.availability()).toEqual({
        lastSuccess: 1_180_000,
        unavailableSince: undefined,
        lastFailure: undefined
      })
    })
  })
})
