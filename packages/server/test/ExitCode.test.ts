import { CommandLine } from "@broker-history/server"
import { CommandDescriptor, HelpDoc, ValidationError } from "@effect/cli"
import { describe, expect, it } from "@effect/vitest"
import { Exit, FiberId } from "effect"

class Known {
  constructor(readonly code: number) {}
}

const outcomes = (written: Array<string>): CommandLine.Outcomes => ({
  usage: 2,
  known: (error) => {
    if (!(error instanceof Known)) return undefined
    written.push("known")
    return error.code
  },
  unexpected: (defect) => {
    written.push(`unexpected: ${defect instanceof Error ? defect.message : String(defect)}`)
    return 1
  }
})

describe("CommandLine.exitCode", () => {
  it("ends with 0 after success, an interruption or --help", () => {
    const written: Array<string> = []
    expect(CommandLine.exitCode(Exit.succeed(1), outcomes(written))).toBe(0)
    expect(CommandLine.exitCode(Exit.interrupt(FiberId.none), outcomes(written))).toBe(0)
    const help = ValidationError.helpRequested(CommandDescriptor.make("program"))
    expect(CommandLine.exitCode(Exit.fail(help), outcomes(written))).toBe(0)
    expect(written).toEqual([])
  })

  it("gives the usage code for a usage error, the program's code for a failure it knows", () => {
    const written: Array<string> = []
    const usage = ValidationError.invalidValue(HelpDoc.p("Expected a port"))
    expect(CommandLine.exitCode(Exit.fail(usage), outcomes(written))).toBe(2)
    expect(CommandLine.exitCode(Exit.fail(new Known(3)), outcomes(written))).toBe(3)
    expect(written).toEqual(["known"])
  })

  it("writes any other failure or defect once, squashed, with its code", () => {
    const written: Array<string> = []
    expect(CommandLine.exitCode(Exit.fail("odd"), outcomes(written))).toBe(1)
    expect(CommandLine.exitCode(Exit.die(new Error("bug")), outcomes(written))).toBe(1)
    expect(written).toEqual(["unexpected: odd", "unexpected: bug"])
  })
})
