/**
 * `broker-history serve`: the reference service. Its options are the server program's own
 * (`CommandLine.options` of @broker-history/server, one `@effect/cli` definition), so both programs
 * accept the same flags and variables, with the same defaults, checks and messages.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as ExitCode from "./ExitCode.js"
import { verbose } from "./Export.js"

/**
 * `broker-history serve`: the reference service with the server program's own options
 * (`CommandLine.options`: flags, `BROKER_SERVER_*` variables, defaults and checks), until
 * SIGINT/SIGTERM. A bad value is a usage error (exit 2) with the server's own message; a start failure
 * (port in use, database unreadable) is one sentence, exit 1.
 *
 * @example
 * ```ts
 * import { Serve } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Serve.command, CliConfig.defaultConfig))
 * // The server program's flags, each with its variable and default:
 * for (const flag of ["--port", "--key", "--fault-drop", "--no-log", "--log"]) assert.ok(help.includes(flag), flag)
 * assert.ok(help.includes("(env BROKER_SERVER_FAULT_DROP, default 0)"))
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "serve",
  { server: CommandLine.options, verbose },
  (flags) =>
    Effect.gen(function*() {
      // The service (and its SQLite driver) is loaded only now: other commands never load it.
      const ReferenceServer = yield* Effect.promise(() => import("@broker-history/server/ReferenceServer"))
      yield* ReferenceServer.serveForever(flags.server).pipe(
        // The service's lines replace every logger in place (the command line's own logfmt one on
        // stderr included): `Logger.replace` of the default logger would print each line twice.
        Effect.locally(FiberRef.currentLoggers, HashSet.make(ReferenceServer.lineLogger))
      )
    }).pipe(
      ExitCode.report(flags.verbose)
    )
).pipe(Command.withDescription(CommandLine.description))
