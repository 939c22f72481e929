/**
 * The reference server as a program: `tsx packages/server/src/main.ts --help`.
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Logger from "effect/Logger"
import * as CommandLine from "./CommandLine.js"
import * as ReferenceServer from "./ReferenceServer.js"

const command = CommandLine.parse(process.argv.slice(2), process.env)

if (Either.isLeft(command)) {
  console.error(`${command.left}\n\nRun with --help for every flag.`)
  process.exitCode = 2
} else if (command.right._tag === "Help") {
  console.log(CommandLine.help)
} else {
  const options = command.right.options
  const program = ReferenceServer.serveForever(options).pipe(
    // A start failure (port in use, database unreadable) is one line that says what to do, exit 1:
    // no stack trace, which would bury the reason.
    Effect.catchTag("ReferenceServerStartError", (error) =>
      Effect.sync(() => {
        console.error(error.message)
        process.exitCode = 1
      })),
    Effect.provide(Logger.replace(Logger.defaultLogger, ReferenceServer.lineLogger))
  )
  NodeRuntime.runMain(program, { disablePrettyLogger: true })
}
