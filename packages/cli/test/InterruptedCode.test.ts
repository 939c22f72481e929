// The exit code of an interrupted program: 0 for a clean stop, 130/143 once a command said a signal
// cut its work short (its own module state, hence a file of its own).
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ExitCode from "../src/internal/shared/ExitCode.js"

describe("ExitCode.interruptedCode", () => {
  it("0 until a command says its work was cut short; then 130 (SIGINT), 143 (SIGTERM), 1 without a signal", () => {
    expect([ExitCode.interruptedCode("SIGINT"), ExitCode.interruptedCode("SIGTERM")]).toEqual([0, 0])
    const written: Array<string> = []
    const stderrWrite = process.stderr.write
    process.stderr.write = ((line: string) => written.push(line) > 0) as typeof process.stderr.write
    try {
      Effect.runSync(ExitCode.interrupted("the export on stdout is incomplete"))
    } finally {
      process.stderr.write = stderrWrite
    }
    expect(written).toEqual(["broker-history: interrupted: the export on stdout is incomplete\n"])
    expect(ExitCode.interruptedCode("SIGINT")).toBe(130)
    expect(ExitCode.interruptedCode("SIGTERM")).toBe(143)
    expect(ExitCode.interruptedCode(undefined)).toBe(1)
  })
})
