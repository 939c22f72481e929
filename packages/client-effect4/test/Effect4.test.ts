import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"

// The package resolves effect 4 (its own copy), not the workspace's effect 3.
describe("effect 4", () => {
  it("runs an effect with effect 4's Result", async () => {
    const result = await Effect.runPromise(Effect.result(Effect.succeed(1)))
    expect(Result.isSuccess(result)).toBe(true)
  })
})
