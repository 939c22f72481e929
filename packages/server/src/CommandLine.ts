/**
 * The server program's command line, defined once with `@effect/cli`: every flag with its
 * `BROKER_SERVER_*` environment variable, its default and its check, read into
 * `ReferenceServer.Options`. The server program (`main.ts`) and `broker-history serve` both run
 * `options`, so they accept the same flags and variables with the same defaults, rules and
 * messages, and their `--help` lists them from the same descriptions.
 *
 * It also holds what both programs need to run a command line built with `@effect/cli` the same way:
 * `run` (plain `--help`, a missing value named before anything runs), `renderUsageErrors`, and
 * `runMain` with `exitCode`: how a program ends, with the exit code of its outcome and one line on
 * stderr for a failure instead of Effect's own report (no stack trace, which would bury the reason).
 *
 * This module stays light (it loads neither the service nor SQLite): the CLI imports it to build
 * `serve` and loads the service only when `serve` runs.
 *
 * @since 0.1.0
 */
import * as BuiltInOptions from "@effect/cli/BuiltInOptions"
import type * as CliApp from "@effect/cli/CliApp"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import * as Options from "@effect/cli/Options"
import * as Usage from "@effect/cli/Usage"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Doc from "@effect/printer/Doc"
import * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import * as Net from "node:net"
import * as Tty from "node:tty"
import * as ApiKeys from "./ApiKeys.js"
import * as ServerSettings from "./internal/settings/ServerSettings.js"
import * as Setting from "./internal/settings/Setting.js"
import type * as ReferenceServer from "./ReferenceServer.js"

/**
 * True when `host` is this machine's loopback only: `localhost`, `127.0.0.0/8`, `::1` (or an
 * IPv4-mapped `127.x`); anything else, `0.0.0.0` and `::` included, may be reachable from elsewhere.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.isLoopback("127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("[::1]"), true)
 * assert.strictEqual(CommandLine.isLoopback("::ffff:127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("0.0.0.0"), false)
 * assert.strictEqual(CommandLine.isLoopback("::"), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isLoopback = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (bare.toLowerCase() === "localhost") return true
  if (Net.isIPv4(bare)) return bare.startsWith("127.")
  if (!Net.isIPv6(bare)) return false
  // The URL parser writes an IPv6 address in its one canonical form.
  const canonical = new URL(`http://[${bare}]/`).hostname
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical)
}

/**
 * The server program's options: every flag with its `BROKER_SERVER_*` variable (read when the flag is
 * absent; empty counts as absent) and its default, checked (ports, integers, probabilities from 0 to
 * 1, keys `apiKey:secretKey:PERMS`), read into `ReferenceServer.Options`. A `--host` other than
 * loopback is refused unless a key is given (`--key` or `BROKER_SERVER_KEYS`): without one, the
 * service would accept the demo key, whose secret is published. A `--settle-failed-share` without
 * `--settle-pending-after-ms` is refused too: without a delay nothing settles. A problem is a usage
 * error that names the flag or the variable given and says what the value must be; a key's text is
 * never repeated.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { CliConfig, HelpDoc, Options } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { ConfigProvider, Effect, Either } from "effect"
 *
 * // The options as `Command.run` reads them: flags, then the variables of the configuration provider.
 * const read = (args: ReadonlyArray<string>, env: Record<string, string>) =>
 *   Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
 *     Effect.map(([, , options]) => options),
 *     Effect.mapError((error) => HelpDoc.toAnsiText(error.error).trim()),
 *     Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
 *     Effect.provide(NodeContext.layer),
 *     Effect.either,
 *     Effect.runSync
 *   )
 *
 * const options = Either.getOrThrow(
 *   read(["--port", "0", "--fault-drop", "0.1"], { BROKER_SERVER_PORT: "9000", BROKER_SERVER_SEED: "7" })
 * )
 * assert.strictEqual(options.port, 0) // the flag wins over BROKER_SERVER_PORT
 * assert.strictEqual(options.seed?.seed, 7) // the variable stands in for --seed
 * assert.strictEqual(options.faults?.drop, 0.1)
 * assert.strictEqual(options.logRequests, true)
 *
 * assert.deepStrictEqual(read(["--port", "99999"], {}), Either.left("--port must be at most 65535, got 99999"))
 * assert.deepStrictEqual(
 *   read([], { BROKER_SERVER_FAULT_HANG: "2" }),
 *   Either.left(`BROKER_SERVER_FAULT_HANG must be a probability from 0 to 1, got "2"`)
 * )
 * // Off loopback, the published demo key is refused: a key must be chosen.
 * assert.ok(Either.isLeft(read(["--host", "0.0.0.0"], {})))
 * assert.ok(Either.isRight(read(["--host", "0.0.0.0", "--key", "k1:s1:SPOT_DEPOSIT_READ"], {})))
 * ```
 *
 * @since 0.1.0
 * @category options
 */
export const options: Options.Options<ReferenceServer.Options> = ServerSettings.settings.pipe(
  Options.mapEffect((s) => {
    if (Option.isNone(s.keys) && !isLoopback(s.host.value)) {
      return Effect.fail(Setting.usage(ServerSettings.demoKeyOffLoopback(s.host.from, s.host.value)))
    }
    const settlement = ServerSettings.settlementProblem(s)
    return settlement === undefined
      ? Effect.succeed(ServerSettings.toServerOptions(s))
      : Effect.fail(Setting.usage(settlement))
  })
)

/**
 * What the server program does, for its `--help` (and that of `broker-history serve`): the service,
 * the demo key it accepts unless `--key` is given, and why a `--host` off loopback needs a key.
 *
 * @example
 * ```ts
 * import { ApiKeys, CommandLine } from "@broker-history/server"
 *
 * assert.ok(CommandLine.description.includes(`apiKey ${ApiKeys.demo.apiKey}`))
 * assert.ok(CommandLine.description.includes("BROKER_SERVER_"))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const description: string =
  "The reference service: both history endpoints over SQLite, with API keys, a rate limit and fault " +
  "injection, until SIGINT/SIGTERM. Signed requests use the public demo key unless --key is given: " +
  `apiKey ${ApiKeys.demo.apiKey}, secretKey ${ApiKeys.demo.secretKey}. That secret is published, so a ` +
  "--host other than loopback (127.0.0.1, localhost, ::1) is refused unless a key is given (--key or " +
  "BROKER_SERVER_KEYS). Every flag has a BROKER_SERVER_* variable, read when the flag is absent."

/**
 * An integer setting of a command line as the server's own are read: the flag `--<flag>`, else the
 * variable (read when the flag is absent; empty counts as absent), else `fallback`; a value that is
 * not an integer from `min` to `max` is a usage error naming the flag or the variable given. Its
 * help says what it is, its variable and its default.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { CliConfig, HelpDoc, Options } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { ConfigProvider, Effect, Either } from "effect"
 *
 * const streams = CommandLine.integerSetting("streams", "APP_STREAMS", { min: 1, max: 16 }, 4, "streams at once")
 * const read = (args: ReadonlyArray<string>, env: Record<string, string>) =>
 *   Options.processCommandLine(streams, args, CliConfig.defaultConfig).pipe(
 *     Effect.map(([, , value]) => value),
 *     Effect.mapError((error) => HelpDoc.toAnsiText(error.error).trim()),
 *     Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
 *     Effect.provide(NodeContext.layer),
 *     Effect.either,
 *     Effect.runSync
 *   )
 * assert.deepStrictEqual(read([], {}), Either.right(4))
 * assert.deepStrictEqual(read(["--streams", "8"], { APP_STREAMS: "2" }), Either.right(8))
 * assert.deepStrictEqual(read([], { APP_STREAMS: "0" }), Either.left(`APP_STREAMS must be an integer >= 1, got "0"`))
 * assert.deepStrictEqual(read(["--streams", "1.5"], {}), Either.left(`--streams must be an integer >= 1, got "1.5"`))
 * ```
 *
 * @since 0.2.0
 * @category options
 */
export const integerSetting = (
  flag: string,
  variable: string,
  bounds: { readonly min: number; readonly max?: number },
  fallback: number,
  meaning: string
): Options.Options<number> => Setting.integerSetting(flag, variable, bounds, fallback, meaning)

/**
 * Whether text for a terminal may carry ANSI colours: only when it goes to a terminal, and not
 * when `NO_COLOR` is set to anything but the empty text (https://no-color.org).
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.colors(true, {}), true)
 * assert.strictEqual(CommandLine.colors(true, { NO_COLOR: "1" }), false)
 * assert.strictEqual(CommandLine.colors(true, { NO_COLOR: "" }), true)
 * assert.strictEqual(CommandLine.colors(false, {}), false) // a pipe or a file
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const colors = (isTerminal: boolean, env: Readonly<Record<string, string | undefined>>): boolean =>
  isTerminal && (env.NO_COLOR ?? "") === ""

/** A span's text, without its styles. */
const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    default:
      return spanText(span.value)
  }
}

/** What `@effect/cli` says of a value it knows nothing about; our own descriptions say more. */
const fillers = new Set([
  "A user-defined piece of text.",
  "An integer.",
  "A floating point number.",
  "A true or false value."
])

const withoutFillers = (doc: HelpDoc.HelpDoc): HelpDoc.HelpDoc => {
  switch (doc._tag) {
    case "Paragraph":
      return fillers.has(spanText(doc.value).trim()) ? HelpDoc.empty : doc
    case "Sequence":
      return HelpDoc.sequence(withoutFillers(doc.left), withoutFillers(doc.right))
    case "DescriptionList":
      return HelpDoc.descriptionList(
        Arr.map(doc.definitions, ([term, description]) => [term, withoutFillers(description)])
      )
    case "Enumeration":
      return HelpDoc.enumeration(Arr.map(doc.elements, withoutFillers))
    default:
      return doc
  }
}

/** A repeatable option may be given zero times: `[--flag value]...` rather than `--flag value...`. */
const optionalRepeats = (usage: Usage.Usage): Usage.Usage => {
  switch (usage._tag) {
    case "Repeated":
      return Usage.repeated(Usage.optional(optionalRepeats(usage.usage)))
    case "Optional": {
      const inner = optionalRepeats(usage.usage)
      return inner._tag === "Repeated" ? inner : Usage.optional(inner)
    }
    case "Concat":
      return Usage.concat(optionalRepeats(usage.left), optionalRepeats(usage.right))
    case "Alternation":
      return Usage.alternation(optionalRepeats(usage.left), optionalRepeats(usage.right))
    default:
      return usage
  }
}

/** Who is running: the program's name as typed (`broker-history`), its root command's, its version. */
interface Program {
  readonly program: string
  readonly root: string
  readonly version: string
  readonly subcommands: boolean
}

/** The usage lines, each starting with the program's name (`broker-history transfers …`). */
const usageLines = (program: Program, usage: Usage.Usage, config: CliConfig.CliConfig): Array<string> =>
  Usage.enumerate(optionalRepeats(usage), config).map((span) => {
    const words = spanText(span).trim().split(" ")
    const line = (words[0] === program.root ? [program.program, ...words.slice(1)] : [program.program, ...words])
      .join(" ")
    return line === program.program && program.subcommands ? `${line} <command>` : line
  })

/**
 * The text of `--help`: the program and its version, the usage lines, then what `@effect/cli`
 * documents of the command without the lines that only name a value's type; ANSI styles only when
 * `colored`.
 */
const helpText = (
  program: Program,
  usage: Usage.Usage,
  help: HelpDoc.HelpDoc,
  config: CliConfig.CliConfig,
  colored: boolean
): string => {
  const doc = HelpDoc.blocks([
    HelpDoc.p(`${program.program} ${program.version}`),
    HelpDoc.h1("USAGE"),
    ...usageLines(program, usage, config).map((line) => HelpDoc.p(line)),
    withoutFillers(help)
  ])
  return colored ? HelpDoc.toAnsiText(doc) : Doc.render(Doc.unAnnotate(HelpDoc.toAnsiDoc(doc)), { style: "pretty" })
}

/** The options of a command, and of the built-in ones, by name: `Some(what its value is)` when it takes one. */
const optionTable = (
  command: Descriptor.Command<unknown>,
  config: CliConfig.CliConfig
): ReadonlyMap<string, Option.Option<string>> => {
  const table = new Map<string, Option.Option<string>>()
  const walk = (usage: Usage.Usage): void => {
    switch (usage._tag) {
      case "Named":
        for (const name of usage.names) {
          if (name.startsWith("-")) table.set(CliConfig.normalizeCase(config, name), usage.acceptedValues)
        }
        return
      case "Optional":
      case "Repeated":
        return walk(usage.usage)
      case "Concat":
      case "Alternation":
        walk(usage.left)
        return walk(usage.right)
      default:
        return
    }
  }
  walk(Descriptor.getUsage(command))
  walk(Options.getUsage(BuiltInOptions.builtInOptions(command, Usage.empty, HelpDoc.empty)))
  return table
}

/** `--name` of `--name` or `--name=value`, in the parser's letter case. */
const optionName = (arg: string, config: CliConfig.CliConfig): string =>
  CliConfig.normalizeCase(config, /^(-[^=]*)=/.exec(arg)?.[1] ?? arg)

/**
 * The message for the first option of `args` that takes a value but was given none: the last
 * argument, `--name=` with nothing after the `=`, or followed by another of the command's options
 * (which `@effect/cli` would take as its value, or report as an unknown argument).
 */
const missingValue = (
  root: Descriptor.Command<unknown>,
  program: string,
  args: ReadonlyArray<string>,
  config: CliConfig.CliConfig
): string | undefined => {
  let command = root
  let path = program
  let table = optionTable(command, config)
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === "--") return undefined
    const subcommand = HashMap.get(Descriptor.getSubcommands(command), arg)
    if (Option.isSome(subcommand) && !arg.startsWith("-")) {
      command = subcommand.value
      path = `${path} ${arg}`
      table = optionTable(command, config)
      continue
    }
    const name = optionName(arg, config)
    const accepted = table.get(name)
    if (accepted === undefined || Option.isNone(accepted)) continue
    const inline = arg.indexOf("=")
    const next = args[i + 1]
    const followedBy = inline >= 0
      ? undefined
      : next === undefined
      ? ""
      : next === "--" || table.has(optionName(next, config))
      ? optionName(next, config)
      : undefined
    if ((inline >= 0 && arg.length === inline + 1) || followedBy !== undefined) {
      const values = accepted.value === "text" ? "" : `: ${accepted.value}`
      const after = followedBy ? `, but ${followedBy} follows it` : ""
      return `${arg.slice(0, inline >= 0 ? inline : arg.length)} needs a value${values}${after} (see ${path} --help)`
    }
    if (inline < 0) i++
  }
  return undefined
}

/** The arguments without `--log-level LEVEL` / `--log-level=LEVEL`, as `@effect/cli` reads them again. */
const withoutLogLevel = (args: ReadonlyArray<string>): Array<string> =>
  args.filter((arg, i) => !arg.startsWith("--log-level") && args[i - 1] !== "--log-level")

/** A usage error of one sentence: written as the parser writes its own, then failed with. */
const refuse = (message: string) =>
  Effect.zipRight(Console.error(message), Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))))

/**
 * Runs `command` on `argv` (as in `process.argv`) as `Command.run` does, with these differences,
 * which both the server program and `broker-history` need:
 *
 * - `--help` is plain text unless stdout is a terminal and `NO_COLOR` is not set; its usage lines
 *   start with the program's name (`executable`, else the root command's), a repeatable option is
 *   written as optional, and the lines that only name a value's type ("A user-defined piece of
 *   text.") are left out.
 * - An option that takes a value but has none (the last argument, `--name=`, or followed by another
 *   option) is a usage error that names it, before anything runs.
 * - `--wizard` without a terminal on stdin is a usage error instead of a wait for answers that
 *   never come.
 *
 * Usage errors are written through `Console.error` and fail with a `ValidationError`, as those of
 * `@effect/cli`.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Command, Options } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { Console, Effect } from "effect"
 *
 * const greet = Command.make("greet", { name: Options.text("name") }, ({ name }) => Console.log(`hello ${name}`))
 * // What the program writes, through the console, for the arguments after `node greet`:
 * const written = (args: ReadonlyArray<string>) => {
 *   const lines: Array<string> = []
 *   const capture = (...text: ReadonlyArray<unknown>) => Effect.sync(() => void lines.push(text.join(" ")))
 *   CommandLine.run(greet, { name: "greet", version: "1.0.0" })(["node", "greet", ...args]).pipe(
 *     (program) => Effect.consoleWith((current) => Effect.withConsole(program, { ...current, log: capture, error: capture })),
 *     Effect.provide(NodeContext.layer),
 *     Effect.exit,
 *     Effect.runSync
 *   )
 *   return lines
 * }
 * assert.deepStrictEqual(written(["--name", "Ada"]), ["hello Ada"])
 * const [help] = written(["--help"])
 * assert.ok(help.includes("\ngreet --name text\n"))
 * assert.ok(!help.includes("A user-defined piece of text."))
 * assert.deepStrictEqual(written(["--name"]), ["--name needs a value (see greet --help)"])
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const run = <Name extends string, R, E, A>(
  command: Command.Command<Name, R, E, A>,
  config: Omit<CliApp.CliApp.ConstructorArgs<never>, "command">
) =>
(
  argv: ReadonlyArray<string>
): Effect.Effect<void, E | ValidationError.ValidationError, R | CliApp.CliApp.Environment> =>
  Effect.gen(function*() {
    const cli = Option.getOrElse(yield* Effect.serviceOption(CliConfig.CliConfig), () => CliConfig.defaultConfig)
    const root = Arr.fromIterable(HashSet.values(Descriptor.getNames(command.descriptor)))[0] ?? config.name
    const program: Program = {
      program: config.executable ?? root,
      root,
      version: config.version,
      subcommands: HashMap.size(Descriptor.getSubcommands(command.descriptor)) > 0
    }
    const args = argv.slice(2)
    const missing = missingValue(command.descriptor, program.program, args, cli)
    if (missing !== undefined) return yield* refuse(missing)
    const end = args.indexOf("--")
    const given = (end < 0 ? args : args.slice(0, end)).map((arg) => CliConfig.normalizeCase(cli, arg))
    if (given.includes("--wizard") && !Tty.isatty(0)) {
      return yield* refuse(
        "--wizard asks its questions on a terminal, and stdin is not one: give the flags on the command line " +
          "instead (see --help)"
      )
    }
    if (given.includes("--help") || given.includes("-h")) {
      const directive = yield* Effect.option(
        Descriptor.parse(command.descriptor, [root, ...withoutLogLevel(args)], cli)
      )
      if (
        Option.isSome(directive) && directive.value._tag === "BuiltIn" &&
        BuiltInOptions.isShowHelp(directive.value.option)
      ) {
        const { helpDoc, usage } = directive.value.option
        return yield* Console.log(helpText(program, usage, helpDoc, cli, colors(Tty.isatty(1), process.env)))
      }
    }
    return yield* Command.run(command, config)(argv)
  })

const ansiStyle = new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g")

/**
 * Runs `self` with the command line parser's own messages (`@effect/cli` writes a usage error
 * through `Console.error`) rendered by `render`, one call per message, its blank lines and ANSI
 * styles dropped: how `main.ts` and `broker-history` word their usage errors.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Console, Effect } from "effect"
 *
 * const written: Array<string> = []
 * const stderrWrite = process.stderr.write
 * process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write
 * try {
 *   Effect.runSync(Console.error("Expected a port\n\nagain").pipe(CommandLine.renderUsageErrors((lines) => lines.join("|"))))
 * } finally {
 *   process.stderr.write = stderrWrite
 * }
 * assert.deepStrictEqual(written, ["Expected a port|again\n"])
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const renderUsageErrors =
  (render: (lines: ReadonlyArray<string>) => string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.consoleWith((current) =>
      Effect.withConsole(self, {
        ...current,
        error: (...args: ReadonlyArray<unknown>) =>
          Effect.sync(() => {
            const lines = args.map(String).join(" ").replace(ansiStyle, "").split("\n").filter((line) =>
              line.trim() !== ""
            )
            process.stderr.write(render(lines) + "\n")
          })
      })
    )

/**
 * A signal that stops a program: `runMain` interrupts it on either (Ctrl-C is SIGINT; `kill`,
 * systemd and `docker stop` send SIGTERM).
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * const signals: ReadonlyArray<CommandLine.Signal> = ["SIGINT", "SIGTERM"]
 * assert.deepStrictEqual(signals.map(CommandLine.signalCode), [130, 143])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Signal = "SIGINT" | "SIGTERM"

/**
 * The exit code of a program that a signal cut short, by the shell's convention: 128 + the signal's
 * number (130 for SIGINT, 143 for SIGTERM).
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.signalCode("SIGINT"), 130)
 * assert.strictEqual(CommandLine.signalCode("SIGTERM"), 143)
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const signalCode = (signal: Signal): number => signal === "SIGINT" ? 130 : 143

/**
 * What a program's failures mean. Success and `--help` end with 0.
 *
 * - `usage`: the exit code of a usage error, which `@effect/cli` has already written.
 * - `known`: for a failure the program knows, writes what to say and gives its exit code;
 *   `undefined` for any other failure.
 * - `unexpected`: writes any other failure or defect (the cause, squashed) and gives its exit code.
 * - `interrupted` (optional): the exit code of an interruption, given the signal that caused it
 *   (`undefined`: no signal was received). Without it an interruption ends with 0: the clean stop
 *   of a program that runs until stopped (a server).
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * const outcomes: CommandLine.Outcomes = {
 *   usage: 2,
 *   known: (error) => (error === "port in use" ? 3 : undefined),
 *   unexpected: () => 1
 * }
 * assert.strictEqual(outcomes.known("port in use"), 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Outcomes {
  readonly usage: number
  readonly known: (error: unknown) => number | undefined
  readonly unexpected: (defect: unknown) => number
  readonly interrupted?: ((signal: Signal | undefined) => number) | undefined
}

/**
 * The exit code of a program's end, by `outcomes`; `signal` is the signal the program received, if any.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Exit, FiberId } from "effect"
 *
 * const outcomes: CommandLine.Outcomes = {
 *   usage: 2,
 *   known: (error) => (error === "port in use" ? 3 : undefined),
 *   unexpected: () => 1
 * }
 * assert.strictEqual(CommandLine.exitCode(Exit.void, outcomes), 0)
 * assert.strictEqual(CommandLine.exitCode(Exit.fail("port in use"), outcomes), 3)
 * assert.strictEqual(CommandLine.exitCode(Exit.die(new Error("bug")), outcomes), 1)
 * // Interrupted: 0 unless the program says otherwise.
 * const stopped = Exit.interrupt(FiberId.none)
 * assert.strictEqual(CommandLine.exitCode(stopped, outcomes, "SIGTERM"), 0)
 * const cutShort = { ...outcomes, interrupted: (signal?: CommandLine.Signal) => signal === undefined ? 1 : CommandLine.signalCode(signal) }
 * assert.strictEqual(CommandLine.exitCode(stopped, cutShort, "SIGTERM"), 143)
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const exitCode = (exit: Exit.Exit<unknown, unknown>, outcomes: Outcomes, signal?: Signal): number => {
  if (Exit.isSuccess(exit)) return 0
  if (Cause.isInterruptedOnly(exit.cause)) return outcomes.interrupted?.(signal) ?? 0
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    // @effect/cli has written the usage error (or the help that was asked for).
    if (ValidationError.isValidationError(error)) return ValidationError.isHelpRequested(error) ? 0 : outcomes.usage
    const code = outcomes.known(error)
    if (code !== undefined) return code
  }
  return outcomes.unexpected(Cause.squash(exit.cause))
}

/**
 * Runs a program on Node (`NodeRuntime.runMain`, which also interrupts it on SIGINT/SIGTERM) and
 * exits with `exitCode` (knowing which signal came first), without Effect's own failure report and
 * pretty logger. A second signal, after the first, ends the process at once as Node does by default.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Console } from "effect"
 *
 * // In a program's main module:
 * const main = () =>
 *   CommandLine.runMain(Console.log("done"), {
 *     usage: 2,
 *     known: () => undefined,
 *     unexpected: (defect) => {
 *       process.stderr.write(`unexpected failure: ${String(defect)}\n`)
 *       return 1
 *     }
 *   })
 * assert.strictEqual(typeof main, "function")
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const runMain = <A, E>(program: Effect.Effect<A, E>, outcomes: Outcomes): void => {
  const received = firstSignal()
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => {
      received.stop()
      onExit(exitCode(exit, outcomes, received.signal()))
    }
  })
}

/**
 * Records the first SIGINT or SIGTERM. Registered before `NodeRuntime.runMain`'s own listeners, so it
 * runs first; both are removed at the first signal (a second one then ends the process) or by `stop`.
 */
const firstSignal = () => {
  let received: Signal | undefined
  const stop = () => {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }
  const onSignal = (signal: NodeJS.Signals) => {
    received = signal === "SIGINT" ? "SIGINT" : "SIGTERM"
    stop()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  return { signal: () => received, stop }
}
