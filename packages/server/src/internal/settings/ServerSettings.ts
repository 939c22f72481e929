/**
 * The server program's settings, each flag with its variable, default and check: the table
 * `CommandLine.options` reads, and the settings it reads as `ReferenceServer.Options`.
 *
 * @internal
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { ApiKey } from "../../ApiKeys.js"
import * as ApiKeys from "../../ApiKeys.js"
import type * as ReferenceServer from "../../ReferenceServer.js"
import * as Accounts from "../Accounts.js"
import * as RateLimit from "../limit/RateLimit.js"
import type { Given } from "./Setting.js"
import {
  describe,
  integer,
  integerSetting,
  oneOf,
  probability,
  probabilitySetting,
  setting,
  textSetting,
  truth,
  usage,
  variable
} from "./Setting.js"

/** `--key` (repeated), else `BROKER_SERVER_KEYS` (separated by spaces); none given: `None`. */
const keys: Options.Options<Option.Option<ReadonlyArray<ApiKey>>> = Options.text("key").pipe(
  Options.repeated,
  // No `--key` at all is a missing value (not an empty list), so that the variable is read.
  Options.mapEffect((texts) =>
    texts.length === 0
      ? Effect.fail(ValidationError.missingValue(HelpDoc.p("no --key")))
      : Effect.succeed<Given<ReadonlyArray<string>>>({ from: "--key", value: texts })
  ),
  Options.withFallbackConfig(
    Config.map(variable("BROKER_SERVER_KEYS"), (given): Given<ReadonlyArray<string>> => ({
      from: given.from,
      value: given.value.split(/\s+/).filter((key) => key.length > 0)
    }))
  ),
  Options.mapEffect((given) => {
    const parsed = given.value.map(ApiKeys.parse)
    // The message never repeats the key's text: it holds a secret.
    const problems = parsed.flatMap((key) => Either.isLeft(key) ? [`${given.from}: ${key.left}`] : [])
    return problems.length > 0
      ? Effect.fail(usage(...problems))
      : Effect.succeed(parsed.flatMap((key) => Either.isRight(key) ? [key.right] : []))
  }),
  Options.optional,
  Options.withPseudoName("API:SECRET:PERMS"),
  Options.withDescription(describe(
    `API key as apiKey:secretKey:PERM1,PERM2 (repeat the flag; in the variable, separate keys with spaces). ` +
      `Permissions: ${ApiKeys.permissions.join(", ")}`,
    "BROKER_SERVER_KEYS",
    "the demo key"
  ))
)

/**
 * `--no-log` (or `--log`), else `BROKER_SERVER_LOG`: whether to log one line per request. The flags
 * are `@effect/cli`'s boolean pair, so the value read here is "no log".
 */
const noLog: Options.Options<boolean> = Options.boolean("no-log", { negationNames: ["log"] }).pipe(
  Options.withFallbackConfig(
    Config.map(variable("BROKER_SERVER_LOG"), (given) => Either.map(truth(given.value), (log) => !log))
  ),
  Options.mapEffect((value) =>
    typeof value === "boolean"
      ? Effect.succeed(value)
      : Either.match(value, {
        onLeft: (problem) => Effect.fail(usage(`BROKER_SERVER_LOG ${problem}`)),
        onRight: Effect.succeed
      })
  ),
  Options.withDescription(describe(
    "--no-log silences the line per request (method, path, status, duration), --log keeps it; " +
      "in the variable: 0/false/no/off or 1/true/yes/on",
    "BROKER_SERVER_LOG",
    "true (logging on)"
  ))
)

/**
 * `--staggered-sub-accounts`, else `BROKER_SERVER_STAGGERED_SUB_ACCOUNTS`: whether the seeded
 * sub-accounts are created one after another over the history (`Seed.SeedOptions`).
 */
const staggeredSubAccounts: Options.Options<boolean> = Options.boolean("staggered-sub-accounts").pipe(
  Options.withFallbackConfig(
    Config.map(variable("BROKER_SERVER_STAGGERED_SUB_ACCOUNTS"), (given) => ({ given, read: truth(given.value) }))
  ),
  Options.mapEffect((value) =>
    typeof value === "boolean"
      ? Effect.succeed(value)
      : Either.match(value.read, {
        onLeft: (problem) => Effect.fail(usage(`${value.given.from} ${problem}`)),
        onRight: Effect.succeed
      })
  ),
  Options.withDescription(describe(
    "create the seeded sub-accounts one after another over the history (the first two at its start) " +
      "instead of all at its start; no seeded transfer names a sub-account before its creation. " +
      "In the variable: 0/false/no/off or 1/true/yes/on",
    "BROKER_SERVER_STAGGERED_SUB_ACCOUNTS",
    "false"
  ))
)

/** `--max-window-transfers-ms`: none by default (transfer queries may span any time). */
const maxWindowTransfers: Options.Options<number | undefined> = setting(
  "max-window-transfers-ms",
  "BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS",
  integer(1)
).pipe(
  Options.optional,
  Options.map(Option.getOrUndefined),
  Options.withPseudoName("INTEGER"),
  Options.withDescription(describe(
    "longest endTime - startTime of a transfer query, in ms (2592000000: 30 days); a longer window is refused " +
      "with 33333, and a query without startTime reads that long back from its endTime (or now)",
    "BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS",
    "none"
  ))
)

/** `--settle-pending-after-ms`: none by default (pending transfers stay pending). */
const settlePendingAfter: Options.Options<Option.Option<Given<number>>> = setting(
  "settle-pending-after-ms",
  "BROKER_SERVER_SETTLE_PENDING_AFTER_MS",
  integer(0)
).pipe(
  Options.map((ms): Given<number> => ({ from: "--settle-pending-after-ms", value: ms })),
  Options.optional,
  Options.withPseudoName("INTEGER"),
  Options.withDescription(describe(
    "pending transfers settle this many ms after their timestamp: the transfer endpoint answers (and " +
      "stores) them as SUCCESS, or FAILED for --settle-failed-share of them, same tranId and timestamp " +
      "(0: at once)",
    "BROKER_SERVER_SETTLE_PENDING_AFTER_MS",
    "none: pending transfers stay pending"
  ))
)

/** `--settle-failed-share`: the share of settling transfers that fail; needs a settlement delay. */
const settleFailedShare: Options.Options<Option.Option<Given<number>>> = Options.text("settle-failed-share").pipe(
  Options.map((text): Given<string> => ({ from: "--settle-failed-share", value: text })),
  Options.withFallbackConfig(variable("BROKER_SERVER_SETTLE_FAILED_SHARE")),
  Options.mapEffect((given) =>
    Either.match(probability(given.value), {
      onLeft: (problem) => Effect.fail(usage(`${given.from} ${problem}`)),
      onRight: (share) => Effect.succeed<Given<number>>({ from: given.from, value: share })
    })
  ),
  Options.optional,
  Options.withPseudoName("0..1"),
  Options.withDescription(describe(
    "share of the settling pending transfers that settle as FAILED, drawn from each tranId (needs " +
      "--settle-pending-after-ms)",
    "BROKER_SERVER_SETTLE_FAILED_SHARE",
    "0"
  ))
)

/** The problem with the settlement settings: a failed share without a delay would be ignored. */
export const settlementProblem = (s: Settings): string | undefined =>
  Option.isSome(s.settleFailedShare) && Option.isNone(s.settlePendingAfter)
    ? `${s.settleFailedShare.value.from} needs --settle-pending-after-ms (or ` +
      "BROKER_SERVER_SETTLE_PENDING_AFTER_MS): without a settlement delay pending transfers never settle"
    : undefined

// The demo key's secret is published, so off loopback it would let anyone who reaches the port
// read the history: there, a key must be chosen on purpose.
export const demoKeyOffLoopback = (from: string, host: string): string =>
  `${from} ${host} is not a loopback address, and without --key the service accepts the demo key, whose ` +
  "secret is published: anyone who can reach the port could read the history. Pass your own key with " +
  "--key apiKey:secretKey:PERMS (or BROKER_SERVER_KEYS), or bind --host 127.0.0.1"

const hostOption: Options.Options<Given<string>> = Options.text("host").pipe(
  Options.map((host): Given<string> => ({ from: "--host", value: host })),
  Options.withFallbackConfig(variable("BROKER_SERVER_HOST")),
  Options.withDefault<Given<string>>({ from: "--host", value: "127.0.0.1" }),
  Options.withPseudoName("HOST"),
  Options.withDescription(describe(
    "address to listen on; any address but loopback (127.0.0.1, localhost, ::1) needs --key",
    "BROKER_SERVER_HOST",
    "127.0.0.1"
  ))
)

/** `--futures-account-type`: how the service spells the futures account type. */
const futuresAccountType: Options.Options<Accounts.Futures> = setting(
  "futures-account-type",
  "BROKER_SERVER_FUTURES_ACCOUNT_TYPE",
  oneOf(Accounts.futuresSpellings)
).pipe(
  Options.withDefault(Accounts.defaultFutures),
  Options.withPseudoName(Accounts.futuresSpellings.join("|")),
  Options.withDescription(describe(
    "spelling of the futures account type: FUTURES (the exchange's parameter table) or FUTURE (its broker " +
      "example), any letter case; the seeded records carry it, and transfer queries may name SPOT or it, " +
      "nothing else",
    "BROKER_SERVER_FUTURES_ACCOUNT_TYPE",
    Accounts.defaultFutures
  ))
)

/** `--rate-limit-shape`: how the service counts requests against `--rate-limit`. */
const rateLimitShape: Options.Options<RateLimit.Shape> = setting(
  "rate-limit-shape",
  "BROKER_SERVER_RATE_LIMIT_SHAPE",
  oneOf(RateLimit.shapes)
).pipe(
  Options.withDefault<RateLimit.Shape>("sliding"),
  Options.withPseudoName(RateLimit.shapes.join("|")),
  Options.withDescription(describe(
    "how requests are counted against --rate-limit per --rate-window-ms: sliding (at most that many in any " +
      "window), fixed (per window aligned on the epoch) or tokenBucket (a burst of that many, refilled " +
      "continuously), any letter case",
    "BROKER_SERVER_RATE_LIMIT_SHAPE",
    "sliding"
  ))
)

/** Every setting, read. */
export const settings = Options.all({
  host: hostOption,
  port: integerSetting("port", "BROKER_SERVER_PORT", { min: 0, max: 65535 }, 8080, "port (0: any free port)"),
  database: textSetting("database", "BROKER_SERVER_DATABASE", "PATH", ":memory:", "SQLite file path, or :memory:"),
  seed: integerSetting("seed", "BROKER_SERVER_SEED", { min: 0 }, 42, "seed of the generated history"),
  transfers: integerSetting(
    "transfers",
    "BROKER_SERVER_TRANSFERS",
    { min: 0 },
    100_000,
    "transfers to generate into an empty database (0 and --deposits 0: none)"
  ),
  deposits: integerSetting(
    "deposits",
    "BROKER_SERVER_DEPOSITS",
    { min: 0 },
    20_000,
    "deposits to generate into an empty database"
  ),
  years: integerSetting("years", "BROKER_SERVER_YEARS", { min: 1 }, 2, "years the history spans"),
  subAccounts: integerSetting(
    "sub-accounts",
    "BROKER_SERVER_SUB_ACCOUNTS",
    { min: 2 },
    40,
    "sub-accounts in the history"
  ),
  staggeredSubAccounts,
  futuresAccountType,
  masterAccount: textSetting(
    "master-account",
    "BROKER_SERVER_MASTER_ACCOUNT",
    "NAME",
    Accounts.masterAccount,
    "name answered for the master account"
  ),
  keys,
  rateLimit: integerSetting(
    "rate-limit",
    "BROKER_SERVER_RATE_LIMIT",
    { min: 1 },
    500,
    "requests per API key per rate window"
  ),
  rateLimitShape,
  rateWindow: integerSetting(
    "rate-window-ms",
    "BROKER_SERVER_RATE_WINDOW_MS",
    { min: 1 },
    10_000,
    "rate window in milliseconds"
  ),
  maxWindowTransfers,
  maxWindowDeposits: integerSetting(
    "max-window-deposits-ms",
    "BROKER_SERVER_MAX_WINDOW_DEPOSITS_MS",
    { min: 1 },
    864_000_000,
    "longest endTime - startTime of a deposit query, in ms (10 days)"
  ),
  faultSeed: integerSetting("fault-seed", "BROKER_SERVER_FAULT_SEED", { min: 0 }, 1, "seed of the fault decisions"),
  serverError: probabilitySetting(
    "fault-server-error",
    "BROKER_SERVER_FAULT_SERVER_ERROR",
    "probability of a 500 answer"
  ),
  rateLimited: probabilitySetting(
    "fault-rate-limited",
    "BROKER_SERVER_FAULT_RATE_LIMITED",
    "probability of a 429 answer"
  ),
  retryAfter: integerSetting(
    "fault-retry-after",
    "BROKER_SERVER_FAULT_RETRY_AFTER",
    { min: 1 },
    1,
    "Retry-After seconds of injected 429 answers"
  ),
  drop: probabilitySetting(
    "fault-drop",
    "BROKER_SERVER_FAULT_DROP",
    "probability of dropping the connection without an answer"
  ),
  hang: probabilitySetting("fault-hang", "BROKER_SERVER_FAULT_HANG", "probability of never answering"),
  truncate: probabilitySetting(
    "fault-truncate",
    "BROKER_SERVER_FAULT_TRUNCATE",
    "probability of cutting the body short"
  ),
  settlePendingAfter,
  settleFailedShare,
  latency: integerSetting(
    "fault-latency-ms",
    "BROKER_SERVER_FAULT_LATENCY_MS",
    { min: 0 },
    0,
    "latency added to every answer, in ms (requests are checked and rate-limited when they arrive)"
  ),
  noLog
})

/** The settings as read. */
export type Settings = typeof settings extends Options.Options<infer A> ? A : never

/** The settings as the service's options: the demo key when none is given, no seed when it is empty. */
export const toServerOptions = (s: Settings): ReferenceServer.Options => ({
  host: s.host.value,
  port: s.port,
  database: s.database,
  keys: Option.getOrElse(s.keys, () => [ApiKeys.demo]),
  seed: s.transfers + s.deposits === 0 ? undefined : {
    seed: s.seed,
    transfers: s.transfers,
    deposits: s.deposits,
    years: s.years,
    subAccounts: s.subAccounts,
    staggeredSubAccounts: s.staggeredSubAccounts
  },
  rateLimit: { limit: s.rateLimit, window: s.rateWindow, shape: s.rateLimitShape },
  maxWindow: { transfers: s.maxWindowTransfers, deposits: s.maxWindowDeposits },
  faults: {
    seed: s.faultSeed,
    serverError: s.serverError,
    rateLimited: s.rateLimited,
    retryAfterSeconds: s.retryAfter,
    drop: s.drop,
    hang: s.hang,
    truncate: s.truncate,
    latency: s.latency
  },
  logRequests: !s.noLog,
  masterAccount: s.masterAccount,
  futuresAccountType: s.futuresAccountType,
  pendingSettlement: Option.match(s.settlePendingAfter, {
    onNone: () => undefined,
    onSome: (after) => ({
      after: after.value,
      failedShare: Option.getOrElse(Option.map(s.settleFailedShare, (share) => share.value), () => 0)
    })
  })
})
