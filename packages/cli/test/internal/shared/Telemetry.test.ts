// The OpenTelemetry exporter of the commands: a collector that cannot be reached fails the export
// quietly, and the program's own result is unchanged.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Telemetry from "../../../src/internal/shared/Telemetry.js"

describe("Telemetry", () => {
  it("exports as service broker-history; nothing listening at the collector's address changes nothing", async () => {
    expect(Telemetry.serviceName).toBe("broker-history")
    const answer = Effect.succeed(42).pipe(
      Effect.withSpan("work"),
      Effect.provide(Telemetry.layer("http://127.0.0.1:9"))
    )
    expect(await Effect.runPromise(answer)).toBe(42)
  }, 15_000)
})
