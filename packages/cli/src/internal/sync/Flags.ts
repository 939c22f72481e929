/**
 * The flags of `sync` (see `Command`) as `@effect/cli` options, and their pure readings: the database and
 * the limits checked before anything is read or opened, the `--reset-stream` values, a `--since` not
 * ahead of the clock, and where each kind's history starts on a first run. A value, or the usage
 * message that names the flag.
 *
 * @internal
 */
import { StreamOptions } from "@broker-history/client"
import * as Options from "@effect/cli/Options"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Choices from "../shared/Choices.js"
import * as ClientOptions from "../shared/ClientOptions.js"
import { optionalText, verbose } from "../shared/Flags.js"
import * as HealthServer from "./health/HealthServer.js"
import * as DatabaseName from "./store/DatabaseName.js"

/** Every flag of `sync`. */
export const options = {
  db: optionalText(
    "db",
    "the database: a SQLite file path (created if missing; ./name for a name with a colon) or postgres://user@host:port/database (postgresql:// too); any other URL scheme and :memory: are refused (env BROKER_DB; the flag wins; one of them is required). Keep a PostgreSQL password out of the command line, which the process list shows: put the URL in BROKER_DB, or the password alone in PGPASSWORD"
  ),
  profiles: optionalText(
    "profiles",
    "a YAML or JSON file of several broker keys synced at once into --db, each with its name, base URL, the environment variables that hold its key and secret, sub-accounts or pairs, account types and rate limit (see the README); instead of the single-key flags (default: one key from the flags and BROKER_* variables, profile default)"
  ),
  subAccounts: optionalText(
    "sub-accounts",
    "sub-accounts to sync, comma-separated (a@x,b@x); master→sub and sub→master are read for each; an empty value reads only the master's own transfers (default: every sub-account the service lists, each read from its creation)"
  ),
  subAccountsFile: optionalText(
    "sub-accounts-file",
    "a file with one sub-account a line, # comments (default: every sub-account the service lists)"
  ),
  pairs: optionalText(
    "pairs",
    "a file of explicit account pairs instead, one a line: FROM TO [FROM_TYPE TO_TYPE]; - or master is the master account (default: the pairs of --sub-accounts, or of every sub-account the service lists)"
  ),
  accountTypes: optionalText(
    "account-types",
    "account types, comma-separated, any letter case, sent in upper case: the exchange documents SPOT, FUTURES, FUTURE (its broker transfer history's spelling of the futures account) and ISOLATED_MARGIN; another word of letters, digits and _ is sent with a warning and the service judges it; every ordered pair of them is read (default SPOT,FUTURES)"
  ),
  since: optionalText(
    "since",
    "where the history starts: 2024-01-01, an ISO date-time, Unix ms (0: everything; ten digits are Unix seconds, refused with the ms to write) or 400d (default: the whole transfer history and one year of deposits); a stream's first run reads from here, and an earlier --since than a stream already holds backfills the difference once"
  ),
  resetStream: Options.text("reset-stream").pipe(
    Options.repeated,
    Options.withDescription(
      "delete a stream's checkpoint before syncing (a stream id as stored in sync_checkpoints.stream, or all; repeatable): its rows stay, and it is read again from --since (use once, to repair a damaged checkpoint) (default: none)"
    )
  ),
  follow: Options.boolean("follow").pipe(
    Options.withDescription("keep running: poll every --interval and apply new records and updates (default off)")
  ),
  health: optionalText(
    "health",
    "with --follow: serve GET /livez and GET /readyz for a supervisor on this address: 127.0.0.1:9464, [::1]:9464, or :9464 for every interface (readyz: 200 once every profile has caught up and its last successful poll is within three --interval, at least 30s; else 503) (default: none)"
  ),
  listInterval: optionalText(
    "list-interval",
    "with --follow and no list of sub-accounts: how often the service's sub-account list is read again, 10m, 1h, …; the streams of a new sub-account are read from its creation, then followed with the others (default 10m)"
  ),
  dryRun: Options.boolean("dry-run").pipe(
    Options.withDescription(
      "plan only: list the sub-accounts (when none are named), then print the streams and an estimate of the requests and time a first run needs at the rate limit; no record is fetched, and the database is neither created nor changed (default off)"
    )
  ),
  interval: Options.text("interval").pipe(
    Options.withDefault("30s"),
    Options.withDescription("poll interval with --follow: 30s, 5m, 1h, … (default 30s)")
  ),
  settlement: Options.text("settlement").pipe(
    Options.withDefault("1d"),
    Options.withDescription(
      "how long after its time a record may still change (deposit status, confirmations): re-read on every restart and poll (default 1d)"
    )
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.withDefault(4),
    Options.withDescription(
      "streams read at once while catching up, and polls in flight while following; per key, whose streams share its rate limit (default 4)"
    )
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDefault(500),
    Options.withDescription("records per transaction at most (default 500)")
  ),
  verbose,
  client: ClientOptions.options
}

/**
 * The checks made first, in this order: the database (`--db`, else `BROKER_DB`: see
 * `DatabaseName.choose`), concurrency and batch size in range. The database they name, or the
 * message of the first that fails.
 */
export const limits = (
  flags: { readonly db: string | undefined; readonly concurrency: number; readonly batchSize: number },
  variable: string | undefined
): Either.Either<{ readonly db: string }, string> =>
  Either.flatMap(DatabaseName.choose(flags.db, variable), (db) => {
    if (flags.concurrency < 1 || flags.concurrency > 64) return Either.left("--concurrency must be from 1 to 64")
    if (flags.batchSize < 1 || flags.batchSize > 10_000) return Either.left("--batch-size must be from 1 to 10000")
    return Either.right({ db })
  })

/** How often a following sync that discovers its sub-accounts lists them again, when `--list-interval` is not given. */
export const defaultListInterval = "10m"

/**
 * Reads `--health`: where the health endpoints listen, or none; refused without `--follow` (a sync
 * that ends has nothing to supervise) and for an address that is not one.
 */
export const health = (
  flags: { readonly health: string | undefined; readonly follow: boolean }
): Either.Either<HealthServer.Address | undefined, string> => {
  if (flags.health === undefined) return Either.right(undefined)
  if (!flags.follow) {
    return Either.left(
      "--health needs --follow: the endpoints supervise a process that keeps running; run the sync with --follow, or drop --health"
    )
  }
  return HealthServer.parseAddress(flags.health)
}

/**
 * Reads `--list-interval` (already a duration, `every` ms): it must be longer than 0, and it is refused
 * where nothing is listed again: without `--follow`, or when every plan names its sub-accounts.
 */
export const listing = (
  flags: { readonly listInterval: string | undefined; readonly follow: boolean },
  discovers: boolean,
  every: number
): Either.Either<void, string> => {
  if (every <= 0) return Either.left("--list-interval must be longer than 0")
  if (flags.listInterval === undefined) return Either.void
  if (!flags.follow) {
    return Either.left(
      "--list-interval needs --follow: a sync that ends lists the sub-accounts once, when it starts; run it with --follow, or drop --list-interval"
    )
  }
  return discovers ? Either.void : Either.left(
    "--list-interval applies when the service lists the sub-accounts: drop it, or drop --sub-accounts, --sub-accounts-file and --pairs (or give a profile subAccounts: all)"
  )
}

/** Reads `--dry-run`: it plans only, so the flags that change the database or keep the sync running are refused with it. */
export const dryRun = (
  flags: { readonly dryRun: boolean; readonly follow: boolean; readonly resetStream: ReadonlyArray<string> }
): Either.Either<void, string> =>
  !flags.dryRun
    ? Either.void
    : flags.follow
    ? Either.left("--dry-run plans only and ends: drop --follow (or --dry-run)")
    : flags.resetStream.length > 0
    ? Either.left("--dry-run changes nothing: drop --reset-stream (or --dry-run)")
    : Either.void

/**
 * A stream id as a sync stores it, in its stored spelling: `["deposits"]`, or `["transfers", FROM_TYPE,
 * TO_TYPE, FROM, TO]` with account types as `Choices.accountType` reads them and each account a name or `null`
 * (the master account).
 */
const streamId = (parsed: unknown): string | undefined => {
  if (!Array.isArray(parsed)) return undefined
  if (parsed.length === 1 && parsed[0] === "deposits") return JSON.stringify(parsed)
  if (parsed.length !== 5 || parsed[0] !== "transfers") return undefined
  const [, from, to, fromAccount, toAccount] = parsed as ReadonlyArray<unknown>
  const types = [from, to].map((t) => typeof t === "string" ? Choices.accountType("", t) : undefined)
  const account = (a: unknown) => a === null || (typeof a === "string" && a.trim() !== "")
  if (!types.every((t) => t !== undefined && Either.isRight(t)) || !account(fromAccount) || !account(toAccount)) {
    return undefined
  }
  return JSON.stringify(["transfers", ...types.map((t) => Either.getOrThrow(t!)), fromAccount, toAccount])
}

/**
 * Reads the `--reset-stream` values: `all`, or stream ids as stored in `sync_checkpoints.stream` (JSON
 * arrays, read back in the stored spelling), or the message saying what is wrong.
 */
export const resetStreams = (
  values: ReadonlyArray<string>
): Either.Either<ReadonlyArray<string> | "all" | undefined, string> => {
  if (values.length === 0) return Either.right(undefined)
  if (values.some((v) => v.trim().toLowerCase() === "all")) return Either.right("all")
  const ids: Array<string> = []
  for (const value of values) {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      parsed = undefined
    }
    const id = streamId(parsed)
    if (id === undefined) {
      return Either.left(
        `--reset-stream: ${
          JSON.stringify(value)
        } is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '["deposits"]') or all`
      )
    }
    ids.push(id)
  }
  return Either.right([...new Set(ids)])
}

/**
 * `--since` no later than this machine's `now`: a later one is refused before anything is opened (the
 * service would refuse every query of it).
 */
export const sinceNotAhead = (
  given: number | undefined,
  text: string | undefined,
  now: number
): Either.Either<void, string> =>
  given === undefined || given <= now ? Either.void : Either.left(
    `--since: ${text} is after this machine's clock (${
      new Date(now).toISOString()
    }): give a date in the past, a time back such as 2y, or 0 for everything`
  )

/**
 * Where each kind's history starts: `--since` when given; else, on a first run, the whole history
 * where an empty stretch costs one request (transfers, when their windows are unlimited) and one year
 * where every window of it is a request (deposits: ten days each, so a whole history would be
 * thousands of requests).
 */
export const since = (
  given: number | undefined,
  transferWindow: Duration.Duration | undefined,
  now: number
): { readonly transfers: number; readonly deposits: number } => {
  if (given !== undefined) return { transfers: given, deposits: given }
  const yearBack = Math.max(0, now - Duration.toMillis(StreamOptions.defaultLookback))
  return { transfers: transferWindow === undefined ? 0 : yearBack, deposits: yearBack }
}
