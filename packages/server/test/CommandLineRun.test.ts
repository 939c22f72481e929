// CommandLine.run, in process: the help it writes (plain text off a terminal, usage lines that start
// with the program's name, repeatable options optional, no lines that only name a value's type) and
// the usage error for an option given without its value. The programs themselves are run as child
// processes by the CLI's tests (packages/cli/test/CommandLine.test.ts).
import { Command, Options } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect, Exit } from "effect"
import * as CommandLine from "../src/CommandLine.js"

const ran: Array<string> = []
const tool = Command.make("tool").pipe(Command.withSubcommands([
  Command.make("copy", {
    from: Options.text("from").pipe(Options.withDescription("where to copy from")),
    tag: Options.text("tag").pipe(Options.repeated, Options.withDescription("a tag, repeatable")),
    mode: Options.choice("mode", ["fast", "safe"]).pipe(Options.withDefault("safe" as const)),
    copies: CommandLine.integerSetting("copies", "TOOL_COPIES", { min: 1 }, 1, "how many copies"),
    dry: Options.boolean("dry").pipe(Options.withDescription("only say what would be copied"))
  }, ({ from, tag }) => Effect.sync(() => void ran.push(`copy ${from} ${tag.join(",")}`)))
]))

/** What `tool args…` writes through the console, and how it ends. */
const run = (args: ReadonlyArray<string>) => {
  const written: Array<string> = []
  const capture = (...text: ReadonlyArray<unknown>) => Effect.sync(() => void written.push(text.join(" ")))
  const exit = CommandLine.run(tool, { name: "tool", version: "1.2.3" })(["node", "tool", ...args]).pipe(
    (program) =>
      Effect.consoleWith((current) => Effect.withConsole(program, { ...current, log: capture, error: capture })),
    Effect.provide(NodeContext.layer),
    Effect.exit,
    Effect.runSync
  )
  return { exit, written }
}

const ansi = new RegExp(String.fromCharCode(27) + "\\[")

describe("CommandLine.run", () => {
  it("runs the command as Command.run does", () => {
    ran.length = 0
    const { exit } = run(["copy", "--from", "a", "--tag", "x", "--tag", "y"])
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(ran).toEqual(["copy a x,y"])
  })

  it("--help: plain text (tests write to no terminal), the program's name, repeatable options optional, no filler", () => {
    const { exit, written } = run(["copy", "--help"])
    expect(Exit.isSuccess(exit)).toBe(true)
    const [help] = written
    expect(help).not.toMatch(ansi)
    expect(help.split("\n").slice(0, 4)).toEqual([
      "tool 1.2.3",
      "",
      "USAGE",
      ""
    ])
    expect(help).toContain(
      "\ntool copy --from text [--tag text]... [--mode fast | safe] [--copies INTEGER] [--dry]\n"
    )
    expect(help).not.toMatch(/^\$ /m)
    for (const filler of ["A user-defined piece of text.", "An integer.", "A true or false value."]) {
      expect(help).not.toContain(filler)
    }
    // What the options say of themselves stays.
    expect(help).toContain("where to copy from")
    expect(help).toContain("how many copies (env TOOL_COPIES, default 1)")
    expect(help).toContain("One of the following: fast, safe")
    expect(run(["--help"]).written[0]).toContain("\ntool <command>\n")
  })

  it.each([
    [["copy", "--from"], "--from needs a value (see tool copy --help)"],
    [["copy", "--from="], "--from needs a value (see tool copy --help)"],
    [["copy", "--from", "--dry"], "--from needs a value, but --dry follows it (see tool copy --help)"],
    [["copy", "--from", "a", "--tag"], "--tag needs a value (see tool copy --help)"],
    [
      ["copy", "--from", "a", "--mode", "--tag", "x"],
      "--mode needs a value: fast | safe, but --tag follows it (see tool copy --help)"
    ],
    [["copy", "--from", "a", "--copies"], "--copies needs a value: INTEGER (see tool copy --help)"],
    [
      ["--log-level"],
      "--log-level needs a value: all | trace | debug | info | warning | error | fatal | none (see tool --help)"
    ]
  ])("%j: a usage error naming the option, and nothing runs", (args, message) => {
    ran.length = 0
    const { exit, written } = run(args)
    expect(Exit.isFailure(exit)).toBe(true)
    expect(written).toEqual([message])
    expect(ran).toEqual([])
  })

  it("a value that looks like a flag but is none of the command's options is a value (-5, -)", () => {
    ran.length = 0
    expect(Exit.isSuccess(run(["copy", "--from", "-", "--tag", "-5"]).exit)).toBe(true)
    expect(ran).toEqual(["copy - -5"])
    // After `--` nothing is an option.
    expect(run(["copy", "--from", "a", "--", "--tag"]).written).not.toContain(
      "--tag needs a value (see tool copy --help)"
    )
  })

  it("usage errors of the parser are still its own (an unknown option)", () => {
    const { exit, written } = run(["copy", "--from", "a", "--nope"])
    expect(Exit.isFailure(exit)).toBe(true)
    expect(written.join("\n")).toContain("--nope")
  })
})

describe("CommandLine.colors", () => {
  it("only on a terminal, and not with NO_COLOR set to anything but empty", () => {
    expect(CommandLine.colors(true, {})).toBe(true)
    expect(CommandLine.colors(true, { NO_COLOR: "1" })).toBe(false)
    expect(CommandLine.colors(true, { NO_COLOR: "" })).toBe(true)
    expect(CommandLine.colors(false, {})).toBe(false)
  })
})

describe("renderUsageErrors", () => {
  it("drops ANSI styles from the parser's messages", () => {
    const written: Array<string> = []
    const stderrWrite = process.stderr.write
    process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write
    try {
      Effect.runSync(
        Console.error(`${String.fromCharCode(27)}[31mExpected a port${String.fromCharCode(27)}[0m`).pipe(
          CommandLine.renderUsageErrors((lines) => lines.join("|"))
        )
      )
    } finally {
      process.stderr.write = stderrWrite
    }
    expect(written).toEqual(["Expected a port\n"])
  })
})
