/**
 * The `broker-history` command tree.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
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
 * Runs the command line (`argv` as in `process.argv`).
 *
 * @example
 * import { Cli } from "@broker-history/cli"
 * const program = Cli.run(["node", "broker-history", "--help"])
 */
export const run = Command.run(command, { name: "broker-history", version: "0.1.0", executable: "broker-history" })
