/**
 * The reference server as a program: `tsx packages/server/src/main.ts --help`. Its command line is
 * `CommandLine.options`, run by `@effect/cli`. It logs on stderr (`ReferenceServer.lineLogger`) and
 * ends with exit code 0 when stopped (SIGINT/SIGTERM) or after `--help`, 2 on a usage error (a bad
 * flag or variable, written on stderr with a pointer to `--help`), and 1 when the service cannot
 * start (port in use, database unreadable): one line that says what to do, no stack trace.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as CommandLine from "./CommandLine.js"
import * as ReferenceServer from "./ReferenceServer.js"

const command = Command.make(
  "broker-history-server",
  { options: CommandLine.options },
  ({ options }) => ReferenceServer.serveForever(options)
).pipe(Command.withDescription(
  `${CommandLine.description} Run: tsx packages/server/src/main.ts [flags] ` +
    "(or: pnpm --filter @broker-history/server start -- [flags])."
))

const program = Command.run(command, { name: "broker-history reference server", version: "0.1.0" })(
  process.argv
).pipe(
  CommandLine.renderUsageErrors((lines) => `${lines.join("\n")}\n\nRun with --help for every flag.`),
  Effect.provide(Logger.replace(Logger.defaultLogger, ReferenceServer.lineLogger)),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  disablePrettyLogger: true,
  teardown: (exit, onExit) => {
    if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return onExit(0)
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      // @effect/cli has written the usage error (or the help that was asked for).
      if (ValidationError.isValidationError(error)) return onExit(ValidationError.isHelpRequested(error) ? 0 : 2)
      // A start failure (port in use, database unreadable) is one line that says what to do: no stack
      // trace, which would bury the reason.
      if (error instanceof ReferenceServer.StartError) {
        process.stderr.write(`${error.message}\n`)
        return onExit(1)
      }
    }
    const unexpected = Cause.squash(exit.cause)
    process.stderr.write(
      `unexpected failure: ${unexpected instanceof Error ? unexpected.message : String(unexpected)}\n`
    )
    onExit(1)
  }
})
