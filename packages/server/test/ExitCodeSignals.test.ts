// How a program ends when a signal interrupts it: 0 unless the program says otherwise (a server's
// clean stop), the program's own code by signal when it does; the shell's 128 + signal number.
import { CommandLine } from "@broker-history/server"
import { describe, expect, it } from "@effect/vitest"
import { Exit, FiberId } from "effect"

const outcomes: CommandLine.Outcomes = { usage: 2, known: () => undefined, unexpected: () => 1 }
const stopped = Exit.interrupt(FiberId.none)

describe("CommandLine.exitCode and signals", () => {
  it("an interruption ends with 0 when the program gives no code for it, whatever the signal", () => {
    expect(CommandLine.exitCode(stopped, outcomes)).toBe(0)
    expect(CommandLine.exitCode(stopped, outcomes, "SIGINT")).toBe(0)
    expect(CommandLine.exitCode(stopped, outcomes, "SIGTERM")).toBe(0)
  })

  it("the program's code for an interruption, given the signal received first", () => {
    const seen: Array<CommandLine.Signal | undefined> = []
    const cutShort: CommandLine.Outcomes = {
      ...outcomes,
      interrupted: (signal) => {
        seen.push(signal)
        return signal === undefined ? 1 : CommandLine.signalCode(signal)
      }
    }
    expect(CommandLine.exitCode(stopped, cutShort, "SIGINT")).toBe(130)
    expect(CommandLine.exitCode(stopped, cutShort, "SIGTERM")).toBe(143)
    expect(CommandLine.exitCode(stopped, cutShort)).toBe(1)
    // Success and failures are not interruptions.
    expect(CommandLine.exitCode(Exit.void, cutShort, "SIGTERM")).toBe(0)
    expect(CommandLine.exitCode(Exit.fail("odd"), cutShort, "SIGTERM")).toBe(1)
    expect(seen).toEqual(["SIGINT", "SIGTERM", undefined])
  })
})
