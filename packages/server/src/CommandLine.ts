/**
 * The server program's flags and environment variables, read into `ReferenceServer.Options`. One
 * table drives both parsing and `--help`, so the help text documents every switch.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Net from "node:net"
import { parseArgs } from "node:util"
import * as Accounts from "./Accounts.js"
import type { ApiKey } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import type { FaultOptions } from "./Faults.js"
import type { Options } from "./ReferenceServer.js"

type Kind = "text" | "integer" | "probability" | "boolean" | "keys"

interface Switch {
  readonly flag: string
  readonly env: string
  readonly kind: Kind
  readonly fallback: string
  readonly description: string
}

/**
 * Every switch of the server program: its flag, environment variable, kind, default and meaning (flags
 * win over the environment); `parse` and `help` are both driven by this table.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * const port = CommandLine.switches.find((s) => s.flag === "port")
 * assert.deepStrictEqual([port?.env, port?.fallback], ["BROKER_SERVER_PORT", "8080"])
 * assert.ok(CommandLine.switches.every((s) => s.env.startsWith("BROKER_SERVER_")))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const switches: ReadonlyArray<Switch> = [
  {
    flag: "host",
    env: "BROKER_SERVER_HOST",
    kind: "text",
    fallback: "127.0.0.1",
    description: "address to listen on; any address but loopback (127.0.0.1, localhost, ::1) needs --key"
  },
  {
    flag: "port",
    env: "BROKER_SERVER_PORT",
    kind: "integer",
    fallback: "8080",
    description: "port (0: any free port)"
  },
  {
    flag: "database",
    env: "BROKER_SERVER_DATABASE",
    kind: "text",
    fallback: ":memory:",
    description: "SQLite file path, or :memory:"
  },
  {
    flag: "seed",
    env: "BROKER_SERVER_SEED",
    kind: "integer",
    fallback: "42",
    description: "seed of the generated history"
  },
  {
    flag: "transfers",
    env: "BROKER_SERVER_TRANSFERS",
    kind: "integer",
    fallback: "100000",
    description: "transfers to generate into an empty database (0 and --deposits 0: none)"
  },
  {
    flag: "deposits",
    env: "BROKER_SERVER_DEPOSITS",
    kind: "integer",
    fallback: "20000",
    description: "deposits to generate into an empty database"
  },
  { flag: "years", env: "BROKER_SERVER_YEARS", kind: "integer", fallback: "2", description: "years the history spans" },
  {
    flag: "sub-accounts",
    env: "BROKER_SERVER_SUB_ACCOUNTS",
    kind: "integer",
    fallback: "40",
    description: "sub-accounts in the history"
  },
  {
    flag: "master-account",
    env: "BROKER_SERVER_MASTER_ACCOUNT",
    kind: "text",
    fallback: Accounts.masterAccount,
    description: "name answered for the master account"
  },
  {
    flag: "key",
    env: "BROKER_SERVER_KEYS",
    kind: "keys",
    fallback: "the demo key",
    description: "API key as apiKey:secretKey:PERM1,PERM2 (repeat the flag; in the variable, separate keys "
      + "with spaces). Permissions: SPOT_TRANSFER_READ, SPOT_DEPOSIT_READ"
  },
  {
    flag: "rate-limit",
    env: "BROKER_SERVER_RATE_LIMIT",
    kind: "integer",
    fallback: "500",
    description: "requests per API key per rate window"
  },
  {
    flag: "rate-window-ms",
    env: "BROKER_SERVER_RATE_WINDOW_MS",
    kind: "integer",
    fallback: "10000",
    description: "rate window in milliseconds"
  },
  {
    flag: "max-window-transfers-ms",
    env: "BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS",
    kind: "integer",
    fallback: "none",
    description: "longest endTime - startTime of a transfer query, in ms"
  },
  {
    flag: "max-window-deposits-ms",
    env: "BROKER_SERVER_MAX_WINDOW_DEPOSITS_MS",
    kind: "integer",
    fallback: "864000000",
    description: "longest endTime - startTime of a deposit query, in ms (10 days)"
  },
  {
    flag: "fault-seed",
    env: "BROKER_SERVER_FAULT_SEED",
    kind: "integer",
    fallback: "1",
    description: "seed of the fault decisions"
  },
  {
    flag: "fault-server-error",
    env: "BROKER_SERVER_FAULT_SERVER_ERROR",
    kind: "probability",
    fallback: "0",
    description: "probability of a 500 answer"
  },
  {
    flag: "fault-rate-limited",
    env: "BROKER_SERVER_FAULT_RATE_LIMITED",
    kind: "probability",
    fallback: "0",
    description: "probability of a 429 answer"
  },
  {
    flag: "fault-retry-after",
    env: "BROKER_SERVER_FAULT_RETRY_AFTER",
    kind: "integer",
    fallback: "1",
    description: "Retry-After seconds of injected 429 answers"
  },
  {
    flag: "fault-drop",
    env: "BROKER_SERVER_FAULT_DROP",
    kind: "probability",
    fallback: "0",
    description: "probability of dropping the connection without an answer"
  },
  {
    flag: "fault-hang",
    env: "BROKER_SERVER_FAULT_HANG",
    kind: "probability",
    fallback: "0",
    description: "probability of never answering"
  },
  {
    flag: "fault-truncate",
    env: "BROKER_SERVER_FAULT_TRUNCATE",
    kind: "probability",
    fallback: "0",
    description: "probability of cutting the body short"
  },
  {
    flag: "fault-latency-ms",
    env: "BROKER_SERVER_FAULT_LATENCY_MS",
    kind: "integer",
    fallback: "0",
    description: "latency added to every answer, in ms (requests are checked and rate-limited when they arrive)"
  },
  {
    flag: "log",
    env: "BROKER_SERVER_LOG",
    kind: "boolean",
    fallback: "true",
    description: "log one line per request (method, path, status, duration); --no-log or 0/false to silence"
  }
]

/**
 * The `--help` text: the demo key, the usage line, and every switch with its variable and default.
 *
 * @example
 * ```ts
 * import { ApiKeys, CommandLine } from "@broker-history/server"
 *
 * assert.ok(CommandLine.help.includes("  --port <value>\n      port (0: any free port)\n      env BROKER_SERVER_PORT, default 8080"))
 * assert.ok(CommandLine.help.includes(ApiKeys.demo.secretKey))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const help: string = [
  "broker-history reference server: both history endpoints over SQLite, with API keys, a rate limit",
  "and fault injection. Signed requests use the demo key unless --key is given:",
  `  apiKey ${ApiKeys.demo.apiKey}  secretKey ${ApiKeys.demo.secretKey} (public, documented)`,
  "",
  "Usage: tsx packages/server/src/main.ts [flags]      (or: pnpm --filter @broker-history/server start -- [flags])",
  "",
  "Flags (environment variable, default):",
  ...switches.map((s) =>
    `  --${s.flag}${
      s.kind === "boolean" ? "" : " <value>"
    }\n      ${s.description}\n      env ${s.env}, default ${s.fallback}`
  ),
  "  --help\n      print this text and exit",
  ""
].join("\n")

/**
 * What the command line asks for: the help text, or a run with the server's options.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const describe = (command: CommandLine.Command): string =>
 *   command._tag === "Help" ? "print the help" : `serve on port ${command.options.port}`
 * assert.strictEqual(describe(Either.getOrThrow(CommandLine.parse(["--help"], {}))), "print the help")
 * assert.strictEqual(describe(Either.getOrThrow(CommandLine.parse([], {}))), "serve on port 8080")
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Command = { readonly _tag: "Help" } | { readonly _tag: "Run"; readonly options: Options }

const integerText = /^-?[0-9]{1,15}$/

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

// The demo key's secret is published, so off loopback it would let anyone who reaches the port
// read the history: there, a key must be chosen on purpose.
const demoKeyOffLoopback = (host: string): string =>
  `--host ${host} is not a loopback address, and without --key the service accepts the demo key, whose ` +
  "secret is published: anyone who can reach the port could read the history. Pass your own key with " +
  "--key apiKey:secretKey:PERMS (or BROKER_SERVER_KEYS), or bind --host 127.0.0.1"

/**
 * Reads flags (`argv` without the node and script entries) over environment variables into a
 * `Command`, or every problem found, one line each.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Either } from "effect"
 *
 * const command = Either.getOrThrow(
 *   CommandLine.parse(["--port", "0", "--fault-drop", "0.1"], { BROKER_SERVER_PORT: "9000", BROKER_SERVER_SEED: "7" })
 * )
 * assert.ok(command._tag === "Run")
 * assert.strictEqual(command.options.port, 0) // the flag wins over BROKER_SERVER_PORT
 * assert.strictEqual(command.options.seed?.seed, 7)
 * assert.strictEqual(command.options.faults?.drop, 0.1)
 *
 * assert.deepStrictEqual(CommandLine.parse(["--port", "99999"], {}), Either.left("--port must be at most 65535, got 99999"))
 * // Off loopback, the published demo key is refused: a key must be chosen.
 * assert.ok(Either.isLeft(CommandLine.parse(["--host", "0.0.0.0"], {})))
 * assert.ok(Either.isRight(CommandLine.parse(["--host", "0.0.0.0", "--key", "k1:s1:SPOT_DEPOSIT_READ"], {})))
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse = (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<Command, string> => {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...argv],
      allowNegative: true,
      options: {
        help: { type: "boolean" },
        ...Object.fromEntries(
          switches.map((s) =>
            [
              s.flag,
              s.kind === "boolean" ? { type: "boolean" } : { type: "string", multiple: s.kind === "keys" }
            ] as const
          )
        )
      }
    })
  } catch (error) {
    return Either.left(error instanceof Error ? error.message : String(error))
  }
  if (parsed.positionals.length > 0) return Either.left(`unexpected argument ${parsed.positionals[0]}`)
  if (parsed.values.help === true) return Either.right({ _tag: "Help" })

  const errors: Array<string> = []
  const raw = (s: Switch): string | ReadonlyArray<string> | boolean | undefined => {
    const flag = parsed.values[s.flag] as string | ReadonlyArray<string> | boolean | undefined
    if (flag !== undefined) return flag
    const fromEnv = env[s.env]
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv
  }
  const find = (flag: string): Switch => switches.find((s) => s.flag === flag)!
  const text = (flag: string): string | undefined => {
    const value = raw(find(flag))
    return typeof value === "string" ? value : undefined
  }
  const integer = (flag: string, min: number): number | undefined => {
    const value = text(flag)
    if (value === undefined) return undefined
    const n = integerText.test(value) ? Number(value) : NaN
    if (!(n >= min)) {
      errors.push(`--${flag} must be an integer >= ${min}, got ${JSON.stringify(value)}`)
      return undefined
    }
    return n
  }
  const probability = (flag: string): number | undefined => {
    const value = text(flag)
    if (value === undefined) return undefined
    const p = /^[0-9]*\.?[0-9]+$/.test(value) ? Number(value) : NaN
    if (!(p >= 0 && p <= 1)) {
      errors.push(`--${flag} must be a probability from 0 to 1, got ${JSON.stringify(value)}`)
      return undefined
    }
    return p
  }
  const boolean = (flag: string): boolean | undefined => {
    const value = raw(find(flag))
    if (typeof value === "boolean" || value === undefined) return value
    if (typeof value === "string" && /^(1|true|yes|on)$/i.test(value)) return true
    if (typeof value === "string" && /^(0|false|no|off)$/i.test(value)) return false
    errors.push(`--${flag} must be true or false, got ${JSON.stringify(value)}`)
    return undefined
  }
  const keys = (): ReadonlyArray<ApiKey> | undefined => {
    const value = raw(find("key"))
    if (value === undefined || typeof value === "boolean") return undefined
    const list = typeof value === "string" ? value.split(/\s+/).filter((k) => k.length > 0) : value
    const out: Array<ApiKey> = []
    for (const item of list) {
      const key = ApiKeys.parse(item)
      // The message never repeats the key text: it holds a secret.
      if (Either.isLeft(key)) errors.push(`--key: ${key.left}`)
      else out.push(key.right)
    }
    return out.length === 0 ? undefined : out
  }

  const transfers = integer("transfers", 0) ?? 100_000
  const deposits = integer("deposits", 0) ?? 20_000
  const faults: FaultOptions = {
    seed: integer("fault-seed", 0),
    serverError: probability("fault-server-error"),
    rateLimited: probability("fault-rate-limited"),
    retryAfterSeconds: integer("fault-retry-after", 1),
    drop: probability("fault-drop"),
    hang: probability("fault-hang"),
    truncate: probability("fault-truncate"),
    latency: integer("fault-latency-ms", 0)
  }
  const maxTransfers = integer("max-window-transfers-ms", 1)
  const maxDeposits = integer("max-window-deposits-ms", 1)
  const host = text("host") ?? "127.0.0.1"
  if (raw(find("key")) === undefined && !isLoopback(host)) errors.push(demoKeyOffLoopback(host))
  const options: Options = {
    host,
    port: integer("port", 0) ?? 8080,
    database: text("database") ?? ":memory:",
    keys: keys() ?? [ApiKeys.demo],
    seed: transfers + deposits === 0 ? undefined : {
      seed: integer("seed", 0) ?? 42,
      transfers,
      deposits,
      years: integer("years", 1) ?? 2,
      subAccounts: integer("sub-accounts", 2) ?? 40
    },
    rateLimit: { limit: integer("rate-limit", 1) ?? 500, window: integer("rate-window-ms", 1) ?? 10_000 },
    maxWindow: { transfers: maxTransfers, deposits: maxDeposits },
    faults,
    logRequests: boolean("log") ?? true,
    masterAccount: text("master-account") ?? Accounts.masterAccount
  }
  const port = options.port ?? 0
  if (port > 65535) errors.push(`--port must be at most 65535, got ${port}`)
  return errors.length > 0 ? Either.left(errors.join("\n")) : Either.right({ _tag: "Run", options })
}
