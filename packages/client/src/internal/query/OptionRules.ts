/**
 * What the stream options' schemas (each line's `line/StreamQuery.ts`) share: the error of a broken
 * option (`InvalidQuery`, every one the client builds is built here), how the first failure of a
 * decoding names the option as the caller wrote it, the options decoded, their bounds and defaults,
 * and the rules' words. The schemas themselves are the line's.
 *
 * @internal
 */
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import { InvalidQuery } from "../../BrokerError.js"
import type * as Checkpoint from "../../Checkpoint.js"
import * as StreamOptions from "../../StreamOptions.js"
import type { QueryViolation } from "../line/Domain.js"
import * as Results from "../line/Results.js"

/** The `InvalidQuery` of a broken rule. */
export const invalid = (endpoint: string, parameter: string, rule: string, fix?: string): InvalidQuery =>
  new InvalidQuery(fix === undefined ? { endpoint, parameter, rule } : { endpoint, parameter, rule, fix })

/** The `InvalidQuery` of a page query's broken rule (the domain's `QueryViolation`). */
export const ofViolation = (endpoint: string) => (violation: QueryViolation.QueryViolation): InvalidQuery =>
  invalid(endpoint, violation.parameter, violation.rule)

/** An `InvalidQuery` of the `index`th followed stream's query names that stream: `streams[2].until`. */
export const ofStream = (index: number) => <E>(error: E): E | InvalidQuery =>
  error instanceof InvalidQuery
    ? invalid(error.endpoint, `streams[${index}].${error.parameter}`, error.rule, error.fix)
    : error

/**
 * How the errors of a set of options name them: `root` is what the input is called when it is not an
 * object of options, `names` the options at each level (the top is `""`), `unknown` the rule of an
 * option that is not one of them, and `elsewhere` the rule and fix of an option of another stream
 * given here (`follow` of a stream that does not follow).
 */
export interface Described {
  readonly root: string
  readonly names: Readonly<Record<string, ReadonlyArray<string>>>
  readonly unknown: string
  readonly elsewhere: Readonly<Record<string, { readonly rule: string; readonly fix: string }>>
}

/** The first failure of a decoding: where (the options' path), and a missing, unexpected or broken option. */
export interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly kind: "Missing" | "Unexpected" | "Broken"
  /** The rule a broken option states. */
  readonly rule: string
}

/** The input was not an object of options. */
export const notAnObject = (described: Described, endpoint: string): InvalidQuery =>
  invalid(endpoint, described.root, "must be an object of options")

/** The first failure as the `InvalidQuery` of `endpoint`, naming the option by its path (`follow.interval`). */
export const refusal = (described: Described, endpoint: string, first: Failure | undefined): InvalidQuery => {
  if (first === undefined || first.path.length === 0) return notAnObject(described, endpoint)
  const path = first.path.map(String)
  const parameter = path.join(".")
  if (first.kind === "Unexpected") {
    const level = path.slice(0, -1).join(".")
    const other = level === "" && Object.hasOwn(described.elsewhere, parameter)
      ? described.elsewhere[parameter]
      : undefined
    if (other !== undefined) return invalid(endpoint, parameter, other.rule, other.fix)
    const names = (described.names[level] ?? []).join(", ")
    return level === ""
      ? invalid(endpoint, parameter, described.unknown, `remove it (the options: ${names})`)
      : invalid(endpoint, parameter, `is not an option of ${level}`, `remove it (the options of ${level}: ${names})`)
  }
  return invalid(endpoint, parameter, first.kind === "Missing" ? "is required" : first.rule)
}

/** The range and reading options, decoded: date-times in Unix ms, with their defaults. */
export interface RangeOptions {
  readonly since?: number | undefined
  readonly until?: number | undefined
  readonly resume?: Checkpoint.Checkpoint | undefined
  readonly limit: number
  readonly concurrency: number
}

/** `follow`, decoded: durations in ms, the settlement window's default applied. */
export interface FollowOptions {
  readonly interval: number
  readonly settlement: number
}

/** A full-history stream's query, decoded: its filters, range options and `follow`. */
export interface Decoded<F> {
  readonly filters: F
  readonly range: RangeOptions
  readonly follow: FollowOptions | undefined
}

/** A query's decoder: the decoded query, or its first broken rule. */
export type Decoder<A> = (input: unknown) => Results.Result<A, InvalidQuery>

/**
 * The queries of one history's streams: `records` (`transfers` / `deposits`), `changes` (with
 * `follow`) and `followed` (a stream of `followTransfers` / `followDeposits`, which follow it).
 */
export interface History<F> {
  readonly records: Decoder<Decoded<F>>
  readonly changes: Decoder<Decoded<F>>
  readonly followed: Decoder<Decoded<F>>
}

/** The range options' names, in the order the errors list them. */
export const rangeNames: ReadonlyArray<string> = ["since", "until", "resume", "limit", "concurrency"]

/** `follow`'s options. */
export const followNames: ReadonlyArray<string> = ["interval", "settlement"]

/** The follow scheduler's options (`followTransfers` / `followDeposits` add `settlement`). */
export const scheduleNames: ReadonlyArray<string> = ["minInterval", "maxInterval", "concurrency"]

/**
 * A decoded query split into its filters (those given), its range options with their defaults, and
 * `follow` with its default settlement window.
 */
export const split = <F>(
  query: Record<string, unknown>,
  filterNames: ReadonlyArray<string>,
  maxLimit: number
): Decoded<F> => {
  const filters: Record<string, unknown> = {}
  for (const name of filterNames) if (query[name] !== undefined) filters[name] = query[name]
  const { concurrency, limit, resume, since, until } = query as Partial<RangeOptions>
  const follow = query.follow as { readonly interval: number; readonly settlement?: number | undefined } | undefined
  return {
    filters: filters as F,
    range: { since, until, resume, limit: limit ?? maxLimit, concurrency: concurrency ?? 1 },
    follow: follow === undefined
      ? undefined
      : { interval: follow.interval, settlement: follow.settlement ?? defaultSettlement }
  }
}

/** How each set of options names its options in its errors. */
export const described = {
  /** `transfers` / `deposits`, whose filters are `filterNames`. */
  records: (filterNames: ReadonlyArray<string>): Described => ({
    root: "query",
    names: { "": [...filterNames, ...rangeNames] },
    unknown: "is not an option of this stream",
    elsewhere: {
      follow: {
        rule: "is an option of the change streams only",
        fix: "use transferChanges / depositChanges to follow"
      }
    }
  }),
  /** `transferChanges` / `depositChanges`. */
  changes: (filterNames: ReadonlyArray<string>): Described => ({
    root: "query",
    names: { "": [...filterNames, ...rangeNames, "follow"], follow: followNames },
    unknown: "is not an option of this stream",
    elsewhere: {}
  }),
  /** A stream of `followTransfers` / `followDeposits`. */
  followed: (filterNames: ReadonlyArray<string>): Described => ({
    root: "query",
    names: { "": [...filterNames, ...rangeNames] },
    unknown: "is not an option of this stream",
    elsewhere: {
      follow: {
        rule: "is not an option of a followed stream",
        fix: "remove it: every stream is followed, and settlement is an option of followTransfers / followDeposits"
      }
    }
  }),
  /** `FollowScheduler.changes`. */
  schedule: {
    root: "options",
    names: { "": scheduleNames },
    unknown: "is not an option of the follow scheduler",
    elsewhere: {}
  } satisfies Described,
  /** `followTransfers` / `followDeposits`. */
  followMany: {
    root: "options",
    names: { "": [...scheduleNames, "settlement"] },
    unknown: "is not an option of followTransfers / followDeposits",
    elsewhere: {}
  } satisfies Described,
  /** `subAccounts`. */
  subAccounts: {
    root: "options",
    names: { "": ["maxSubAccounts"] },
    unknown: "is not an option of this stream",
    elsewhere: {}
  } satisfies Described
}

/** Most windows a stream fetches ahead. */
export const maxConcurrency = 16

/** Most polls the follow scheduler has in flight. */
export const maxPollsInFlight = 64

/** The settlement window of `follow` when not given, in ms. */
export const defaultSettlement = Duration.toMillis(StreamOptions.defaultSettlement)

/** The follow scheduler's defaults (`FollowScheduler.defaults`). */
export const scheduleDefaults = {
  minInterval: Duration.seconds(1),
  maxInterval: Duration.minutes(5),
  concurrency: 8
} as const

/** The rules' words. */
export const rules = {
  dateTime: "must be a date-time (Date, ISO text, DateTime, date parts or Unix ms)",
  before1970: "must not be before 1970-01-01",
  positiveDuration:
    `must be a positive, finite duration (a Duration, milliseconds as a number, or text such as "30 seconds")`,
  finiteDuration:
    `must be a finite duration, 0 or more (a Duration, milliseconds as a number, or text such as "30 seconds")`,
  checkpoint: "must be a checkpoint { time, ids } from a change stream (time: Unix ms, an integer from 0; ids: texts)",
  follow: "must be an object { interval, settlement }",
  sinceAfterUntil: "must not be after until",
  intervalOrder: (minIntervalMillis: number) =>
    `must not be shorter than minInterval (${Duration.format(Duration.millis(minIntervalMillis))})`
}

/** Date parts (`{ year: 2025, month: 1 }`): at least one, every one of `names` and a whole number. */
const isParts = (input: object, names: ReadonlySet<string>): boolean => {
  const entries = Object.entries(input)
  return Object.getPrototypeOf(input) === Object.prototype && entries.length > 0 &&
    entries.every(([name, n]) => names.has(name) && Number.isSafeInteger(n))
}

/**
 * A date-time as Unix ms: a `Date`, ISO text, a `DateTime`, date parts (named as the line's
 * `DateTime` names them: `partNames`) or Unix ms (a whole number), not before 1970. Anything else
 * fails, where `DateTime.make` would read an unknown object or a boolean as some date.
 */
export const epochMillis = (input: unknown, partNames: ReadonlySet<string>): Results.Result<number, string> => {
  const known = typeof input === "string" || (typeof input === "number" && Number.isSafeInteger(input)) ||
    input instanceof Date || DateTime.isDateTime(input) ||
    (typeof input === "object" && input !== null && isParts(input, partNames))
  const made = known ? DateTime.make(input as DateTime.DateTime.Input) : Option.none()
  if (Option.isNone(made)) return Results.fail(rules.dateTime)
  const ms = DateTime.toEpochMillis(made.value)
  return ms < 0 ? Results.fail(rules.before1970) : Results.succeed(ms)
}
