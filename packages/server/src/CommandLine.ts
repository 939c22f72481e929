/**
 * The server program's command line, defined once with `@effect/cli`: every flag with its
 * `BROKER_SERVER_*` environment variable, its default and its check, read into
 * `ReferenceServer.Options`. The server program (`main.ts`) and `broker-history serve` both run
 * `options`, so they accept the same flags and variables with the same defaults, rules and
 * messages, and their `--help` lists them from the same descriptions.
 *
 * This module stays light (it loads neither the service nor SQLite): the CLI imports it to build
 * `serve` and loads the service only when `serve` runs.
 *
 * @since 0.1.0
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Net from "node:net"
import * as Accounts from "./Accounts.js"
import type { ApiKey } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import type * as ReferenceServer from "./ReferenceServer.js"

/**
 * True when `host` is this machine's loopback only: `localhost`, `127.0.0.0/8`, `::1` (or an
 * IPv4-mapped `127.x`); anything else, `0.0.0.0` and `::` included, may be reachable from elsewhere.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.isLoopback("127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("[::1]"), true)
 * assert.strictEqual(CommandLine.isLoopback("::ffff:127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("0.0.0.0"), false)
 * assert.strictEqual(CommandLine.isLoopback("::"), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isLoopback = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (bare.toLowerCase() === "localhost") return true
  if (Net.isIPv4(bare)) return bare.startsWith("127.")
  if (!Net.isIPv6(bare)) return false
  // The URL parser writes an IPv6 address in its one canonical form.
  const canonical = new URL(`http://[${bare}]/`).hostname
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical)
}

// ---------------------------------------------------------------------------------------------------
// Reading one setting
// ---------------------------------------------------------------------------------------------------

/** A text as given, with where it came from: `--port` or `BROKER_SERVER_PORT`, for the messages. */
interface Given<A> {
  readonly from: string
  readonly value: A
}

/** A check of a text: the value, or what the text must be ("must be an integer >= 0, got …"). */
type Check<A> = (text: string) => Either.Either<A, string>

const usage = (...lines: ReadonlyArray<string>): ValidationError.ValidationError =>
  ValidationError.invalidValue(HelpDoc.blocks(lines.map((line) => HelpDoc.p(line))))

/**
 * A `BROKER_SERVER_*` variable as text; empty or blank counts as unset (`MissingData`), so that the
 * option falls back to its default.
 */
const variable = (name: string): Config.Config<Given<string>> =>
  Config.string(name).pipe(Config.mapOrFail((text) =>
    text.trim() === ""
      ? Either.left(ConfigError.MissingData([], `${name} is empty`))
      : Either.right({ from: name, value: text })
  ))

/**
 * A flag's text, else its variable's: checked by `check`, whose complaint is prefixed with the
 * flag or the variable, whichever was given. (A variable's value is checked here rather than in its
 * `Config`: `@effect/cli` would print a failed `Config` as a `ConfigError`, not as our sentence.)
 */
const setting = <A>(flag: string, variableName: string, check: Check<A>): Options.Options<A> =>
  Options.text(flag).pipe(
    Options.map((text): Given<string> => ({ from: `--${flag}`, value: text })),
    Options.withFallbackConfig(variable(variableName)),
    Options.mapEffect((given) =>
      Either.match(check(given.value), {
        onLeft: (problem) => Effect.fail(usage(`${given.from} ${problem}`)),
        onRight: Effect.succeed
      })
    )
  )

/** Help text: the meaning, then the variable and the default, as every option of the CLI writes them. */
const describe = (text: string, variableName: string, fallback: string): string =>
  `${text} (env ${variableName}, default ${fallback})`

const integerText = /^-?[0-9]{1,15}$/

const integer = (min: number, max = Number.MAX_SAFE_INTEGER): Check<number> => (text) => {
  const n = integerText.test(text) ? Number(text) : NaN
  if (!(n >= min)) return Either.left(`must be an integer >= ${min}, got ${JSON.stringify(text)}`)
  if (n > max) return Either.left(`must be at most ${max}, got ${n}`)
  return Either.right(n)
}

const probability: Check<number> = (text) => {
  const p = /^[0-9]*\.?[0-9]+$/.test(text) ? Number(text) : NaN
  return p >= 0 && p <= 1
    ? Either.right(p)
    : Either.left(`must be a probability from 0 to 1, got ${JSON.stringify(text)}`)
}

const text: Check<string> = Either.right

const truth: Check<boolean> = (value) => {
  if (/^(1|true|yes|on)$/i.test(value)) return Either.right(true)
  if (/^(0|false|no|off)$/i.test(value)) return Either.right(false)
  return Either.left(`must be true or false (or 1/0, yes/no, on/off), got ${JSON.stringify(value)}`)
}

/** An integer setting with its default. */
const integerSetting = (
  flag: string,
  variableName: string,
  bounds: { readonly min: number; readonly max?: number },
  fallback: number,
  meaning: string
): Options.Options<number> =>
  setting(flag, variableName, integer(bounds.min, bounds.max)).pipe(
    Options.withDefault(fallback),
    Options.withPseudoName("INTEGER"),
    Options.withDescription(describe(meaning, variableName, String(fallback)))
  )

/** A fault probability, 0 (never, the default) to 1 (always). */
const probabilitySetting = (flag: string, variableName: string, meaning: string): Options.Options<number> =>
  setting(flag, variableName, probability).pipe(
    Options.withDefault(0),
    Options.withPseudoName("0..1"),
    Options.withDescription(describe(meaning, variableName, "0"))
  )

const textSetting = (
  flag: string,
  variableName: string,
  pseudoName: string,
  fallback: string,
  meaning: string
): Options.Options<string> =>
  setting(flag, variableName, text).pipe(
    Options.withDefault(fallback),
    Options.withPseudoName(pseudoName),
    Options.withDescription(describe(meaning, variableName, fallback))
  )

// ---------------------------------------------------------------------------------------------------
// The settings that are more than one value
// ---------------------------------------------------------------------------------------------------

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
    "longest endTime - startTime of a transfer query, in ms",
    "BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS",
    "none"
  ))
)

// The demo key's secret is published, so off loopback it would let anyone who reaches the port
// read the history: there, a key must be chosen on purpose.
const demoKeyOffLoopback = (from: string, host: string): string =>
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

// ---------------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------------

const settings = Options.all({
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
  latency: integerSetting(
    "fault-latency-ms",
    "BROKER_SERVER_FAULT_LATENCY_MS",
    { min: 0 },
    0,
    "latency added to every answer, in ms (requests are checked and rate-limited when they arrive)"
  ),
  noLog
})

/**
 * The server program's options: every flag with its `BROKER_SERVER_*` variable (read when the flag is
 * absent; empty counts as absent) and its default, checked (ports, integers, probabilities from 0 to
 * 1, keys `apiKey:secretKey:PERMS`), read into `ReferenceServer.Options`. A `--host` other than
 * loopback is refused unless a key is given (`--key` or `BROKER_SERVER_KEYS`): without one, the
 * service would accept the demo key, whose secret is published. A problem is a usage error that names
 * the flag or the variable given and says what the value must be; a key's text is never repeated.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { CliConfig, HelpDoc, Options } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { ConfigProvider, Effect, Either } from "effect"
 *
 * // The options as `Command.run` reads them: flags, then the variables of the configuration provider.
 * const read = (args: ReadonlyArray<string>, env: Record<string, string>) =>
 *   Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
 *     Effect.map(([, , options]) => options),
 *     Effect.mapError((error) => HelpDoc.toAnsiText(error.error).trim()),
 *     Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
 *     Effect.provide(NodeContext.layer),
 *     Effect.either,
 *     Effect.runSync
 *   )
 *
 * const options = Either.getOrThrow(
 *   read(["--port", "0", "--fault-drop", "0.1"], { BROKER_SERVER_PORT: "9000", BROKER_SERVER_SEED: "7" })
 * )
 * assert.strictEqual(options.port, 0) // the flag wins over BROKER_SERVER_PORT
 * assert.strictEqual(options.seed?.seed, 7) // the variable stands in for --seed
 * assert.strictEqual(options.faults?.drop, 0.1)
 * assert.strictEqual(options.logRequests, true)
 *
 * assert.deepStrictEqual(read(["--port", "99999"], {}), Either.left("--port must be at most 65535, got 99999"))
 * assert.deepStrictEqual(
 *   read([], { BROKER_SERVER_FAULT_HANG: "2" }),
 *   Either.left(`BROKER_SERVER_FAULT_HANG must be a probability from 0 to 1, got "2"`)
 * )
 * // Off loopback, the published demo key is refused: a key must be chosen.
 * assert.ok(Either.isLeft(read(["--host", "0.0.0.0"], {})))
 * assert.ok(Either.isRight(read(["--host", "0.0.0.0", "--key", "k1:s1:SPOT_DEPOSIT_READ"], {})))
 * ```
 *
 * @since 0.1.0
 * @category options
 */
export const options: Options.Options<ReferenceServer.Options> = settings.pipe(
  Options.mapEffect((s) =>
    Option.isNone(s.keys) && !isLoopback(s.host.value)
      ? Effect.fail(usage(demoKeyOffLoopback(s.host.from, s.host.value)))
      : Effect.succeed<ReferenceServer.Options>({
        host: s.host.value,
        port: s.port,
        database: s.database,
        keys: Option.getOrElse(s.keys, () => [ApiKeys.demo]),
        seed: s.transfers + s.deposits === 0 ? undefined : {
          seed: s.seed,
          transfers: s.transfers,
          deposits: s.deposits,
          years: s.years,
          subAccounts: s.subAccounts
        },
        rateLimit: { limit: s.rateLimit, window: s.rateWindow },
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
        masterAccount: s.masterAccount
      })
  )
)

/**
 * What the server program does, for its `--help` (and that of `broker-history serve`): the service,
 * the demo key it accepts unless `--key` is given, and why a `--host` off loopback needs a key.
 *
 * @example
 * ```ts
 * import { ApiKeys, CommandLine } from "@broker-history/server"
 *
 * assert.ok(CommandLine.description.includes(`apiKey ${ApiKeys.demo.apiKey}`))
 * assert.ok(CommandLine.description.includes("BROKER_SERVER_"))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const description: string =
  "The reference service: both history endpoints over SQLite, with API keys, a rate limit and fault " +
  "injection, until SIGINT/SIGTERM. Signed requests use the public demo key unless --key is given: " +
  `apiKey ${ApiKeys.demo.apiKey}, secretKey ${ApiKeys.demo.secretKey}. That secret is published, so a ` +
  "--host other than loopback (127.0.0.1, localhost, ::1) is refused unless a key is given (--key or " +
  "BROKER_SERVER_KEYS). Every flag has a BROKER_SERVER_* variable, read when the flag is absent."

/**
 * Runs `self` with the command line parser's own messages (`@effect/cli` writes a usage error
 * through `Console.error`) rendered by `render`, one call per message, its blank lines dropped: how
 * `main.ts` and `broker-history` word their usage errors.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Console, Effect } from "effect"
 *
 * const written: Array<string> = []
 * const stderrWrite = process.stderr.write
 * process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write
 * try {
 *   Effect.runSync(Console.error("Expected a port\n\nagain").pipe(CommandLine.renderUsageErrors((lines) => lines.join("|"))))
 * } finally {
 *   process.stderr.write = stderrWrite
 * }
 * assert.deepStrictEqual(written, ["Expected a port|again\n"])
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const renderUsageErrors =
  (render: (lines: ReadonlyArray<string>) => string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.consoleWith((current) =>
      Effect.withConsole(self, {
        ...current,
        error: (...args: ReadonlyArray<unknown>) =>
          Effect.sync(() => {
            const lines = args.map(String).join(" ").split("\n").filter((line) => line.trim() !== "")
            process.stderr.write(render(lines) + "\n")
          })
      })
    )
