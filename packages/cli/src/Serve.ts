/**
 * `broker-history serve`: the reference service. Its flags are the server program's own
 * (`CommandLine.switches` of @broker-history/server), parsed and checked by `CommandLine.parse`, so
 * both programs accept the same flags and variables with the same defaults.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import * as ExitCode from "./ExitCode.js"
import { verbose } from "./Export.js"

const describeSwitch = (s: (typeof CommandLine.switches)[number]) =>
  `${s.description} (env ${s.env}, default ${s.fallback})`

const switchOptions = Object.fromEntries(CommandLine.switches.map((s) => {
  if (s.kind === "boolean") {
    return [s.flag, Options.boolean(`no-${s.flag}`).pipe(Options.withDescription(describeSwitch(s)))] as const
  }
  if (s.kind === "keys") {
    return [s.flag, Options.text(s.flag).pipe(Options.repeated, Options.withDescription(describeSwitch(s)))] as const
  }
  return [
    s.flag,
    Options.text(s.flag).pipe(Options.optional, Options.withDescription(describeSwitch(s)))
  ] as const
}))

/**
 * The server program's argument list from the flags `serve` parsed, for `CommandLine.parse` of
 * `@broker-history/server`.
 *
 * @example
 * ```ts
 * import { Serve } from "@broker-history/cli"
 * import { CommandLine } from "@broker-history/server"
 * import { Either, Option } from "effect"
 *
 * const args = Serve.argv({ port: Option.some("0"), key: ["k1:s1:SPOT_DEPOSIT_READ"], log: true })
 * assert.deepStrictEqual(args, ["--port", "0", "--key", "k1:s1:SPOT_DEPOSIT_READ", "--no-log"])
 * const command = Either.getOrThrow(CommandLine.parse(args, {}))
 * assert.ok(command._tag === "Run" && command.options.port === 0 && command.options.logRequests === false)
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const argv = (values: Record<string, unknown>): ReadonlyArray<string> =>
  CommandLine.switches.flatMap((s): ReadonlyArray<string> => {
    const value = values[s.flag]
    if (s.kind === "boolean") return value === true ? [`--no-${s.flag}`] : []
    if (s.kind === "keys") return (value as ReadonlyArray<string>).flatMap((k) => [`--${s.flag}`, k])
    return Option.isOption(value) && Option.isSome(value) ? [`--${s.flag}`, String(value.value)] : []
  })

/**
 * `broker-history serve`: the reference service with the server program's own flags and variables,
 * until SIGINT/SIGTERM.
 *
 * @example
 * ```ts
 * import { Serve } from "@broker-history/cli"
 * import { CommandLine } from "@broker-history/server"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Serve.command, CliConfig.defaultConfig))
 * // Every switch of the server program, with its variable:
 * assert.ok(CommandLine.switches.every((s) => help.includes(`--${s.kind === "boolean" ? "no-" : ""}${s.flag}`)))
 * assert.ok(help.includes("(env BROKER_SERVER_FAULT_DROP, default 0)"))
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "serve",
  { switches: Options.all(switchOptions), verbose },
  (flags) =>
    Effect.gen(function*() {
      const parsed = CommandLine.parse(argv(flags.switches as unknown as Record<string, unknown>), process.env)
      if (Either.isLeft(parsed)) return yield* Effect.fail(new ExitCode.UsageError({ message: parsed.left }))
      if (parsed.right._tag === "Help") return
      const options = parsed.right.options
      // The service (and its SQLite driver) is loaded only now: other commands never load it.
      const ReferenceServer = yield* Effect.promise(() => import("@broker-history/server/ReferenceServer"))
      yield* ReferenceServer.serveForever(options).pipe(
        // The service's lines replace every logger in place (the command line's own logfmt one on
        // stderr included): `Logger.replace` of the default logger would print each line twice.
        Effect.locally(FiberRef.currentLoggers, HashSet.make(ReferenceServer.lineLogger))
      )
    }).pipe(
      ExitCode.report(flags.verbose)
    )
).pipe(Command.withDescription(
  "Run the reference service (both history endpoints over SQLite, API keys, rate limit, fault injection) until " +
    "SIGINT/SIGTERM. Signed requests use the public demo key unless --key is given: apiKey mx0vglDEMOKEY0000000000000000000, " +
    "secretKey 45d0b3c26f2644f19bfb98b07741b2f5. That secret is public, so a --host other than loopback " +
    "(127.0.0.1, localhost, ::1) is refused unless --key is given. Flags win over the variables."
))
