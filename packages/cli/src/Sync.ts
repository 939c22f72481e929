/**
 * `broker-history sync`: its flags, read and checked before the database is opened or a request
 * sent, then the run (`SyncRun`) and its summary (`SyncSummary`). Keeps both histories in a
 * database, exact across crashes; `--follow` keeps it running until SIGINT/SIGTERM.
 *
 * @since 0.1.0
 */
import type { BrokerError } from "@broker-history/client"
import { BrokerConfig, StreamOptions } from "@broker-history/client"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { SqlError } from "@effect/sql/SqlError"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import * as Choices from "./Choices.js"
import * as ClientOptions from "./ClientOptions.js"
import * as ExitCode from "./ExitCode.js"
import { range, verbose } from "./Export.js"
import * as Profiles from "./Profiles.js"
import * as Progress from "./Progress.js"
import * as SyncPlan from "./SyncPlan.js"
import * as SyncRun from "./SyncRun.js"
import * as SyncStore from "./SyncStore.js"
import * as SyncSummary from "./SyncSummary.js"
import * as TimeText from "./TimeText.js"

const usage = (message: string) => new ExitCode.UsageError({ message })

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional, Options.map(Option.getOrUndefined))

const readFile = (flag: string, path: string) =>
  Effect.try({
    try: () => Fs.readFileSync(path, "utf8"),
    catch: (e) => usage(`--${flag}: cannot read ${path} (${(e as Error).message})`)
  })

const durationFlag = (flag: string, text: string) =>
  Either.match(TimeText.duration(text), {
    onLeft: (m) => Effect.fail(usage(`--${flag}: ${m}`)),
    onRight: (d) => Effect.succeed(Duration.toMillis(d))
  })

const fromEither = <A>(either: Either.Either<A, string>) =>
  Either.match(either, { onLeft: (m) => Effect.fail(usage(m)), onRight: Effect.succeed })

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
    if (!Array.isArray(parsed) || (parsed[0] !== "transfers" && parsed[0] !== "deposits")) {
      return Either.left(
        `--reset-stream: ${
          JSON.stringify(value)
        } is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '["deposits"]') or all`
      )
    }
    ids.push(JSON.stringify(parsed))
  }
  return Either.right([...new Set(ids)])
}

/** What one key syncs: its client settings, its streams, what they leave out; `profile` for a file's. */
interface Plan {
  readonly profile: Profiles.Planned | undefined
  readonly client: ClientOptions.Values
  readonly transferStreams: ReadonlyArray<SyncPlan.TransferStream>
  readonly uncovered: string | undefined
}

interface PlanFlags {
  readonly subAccounts: string | undefined
  readonly subAccountsFile: string | undefined
  readonly pairs: string | undefined
  readonly accountTypes: string | undefined
  readonly client: ClientOptions.Values
}

/** The single-key flags: one implicit profile, `default`. */
const singleKeyPlan = (flags: PlanFlags) =>
  Effect.gen(function*() {
    if (flags.subAccounts !== undefined && flags.subAccountsFile !== undefined) {
      return yield* Effect.fail(usage("give --sub-accounts or --sub-accounts-file, not both"))
    }
    if (flags.pairs !== undefined && (flags.subAccounts !== undefined || flags.subAccountsFile !== undefined)) {
      return yield* Effect.fail(usage("--pairs lists the pairs itself: drop --sub-accounts/--sub-accounts-file"))
    }
    const accountTypes = [
      ...new Set(
        yield* Effect.forEach(
          SyncPlan.names(flags.accountTypes ?? "SPOT,FUTURES"),
          (t) => fromEither(Choices.accountType("--account-types", t))
        )
      )
    ]
    if (accountTypes.length === 0) return yield* Effect.fail(usage("--account-types lists no account type"))
    const subs = flags.subAccounts !== undefined
      ? SyncPlan.names(flags.subAccounts)
      : flags.subAccountsFile !== undefined
      ? SyncPlan.names(yield* readFile("sub-accounts-file", flags.subAccountsFile))
      : []
    const pairs = flags.pairs === undefined
      ? SyncPlan.defaultPairs(subs)
      : yield* Either.match(SyncPlan.parsePairs(yield* readFile("pairs", flags.pairs)), {
        onLeft: (m) => Effect.fail(usage(`--pairs ${flags.pairs}: ${m}`)),
        onRight: Effect.succeed
      })
    return {
      profile: undefined,
      client: flags.client,
      transferStreams: SyncPlan.transferStreams(pairs, accountTypes),
      uncovered: flags.pairs === undefined ? SyncPlan.uncovered(subs, accountTypes) : undefined
    } satisfies Plan
  })

/** The flags a profiles file gives per key: refused next to `--profiles`. */
const perKeyFlags = ["base-url", "api-key", "secret-key", "rate-limit", "rate-limit-interval"] as const

/** The profiles of `--profiles FILE`, each with the shared client flags (timeouts, retries, proxy). */
const filePlans = (file: string, flags: PlanFlags) =>
  Effect.gen(function*() {
    const given = [
      ...(flags.subAccounts === undefined ? [] : ["--sub-accounts"]),
      ...(flags.subAccountsFile === undefined ? [] : ["--sub-accounts-file"]),
      ...(flags.pairs === undefined ? [] : ["--pairs"]),
      ...(flags.accountTypes === undefined ? [] : ["--account-types"]),
      ...perKeyFlags.filter((f) => flags.client[f] !== undefined).map((f) => `--${f}`)
    ]
    if (given.length > 0) {
      return yield* Effect.fail(usage(
        `--profiles gives each key its own settings: drop ${
          given.join(", ")
        } (a profile has baseUrl, apiKeyEnv, secretKeyEnv, subAccounts or pairs, accountTypes and rateLimit)`
      ))
    }
    const profiles = yield* Profiles.parse(yield* readFile("profiles", file), process.env).pipe(
      Effect.mapError((e) => new Profiles.ProfilesError({ kind: e.kind, message: `--profiles ${file}: ${e.message}` }))
    )
    return profiles.map((profile): Plan => ({
      profile,
      // The exporter is the process's, built once around every profile (see `profilesTelemetry`).
      client: { ...flags.client, ...profile.client, "otlp-endpoint": undefined },
      transferStreams: profile.transferStreams,
      uncovered: profile.uncovered
    }))
  })

/** The variable of the OpenTelemetry collector's URL (`--otlp-endpoint`). */
const telemetryVariable = ClientOptions.flags.find((f) => f.flag === "otlp-endpoint")!.env

/**
 * The exporter of a sync of profiles, read (and checked) once from the shared flags and variables; the
 * profiles' clients are then built without one, so the process's metrics are exported once.
 */
const profilesTelemetry = (values: ClientOptions.Values) =>
  Effect.gen(function*() {
    const configProvider = yield* ClientOptions.provider(values, process.env)
    const endpoint = yield* Effect.withConfigProvider(ClientOptions.otlpEndpoint, configProvider)
    if (Option.isNone(endpoint)) return Layer.empty
    const Telemetry = yield* Effect.promise(() => import("./Telemetry.js"))
    return Layer.discard(Telemetry.layer(endpoint.value))
  })

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
 * for (const flag of ["--db", "--profiles", "--sub-accounts", "--pairs", "--since", "--reset-stream", "--follow", "--settlement"]) {
 *   assert.ok(help.includes(flag), flag)
 * }
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("sync", {
  db: Options.text("db").pipe(
    Options.withDescription(
      "the database: a SQLite file path (created if missing) or postgres://user:password@host:port/database (required)"
    )
  ),
  profiles: optionalText(
    "profiles",
    "a YAML or JSON file of several broker keys synced at once into --db, each with its name, base URL, the environment variables that hold its key and secret, sub-accounts or pairs, account types and rate limit (see the README); instead of the single-key flags (default: one key from the flags and BROKER_* variables, profile default)"
  ),
  subAccounts: optionalText(
    "sub-accounts",
    "sub-accounts to sync, comma-separated (a@x,b@x); master→sub and sub→master are read for each (default: none, only the master's own transfers)"
  ),
  subAccountsFile: optionalText("sub-accounts-file", "a file with one sub-account a line, # comments (default: none)"),
  pairs: optionalText(
    "pairs",
    "a file of explicit account pairs instead, one a line: FROM TO [FROM_TYPE TO_TYPE]; - or master is the master account (default: the pairs of --sub-accounts)"
  ),
  accountTypes: optionalText(
    "account-types",
    "account types (SPOT, FUTURES, any letter case); every ordered pair of them is read (default SPOT,FUTURES)"
  ),
  since: optionalText(
    "since",
    "where the history starts: 2024-01-01, an ISO date-time, Unix ms (0: everything) or 400d (default: the whole transfer history and one year of deposits); a stream's first run reads from here, and an earlier --since than a stream already holds backfills the difference once"
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
}, (flags) =>
  Effect.gen(function*() {
    const outcome = yield* Effect.gen(function*() {
      // SQLite takes an empty name for a throwaway temporary database: never what a sync is for.
      if (flags.db.trim() === "") {
        return yield* Effect.fail(
          usage(
            "--db is empty: give a SQLite file path (created if missing) or a PostgreSQL URL postgres://user:password@host:port/database"
          )
        )
      }
      if (flags.concurrency < 1 || flags.concurrency > 64) {
        return yield* Effect.fail(usage("--concurrency must be from 1 to 64"))
      }
      if (flags.batchSize < 1 || flags.batchSize > 10_000) {
        return yield* Effect.fail(usage("--batch-size must be from 1 to 10000"))
      }
      const plans = flags.profiles === undefined
        ? [yield* singleKeyPlan(flags)]
        : yield* filePlans(flags.profiles, flags)
      const interval = yield* durationFlag("interval", flags.interval)
      if (interval <= 0) return yield* Effect.fail(usage("--interval must be longer than 0"))
      const settlement = yield* durationFlag("settlement", flags.settlement)
      const reset = yield* fromEither(resetStreams(flags.resetStream))
      const { since: given } = yield* range(flags.since, undefined)
      // Every profile's client settings are read (and checked) before the database is opened.
      // With profiles, one OpenTelemetry exporter for the process, not one per profile's client.
      const telemetry = flags.profiles === undefined ? Layer.empty : yield* profilesTelemetry(flags.client)
      const clientEnv = flags.profiles === undefined
        ? process.env
        : { ...process.env, [telemetryVariable]: undefined }
      const runs = yield* Effect.forEach(plans, (plan) =>
        Effect.map(BrokerConfig.BrokerConfig, ({ maxWindow }) => {
          // First-run default: the whole history where an empty stretch costs one request (transfers,
          // whose windows are unlimited), one year where every window of it is a request (deposits: ten
          // days each, so a whole history would be thousands of requests).
          const yearBack = Math.max(0, Date.now() - Duration.toMillis(StreamOptions.defaultLookback))
          const since = given !== undefined
            ? { transfers: given, deposits: given }
            : { transfers: maxWindow.transfers === undefined ? 0 : yearBack, deposits: yearBack }
          return { plan, since, depositWindow: Duration.format(maxWindow.deposits) }
        }).pipe(
          Effect.provide(ClientOptions.configLayer(plan.client, clientEnv)),
          Effect.mapError((e) =>
            plan.profile === undefined ?
              e :
              usage(`--profiles ${flags.profiles}: profile ${plan.profile.name}: ${ExitCode.describe(e).message}`)
          )
        ))
      const started = Date.now()
      const out = (line: string) => process.stdout.write(line + "\n")
      const err = (line: string) => process.stderr.write(`broker-history: ${line}\n`)

      /** One profile synced and summarised; a profile of a file that fails stops alone, with one line. */
      const syncProfile = (run: (typeof runs)[number]) => {
        const { plan } = run
        const name = plan.profile?.name ?? SyncStore.defaultProfile
        const prefix = plan.profile === undefined ? "" : `profile ${name}: `
        const log = (line: string) => out(prefix + line)
        return Effect.gen(function*() {
          const result = yield* SyncRun.run({
            profile: name,
            transferStreams: plan.transferStreams,
            since: run.since,
            reset,
            follow: flags.follow ? interval : undefined,
            settlement,
            concurrency: flags.concurrency,
            batchSize: flags.batchSize,
            batchWait: 250,
            log,
            warn: (line) => err(prefix + line)
          }).pipe(Effect.scoped, Effect.provide(ClientOptions.layer(plan.client, clientEnv)))
          const counts = yield* Effect.flatMap(SyncStore.SyncStore, (s) => s.forProfile(name).counts)
          // The client's request counts are the process's: one profile's alone are known only without others.
          const requests = plan.profile === undefined
            ? yield* Effect.flatMap(Progress.Progress, (p) => p.snapshot)
            : undefined
          const streams = plan.transferStreams.length + 1
          log(SyncSummary.syncedLine({
            streams: streams - result.damaged.length,
            db: SyncStore.describe(flags.db),
            totals: result.totals,
            counts,
            requests,
            seconds: (Date.now() - started) / 1000,
            profile: plan.profile !== undefined
          }))
          for (
            const line of SyncSummary.coverageLines(result, {
              defaultDeposits: given === undefined ? run.since.deposits : undefined,
              depositWindow: run.depositWindow,
              uncovered: plan.uncovered
            })
          ) log(line)
          return { prefix, damaged: result.damaged, streams, failed: undefined as ExitCode.Kind | undefined }
        }).pipe(
          // A profile of a file that the service refuses (or cannot serve) stops alone; a database
          // failure stops every profile.
          Effect.catchIf(
            (e): e is BrokerError.BrokerError =>
              plan.profile !== undefined && !(e instanceof SqlError) && !ConfigError.isConfigError(e),
            (e) =>
              Effect.sync(() => {
                err(
                  e._tag === "AuthenticationError"
                    ? Profiles.refusedLine(plan.profile!, e)
                    : `profile ${name} stopped: ${
                      ExitCode.describe(e).message.replace(/\.$/, "")
                    }; the other profiles go on`
                )
                return { prefix, damaged: [], streams: 0, failed: ExitCode.describe(e).kind }
              })
          )
        )
      }

      // Flags are checked above, before the database is opened or created.
      return yield* Effect.forEach(runs, syncProfile, { concurrency: "unbounded" }).pipe(
        Effect.tap((outcomes) =>
          flags.profiles === undefined ? Effect.void : Effect.map(
            Effect.flatMap(Progress.Progress, (p) => p.snapshot),
            (progress) =>
              out(SyncSummary.profilesLine({
                synced: outcomes.filter((o) => o.failed === undefined).length,
                profiles: outcomes.length,
                db: SyncStore.describe(flags.db),
                requests: progress,
                seconds: (Date.now() - started) / 1000
              }))
          )
        ),
        Effect.provide(Layer.mergeAll(
          SyncStore.layer(flags.db),
          telemetry,
          Progress.layer({ label: "sync", endpoints: ["transferHistory", "depositHistory"] })
        ))
      )
    }).pipe(
      // A profile's variable that is not set: credentials are missing (exit 3), reported below.
      Effect.catchTag("ProfilesError", (e) => e.kind === "usage" ? Effect.fail(usage(e.message)) : Effect.succeed(e)),
      ExitCode.report(flags.verbose)
    )
    if (outcome instanceof Profiles.ProfilesError) {
      yield* Effect.sync(() => process.stderr.write(`broker-history: ${outcome.message}\n`))
      return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes.authentication }))
    }
    // Damaged checkpoints: the other streams are synced and summarised; the command then fails, as it
    // does when a profile stopped (with the code of the first profile that did not complete).
    if (outcome === undefined) return
    for (const o of outcome) {
      if (o.damaged.length > 0) {
        yield* Effect.sync(() =>
          process.stderr.write(
            `broker-history: ${o.prefix}${SyncSummary.damagedSentence(o.damaged, o.streams)}\n`
          )
        )
      }
    }
    const first = outcome.find((o) => o.failed !== undefined || o.damaged.length > 0)
    if (first !== undefined) {
      return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes[first.failed ?? "other"] }))
    }
  })).pipe(Command.withDescription(
    "Keep both histories in a database (tables transfers, deposits, sync_checkpoints), idempotently: " +
      "each stream's checkpoint is stored in the transaction of its rows, so a killed sync restarts where it stopped. " +
      "Without --pairs it reads, for every sub-account and every ordered pair of --account-types, master→sub and sub→master, " +
      "plus the master's own transfers, and all deposits. A first run reads the whole transfer history and one year of deposits " +
      "(or from --since); an earlier --since later backfills what is missing. A damaged checkpoint skips its stream (exit 1 at the end; " +
      "--reset-stream repairs it). With --follow it runs until SIGINT/SIGTERM (exit 0 after the current batch commits). " +
      "--profiles FILE syncs several keys at once, each on its own budget, rows and checkpoints kept per profile " +
      "(the single-key flags are the profile default); a refused key stops only its profile, and the exit code is then that of the first profile that failed. " +
      ClientOptions.variablesHelp
  ))
