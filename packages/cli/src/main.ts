#!/usr/bin/env node
/**
 * The `broker-history` program: runs the command line and exits with the code of the outcome
 * (`ExitCode.codes`; 130/143 when SIGINT/SIGTERM cut the work short, `ExitCode.interruptedCode`). Log
 * lines go to stderr (stdout carries records only), and the command line parser's own errors are
 * written like every other failure: one `broker-history: …` sentence.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Cli from "./Cli.js"
import * as ExitCode from "./internal/shared/ExitCode.js"

// The parser's own errors read like every other failure: `broker-history: …`, one line each.
const program = Cli.run(process.argv).pipe(
  CommandLine.renderUsageErrors((lines) => lines.map((line) => `broker-history: ${line}`).join("\n")),
  Effect.provide(Logger.replace(Logger.defaultLogger, Cli.stderrLogger)),
  Effect.provide(NodeContext.layer)
)

CommandLine.runMain(program, {
  usage: ExitCode.codes.usage,
  known: (error) => error instanceof ExitCode.Failure ? error.code : undefined,
  unexpected: (defect) => {
    process.stderr.write(`broker-history: ${ExitCode.describe(defect).message}\n`)
    return ExitCode.codes.other
  },
  // 130/143 if a command said a signal cut its work short (an export), 0 for a clean stop (sync --follow, serve).
  interrupted: ExitCode.interruptedCode
})
