/**
 * `broker-history sync`: its flags, read and checked before the database is opened or a request
 * sent, then the run (`SyncRun`) and its summary (`SyncSummary`). Keeps both histories in a
 * database, exact across crashes; `--follow` keeps it running until SIGINT/SIGTERM.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as ClientOptions from "./ClientOptions.js"
import * as SyncFlags from "./internal/SyncFlags.js"

/**
 * Reads the `--reset-stream` values: `all`, or stream ids as stored in `sync_checkpoints.stream` (JSON
 * arrays, read back in the stored spelling), or the message saying what is wrong.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(Sync.resetStreams(['[ "deposits" ]']), Either.right(['["deposits"]']))
 * assert.deepStrictEqual(Sync.resetStreams(["ALL"]), Either.right("all"))
 * assert.deepStrictEqual(Sync.resetStreams([]), Either.right(undefined))
 * assert.ok(Either.isLeft(Sync.resetStreams(["deposits"])))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const resetStreams: (
  values: ReadonlyArray<string>
) => Either.Either<ReadonlyArray<string> | "all" | undefined, string> = SyncFlags.resetStreams

/**
 * `broker-history sync`: keeps both histories in a SQLite or PostgreSQL database, idempotently, once
 * or with `--follow` until SIGINT/SIGTERM.
 *
 * @example
 * ```ts
 * import { Sync } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Sync.command, CliConfig.defaultConfig))
 * for (const flag of ["--db", "--profiles", "--sub-accounts", "--pairs", "--since", "--reset-stream", "--follow", "--list-interval", "--dry-run", "--settlement"]) {
 *   assert.ok(help.includes(flag), flag)
 * }
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("sync", SyncFlags.options, (flags) =>
  // The run (store, migrator, follower) is loaded only now: the other commands never load it.
  Effect.flatMap(Effect.promise(() => import("./internal/SyncProgram.js")), (SyncProgram) => SyncProgram.run(flags)))
  .pipe(Command.withDescription(
    "Keep both histories in a database (tables transfers, deposits, sync_checkpoints), idempotently: " +
      "each stream's checkpoint is stored in the transaction of its rows, so a killed sync restarts where it stopped. " +
      "It reads, for every sub-account and every ordered pair of --account-types, master→sub and sub→master, " +
      "plus the master's own transfers, and all deposits; the sub-accounts are those the service lists (each read from its creation; " +
      "with --follow listed again every --list-interval), or those of --sub-accounts/--sub-accounts-file; --pairs lists pairs instead. " +
      "A line says what the plan costs (at least how many requests, how long at the rate limit) before anything is read; --dry-run " +
      "prints it and ends, without a record read or a database opened. A first run reads the whole transfer history and one year of deposits " +
      "(or from --since); an earlier --since later backfills what is missing. A damaged checkpoint skips its stream (exit 1 at the end; " +
      "--reset-stream repairs it). With --follow it runs until SIGINT/SIGTERM (exit 0 after the current batch commits), " +
      "waiting out outages of the service and the database (retried without limit, backing off up to BROKER_FOLLOW_RETRY_MAX_DELAY, default 1m); " +
      "--health ADDR then serves GET /livez and /readyz for a supervisor. " +
      "--profiles FILE syncs several keys at once, each on its own budget, rows and checkpoints kept per profile " +
      "(the single-key flags are the profile default); a refused key stops only its profile, and the exit code is then that of the first profile that failed. " +
      ClientOptions.variablesHelp
  ))
