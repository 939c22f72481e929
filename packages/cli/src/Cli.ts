/**
 * The `broker-history` command tree.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Logger from "effect/Logger"
import * as Demo from "./Demo.js"
import * as Export from "./Export.js"
import * as Serve from "./Serve.js"
import * as Sync from "./Sync.js"

/**
 * The root command with every subcommand.
 *
 * @example
 * import { Cli } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const run = Command.run(Cli.command, { name: "broker-history", version: "0.1.0" })
 */
export const command = Command.make("broker-history").pipe(
  Command.withDescription(
    "Export a broker's sub-account transfer and deposit histories, keep them synced in SQLite or PostgreSQL, " +
      "or run the reference service and the demo. Run a subcommand with --help for its flags. Exit codes: " +
      "0 done (also a closed stdout and SIGINT/SIGTERM), 1 the service, database or output failed, 2 usage, " +
      "3 authentication (credentials missing or refused), 4 network (unreachable after the retries)."
  ),
  Command.withSubcommands([Export.transfersCommand, Export.depositsCommand, Sync.command, Serve.command, Demo.command])
)

/**
 * The arguments with every `--log-level LEVEL` (or `--log-level=LEVEL`) moved before the
 * subcommand: `@effect/cli` reads its built-in options only there, while every subcommand's help
 * lists it, so both places are accepted.
 *
 * @example
 * import { Cli } from "@broker-history/cli"
 * Cli.hoistLogLevel(["node", "broker-history", "deposits", "--log-level", "debug"])
 * // ["node", "broker-history", "--log-level", "debug", "deposits"]
 */
export const hoistLogLevel = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const hoisted: Array<string> = []
  const rest: Array<string> = []
  const args = argv.slice(2)
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") {
      rest.push(...args.slice(i))
      break
    }
    if (args[i].startsWith("--log-level=")) hoisted.push(args[i])
    else if (args[i] === "--log-level" && i + 1 < args.length) hoisted.push(args[i], args[++i])
    else rest.push(args[i])
  }
  return [...argv.slice(0, 2), ...hoisted, ...rest]
}

/**
 * Log lines as logfmt on stderr, whatever the log level: stdout carries the records only.
 *
 * @example
 * import { Cli } from "@broker-history/cli"
 * import { Effect, Logger } from "effect"
 * const quiet = Effect.log("to stderr").pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Cli.stderrLogger)))
 */
export const stderrLogger: Logger.Logger<unknown, void> = Logger.map(Logger.logfmtLogger, (line) => {
  process.stderr.write(line + "\n")
})

const app = Command.run(command, { name: "broker-history", version: "0.1.0", executable: "broker-history" })

/**
 * Runs the command line (`argv` as in `process.argv`).
 *
 * @example
 * import { Cli } from "@broker-history/cli"
 * const program = Cli.run(["node", "broker-history", "--help"])
 */
export const run = (argv: ReadonlyArray<string>) => app(hoistLogLevel(argv))
