/**
 * The `broker-history` command: its command tree, and the command line run in-process, as the
 * `broker-history` program runs it.
 *
 * @since 0.1.0
 */
import * as CommandLine from "@broker-history/server/CommandLine"
import * as Command from "@effect/cli/Command"
import * as Logger from "effect/Logger"
import * as Demo from "./internal/demo/Command.js"
import * as Export from "./internal/export/Command.js"
import * as Serve from "./internal/serve/Command.js"
import type * as ExitCode from "./internal/shared/ExitCode.js"
import * as Sync from "./internal/sync/Command.js"

/**
 * The root `broker-history` command with every subcommand: `transfers`, `deposits`, `sync`, `serve`
 * and `demo`.
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Cli.command, CliConfig.defaultConfig))
 * for (const subcommand of ["transfers", "deposits", "sync", "serve", "demo"]) {
 *   assert.ok(help.includes(`  - ${subcommand} `), subcommand)
 * }
 * assert.ok(help.includes("Exit codes: 0 done"))
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("broker-history").pipe(
  Command.withDescription(
    "Export a broker's sub-account transfer and deposit histories, keep them synced in SQLite or PostgreSQL, " +
      "or run the reference service and the demo. Run a subcommand with --help for its flags. Exit codes: " +
      "0 done (also a closed stdout, and sync --follow or serve stopped by SIGINT/SIGTERM), 1 the service, " +
      "database or output failed, 2 usage, 3 authentication (credentials missing or refused), 4 network " +
      "(unreachable after the retries), 5 the history is incomplete (the service did not serve every record of a " +
      "crowded millisecond; with --on-incomplete warn: finished without them), 130/143 interrupted by " +
      "SIGINT/SIGTERM before the work was done (an export: its output is incomplete, --out FILE left as it was; " +
      "sync without --follow; demo)."
  ),
  Command.withSubcommands([Export.transfersCommand, Export.depositsCommand, Sync.command, Serve.command, Demo.command])
)

/**
 * The arguments with every `--log-level LEVEL` (or `--log-level=LEVEL`) moved before the subcommand,
 * where `@effect/cli` reads its built-in options, so that it is accepted in both places.
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 *
 * assert.deepStrictEqual(
 *   Cli.hoistLogLevel(["node", "broker-history", "deposits", "--coin", "USDT", "--log-level", "debug"]),
 *   ["node", "broker-history", "--log-level", "debug", "deposits", "--coin", "USDT"]
 * )
 * // After `--` everything stays where it is.
 * assert.deepStrictEqual(
 *   Cli.hoistLogLevel(["node", "broker-history", "deposits", "--", "--log-level=debug"]),
 *   ["node", "broker-history", "deposits", "--", "--log-level=debug"]
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
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
 * The command line's logger: logfmt lines on stderr whatever the log level, so that stdout carries
 * the records only.
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 * import { Effect, Logger } from "effect"
 *
 * const written: Array<string> = []
 * const stderrWrite = process.stderr.write
 * process.stderr.write = ((line: string) => written.push(line) > 0) as typeof process.stderr.write
 * try {
 *   Effect.runSync(Effect.logWarning("retrying").pipe(Effect.provide(Logger.replace(Logger.defaultLogger, Cli.stderrLogger))))
 * } finally {
 *   process.stderr.write = stderrWrite
 * }
 * assert.match(written[0], /^timestamp=\S+ level=WARN fiber=#\d+ message=retrying\n$/)
 * ```
 *
 * @since 0.1.0
 * @category logging
 */
export const stderrLogger: Logger.Logger<unknown, void> = Logger.map(Logger.logfmtLogger, (line) => {
  process.stderr.write(line + "\n")
})

/**
 * How a command run by `run` fails once it has reported why on stderr: `code` is the exit code the
 * `broker-history` program gives it (2 usage, 3 authentication, 4 network, 5 incomplete, 1 anything
 * else).
 *
 * @example
 * ```ts
 * import type { Cli } from "@broker-history/cli"
 *
 * const exitCodeOf = (failure: Cli.CommandFailure): number => failure.code
 * const failure = { _tag: "CommandFailure", code: 3 } as Cli.CommandFailure
 * assert.strictEqual(exitCodeOf(failure), 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type CommandFailure = ExitCode.Failure

// `@effect/cli`'s runner with plain help off a terminal, a usage error for a flag without its value,
// and no wizard without a terminal (shared with the server program).
const app = CommandLine.run(command, { name: "broker-history", version: "0.1.0", executable: "broker-history" })

/**
 * Runs the command line (`argv` as in `process.argv`): what the `broker-history` program does. A
 * command's failure is already reported on stderr and is a `CommandFailure` whose `code` is the
 * program's exit code; arguments the parser refuses are its `ValidationError` (the program exits 2).
 *
 * @example
 * ```ts
 * import { Cli } from "@broker-history/cli"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * // `broker-history deposits` against the reference service, into a file:
 * const out = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "cli-")), "deposits.ndjson")
 * const expected = await Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   yield* Cli.run([
 *     "node",
 *     "broker-history",
 *     "deposits",
 *     "--since=30d",
 *     `--base-url=${server.baseUrl}`,
 *     `--api-key=${ApiKeys.demo.apiKey}`,
 *     `--secret-key=${ApiKeys.demo.secretKey}`,
 *     `--out=${out}`
 *   ])
 *   const deposits = yield* server.store.allDeposits({ startTime: Date.now() - 30 * 86_400_000 })
 *   return deposits.map((d) => `${d.txId} ${d.address}`)
 * }).pipe(
 *   Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 0, deposits: 1000 } })),
 *   Effect.provide(NodeContext.layer),
 *   Effect.runPromise
 * )
 * const written = Fs.readFileSync(out, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line))
 * assert.ok(expected.length > 0)
 * // Every deposit of the range once, oldest first:
 * assert.deepStrictEqual(written.map((d) => `${d.txId} ${d.address}`).sort(), expected.sort())
 * assert.ok(written.every((d, i) => i === 0 || written[i - 1].insertTime <= d.insertTime))
 * Fs.rmSync(Path.dirname(out), { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const run = (argv: ReadonlyArray<string>) => app(hoistLogLevel(argv))
