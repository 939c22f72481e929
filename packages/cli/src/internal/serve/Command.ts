/**
 * `broker-history serve`: the reference service. Its options are the server program's own
 * (`CommandLine.options` of @broker-history/server, one `@effect/cli` definition), so both programs
 * accept the same flags and variables, with the same defaults, checks and messages.
 *
 * @internal
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as HashSet from "effect/HashSet"
import * as ExitCode from "../shared/ExitCode.js"
import { verbose } from "../shared/Flags.js"

/**
 * `broker-history serve`: the reference service with the server program's own options
 * (`CommandLine.options`: flags, `BROKER_SERVER_*` variables, defaults and checks), until
 * SIGINT/SIGTERM. A bad value is a usage error (exit 2) with the server's own message; a start failure
 * (port in use, database unreadable) is one sentence, exit 1.
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
