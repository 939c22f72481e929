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
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
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

const program = CommandLine.run(command, { name: "broker-history reference server", version: "0.1.0" })(
  process.argv
).pipe(
  CommandLine.renderUsageErrors((lines) => `${lines.join("\n")}\n\nRun with --help for every flag.`),
  Effect.provide(Logger.replace(Logger.defaultLogger, ReferenceServer.lineLogger)),
  Effect.provide(NodeContext.layer)
)

CommandLine.runMain(program, {
  usage: 2,
  known: (error) => {
    if (!(error instanceof ReferenceServer.StartError)) return undefined
    // A start failure (port in use, database unreadable) is one line that says what to do.
    process.stderr.write(`${error.message}\n`)
    return 1
  },
  unexpected: (defect) => {
    process.stderr.write(`unexpected failure: ${defect instanceof Error ? defect.message : String(defect)}\n`)
    return 1
  }
})
