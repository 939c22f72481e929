#!/usr/bin/env node
/**
 * The `broker-history` program: runs the command line and exits with the code of the outcome
 * (`ExitCode.codes`). Log lines go to stderr (stdout carries records only), and the command line
 * parser's own errors are written like every other failure: one `broker-history: …` sentence.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Cli from "./Cli.js"
import * as ExitCode from "./ExitCode.js"

// The parser's own errors read like every other failure: `broker-history: …`, one line each.
const program = Cli.run(process.argv).pipe(
  CommandLine.renderUsageErrors((lines) => lines.map((line) => `broker-history: ${line}`).join("\n")),
  Effect.provide(Logger.replace(Logger.defaultLogger, Cli.stderrLogger)),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  disablePrettyLogger: true,
  teardown: (exit, onExit) => {
    if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return onExit(ExitCode.codes.ok)
    const failure = Cause.failureOption(exit.cause)
    if (Option.isSome(failure)) {
      const error = failure.value
      if (error instanceof ExitCode.Failure) return onExit(error.code)
      // @effect/cli has printed the parse error (or the help that was asked for).
      if (ValidationError.isValidationError(error)) {
        return onExit(ValidationError.isHelpRequested(error) ? ExitCode.codes.ok : ExitCode.codes.usage)
      }
    }
    process.stderr.write(`broker-history: ${ExitCode.describe(Cause.squash(exit.cause)).message}\n`)
    onExit(ExitCode.codes.other)
  }
})
