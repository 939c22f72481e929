/**
 * How a command ends: the exit code by kind of failure, and the one sentence a person reads.
 * Every failure is turned into a `Failure` here, in one place, so the commands only fail with typed
 * errors and never print them.
 *
 * @internal
 */
import type { BrokerError } from "@broker-history/client"
import { BrokerConfig, HttpProxy } from "@broker-history/client"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as DatabaseName from "../sync/store/DatabaseName.js"

/**
 * The exit codes, one per kind of failure: 0 done, 1 other, 2 usage, 3 authentication, 4 network,
 * 5 incomplete history.
 */
export const codes = {
  /**
   * Done (also: the reader of stdout went away, as with `| head`; a command whose clean stop is a
   * signal, `sync --follow` and `serve`, stopped by SIGINT/SIGTERM). Work that a signal cut short
   * ends with 130 or 143 instead (`interruptedCode`).
   */
  ok: 0,
  /** The service refused or failed, the database or the output file failed, or anything unexpected. */
  other: 1,
  /** A bad flag, flag value, variable value or query: fix the command line. */
  usage: 2,
  /** Credentials missing or refused (API key, secret key, permission). */
  authentication: 3,
  /** The service could not be reached (connection, timeout) after every retry. */
  network: 4,
  /**
   * The history is incomplete: the service did not serve every record of a crowded millisecond
   * (`IncompleteHistory`). With `--on-incomplete warn` the command finished without them (each named
   * in a warning); otherwise it stopped there. Either way running it again meets the same millisecond.
   */
  incomplete: 5
} as const

/** A kind of failure: what decides the exit code. */
export type Kind = Exclude<keyof typeof codes, "ok">

/**
 * A bad flag value or flag combination found by a command (the parser's own errors are reported by
 * `@effect/cli`): exit code 2.
 */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/**
 * The command ended in failure and has been reported on stderr; `code` is the exit code the program
 * ends with.
 */
export class Failure extends Data.TaggedError("CommandFailure")<{ readonly code: number }> {}

/**
 * A command with `--on-incomplete warn` finished, but its streams went on without every record of
 * `milliseconds` crowded milliseconds (each named in a warning on stderr): exit code 5.
 */
export class IncompleteRun extends Data.TaggedError("IncompleteRun")<{ readonly milliseconds: number }> {
  override get message(): string {
    const n = this.milliseconds
    return `finished, but the history is incomplete: the service did not serve every record of ${n} crowded ${
      n === 1 ? "millisecond" : "milliseconds"
    } (each named in a warning above); raise BROKER_MAX_PAGES_PER_MILLISECOND where a warning says PageLimit, ` +
      "otherwise report it to the service"
  }
}

/**
 * The reader of stdout went away (`EPIPE`, as with `| head -1`): the command stops quietly with exit
 * code 0.
 */
export class PipeClosed extends Data.TaggedError("PipeClosed")<{}> {}

/**
 * The exit codes of work that a signal cut short, by the shell's convention (128 + the signal's
 * number): 130 for SIGINT (Ctrl-C), 143 for SIGTERM (`kill`, systemd, `docker stop`).
 */
export const signalCodes = { SIGINT: 130, SIGTERM: 143 } as const

/** Whether a command's work was cut short by an interruption (see `interrupted`): one program, one command. */
let cutShort = false

/**
 * Says that an interruption (SIGINT/SIGTERM) cut the command's work short: writes
 * `broker-history: interrupted: <what>` on stderr, and the program then ends with 130 or 143
 * (`interruptedCode`) instead of 0. A command calls it where it knows what was left incomplete (the
 * export's output does); a command whose clean stop is a signal (`sync --follow`, `serve`) does not.
 */
export const interrupted = (what: string): Effect.Effect<void> =>
  Effect.sync(() => {
    cutShort = true
    process.stderr.write(`broker-history: interrupted: ${what}\n`)
  })

/**
 * The exit code of an interrupted program, given the signal that stopped it: 130 (SIGINT) or 143
 * (SIGTERM) once `interrupted` said the work was cut short (1 when no signal was received), 0
 * otherwise: a clean stop. `main` gives it to `CommandLine.runMain`.
 */
export const interruptedCode = (signal: keyof typeof signalCodes | undefined): number =>
  !cutShort ? codes.ok : signal === undefined ? codes.other : signalCodes[signal]

/** Flags that stand in for the client's environment variables, for messages. */
const flagOfVariable: Record<string, string> = {
  [BrokerConfig.env.baseUrl]: "--base-url",
  [BrokerConfig.env.apiKey]: "--api-key",
  [BrokerConfig.env.secretKey]: "--secret-key",
  [BrokerConfig.env.recvWindow]: "--recv-window",
  [BrokerConfig.env.rateLimit]: "--rate-limit",
  [BrokerConfig.env.rateLimitInterval]: "--rate-limit-interval",
  [BrokerConfig.env.requestTimeout]: "--request-timeout",
  [BrokerConfig.env.maxRetries]: "--max-retries",
  [BrokerConfig.env.onIncomplete]: "--on-incomplete",
  [HttpProxy.env.proxy]: "--proxy"
}

const variableText = (name: string): string => {
  const flag = flagOfVariable[name]
  return flag === undefined ? name : `${name} (or ${flag})`
}

const brokerTags = new Set([
  "InvalidQuery",
  "AuthenticationError",
  "TimestampRejected",
  "RateLimited",
  "ServerError",
  "ApiError",
  "TransportError",
  "ResponseDecodeError",
  "IncompleteHistory",
  "SubAccountListTooLong"
])

const isBrokerError = (u: unknown): u is BrokerError.BrokerError =>
  typeof u === "object" && u !== null && "_tag" in u && brokerTags.has(String(u._tag))

const withoutPeriod = (text: string) => text.replace(/\.\s*$/, "")

const configSentence = (error: ConfigError.ConfigError): { kind: Kind; message: string } => {
  // The client's settings: missing credentials are an authentication problem, anything else a usage one.
  const first = firstConfigLeaf(error)
  const name = first.path.join(".")
  if (first._op === "MissingData") {
    const credential = name === BrokerConfig.env.apiKey || name === BrokerConfig.env.secretKey
    return {
      kind: credential ? "authentication" : "usage",
      message: `${variableText(name)} is not set: set it to your ${
        name === BrokerConfig.env.apiKey
          ? "API key"
          : name === BrokerConfig.env.secretKey
          ? "API secret key"
          : "value"
      } (see --help)`
    }
  }
  const credential = name === BrokerConfig.env.apiKey || name === BrokerConfig.env.secretKey
  const message = "message" in first ? withoutPeriod(String(first.message)) : String(first)
  return {
    kind: credential ? "authentication" : "usage",
    message: name === "" ? message : `${variableText(name)}: ${message.replace(`${name} `, "")}`
  }
}

type Leaf = Exclude<ConfigError.ConfigError, ConfigError.And | ConfigError.Or>

const firstConfigLeaf = (error: ConfigError.ConfigError): Leaf => {
  switch (error._op) {
    case "And":
    case "Or":
      return firstConfigLeaf(error.left)
    default:
      return error
  }
}

/** The kind and the one sentence (what happened, what to do) for any failure a command can meet. */
export const describe = (error: unknown): { readonly kind: Kind; readonly message: string } => {
  if (error instanceof UsageError) return { kind: "usage", message: error.message }
  if (error instanceof IncompleteRun) return { kind: "incomplete", message: error.message }
  if (ConfigError.isConfigError(error)) return configSentence(error)
  if (isBrokerError(error)) {
    switch (error._tag) {
      case "InvalidQuery":
        return { kind: "usage", message: error.message }
      case "AuthenticationError":
        return { kind: "authentication", message: error.message }
      case "TransportError":
        // A redirect reached a service, the wrong one: a setting to fix, not a network to wait for.
        return error.reason === "Redirect"
          ? { kind: "other", message: error.message }
          : { kind: "network", message: `${withoutPeriod(error.message)}; giving up.` }
      case "IncompleteHistory":
        return {
          kind: "incomplete",
          message: `${withoutPeriod(error.message)}; on the command line: --on-incomplete warn.`
        }
      default:
        return { kind: "other", message: error.message }
    }
  }
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tag = String(error._tag)
    const message = "message" in error ? String(error.message) : tag
    switch (tag) {
      case "SqlError":
      case "MigrationError": {
        // The driver's own reason (`database is locked`, a PostgreSQL error), which the SqlError wraps.
        const why = DatabaseName.reason(error, [process.env.PGPASSWORD])
        return {
          kind: "other",
          message: `the database failed (${why}); ${
            /database is locked|SQLITE_BUSY/i.test(why)
              ? "another process is writing to the SQLite file: run one sync per database, or stop the other writer"
              : "check --db or BROKER_DB (path or URL, permissions, the server is running)"
          }`
        }
      }
      case "OutputError":
      case "SyncSetupError":
      case "ReferenceServerStartError":
        return { kind: "other", message }
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return {
    kind: "other",
    message: `unexpected failure (${withoutPeriod(message)}); run again with --verbose and report the output`
  }
}

/**
 * Reports a command's failure on stderr (one sentence; the full cause too with `verbose`) and turns it
 * into a `Failure` with the exit code; a closed stdout succeeds. An interruption is not a failure and
 * is not reported here: a command says what it cut short with `interrupted`.
 */
export const report = (verbose: boolean) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<
  A | void,
  Failure,
  R
> =>
  Effect.catchAllCause(effect, (cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.void
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure) && failure.value instanceof PipeClosed) return Effect.void
    const error = Option.isSome(failure) ? failure.value : Cause.squash(cause)
    const { kind, message } = describe(error)
    return Effect.sync(() => {
      process.stderr.write(`broker-history: ${message}\n`)
      if (verbose) process.stderr.write(Cause.pretty(cause, { renderErrorCause: true }) + "\n")
    }).pipe(Effect.zipRight(Effect.fail(new Failure({ code: codes[kind] }))))
  })
