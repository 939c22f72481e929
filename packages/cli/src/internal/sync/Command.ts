/**
 * `broker-history sync`: its flags (`Flags`), then its program (`Program`: the checks, the plans, the
 * run and its summary), loaded only when the command runs. Keeps both histories in a database, exact
 * across crashes; `--follow` keeps it running until SIGINT/SIGTERM.
 *
 * @internal
 */
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as ClientOptions from "../shared/ClientOptions.js"
import * as Flags from "./Flags.js"

/**
 * `broker-history sync`: keeps both histories in a SQLite or PostgreSQL database, idempotently, once
 * or with `--follow` until SIGINT/SIGTERM.
 */
export const command = Command.make("sync", Flags.options, (flags) =>
  // The run (store, migrator, follower) is loaded only now: the other commands never load it.
  Effect.flatMap(Effect.promise(() => import("./Program.js")), (Program) => Program.run(flags)))
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
