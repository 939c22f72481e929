/**
 * The options of the streams, described once as schemas: the filters of each history, the range and
 * reading options (`since`, `until`, `resume`, `limit`, `concurrency`), `follow`, the follow
 * scheduler's options (`minInterval`, `maxInterval`, `concurrency`, `settlement`) and the sub-account
 * list's `maxSubAccounts`. `decode` is the one way in: any input becomes the options with their
 * defaults, or its first broken rule becomes an `InvalidQuery` naming the option as the caller wrote
 * it. It sends nothing. The two rules that need the server's now (an `until` after it, a `since`
 * after the default `until`) are `Range`'s; it builds the same error with `invalid`, as does every
 * other place that refuses a query.
 *
 * @internal
 */
import type { QueryViolation as QueryViolationNs } from "@broker-history/domain"
import { DepositHistoryQuery, Endpoint, QueryViolation, TransferHistoryQuery } from "@broker-history/domain"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { ParseOptions } from "effect/SchemaAST"
import * as Struct from "effect/Struct"
import { InvalidQuery } from "../../BrokerError.js"
import * as Checkpoint from "../../Checkpoint.js"
import * as StreamOptions from "../../StreamOptions.js"

/** The `InvalidQuery` of a broken rule: every one the client builds is built here. */
export const invalid = (endpoint: string, parameter: string, rule: string, fix?: string): InvalidQuery =>
  new InvalidQuery(fix === undefined ? { endpoint, parameter, rule } : { endpoint, parameter, rule, fix })

/** The `InvalidQuery` of a page query's broken rule (the domain's `QueryViolation`). */
export const ofViolation = (endpoint: string) => (violation: QueryViolationNs.QueryViolation): InvalidQuery =>
  invalid(endpoint, violation.parameter, violation.rule)

/** An `InvalidQuery` of the `index`th followed stream's query names that stream: `streams[2].until`. */
export const ofStream = (index: number) => <E>(error: E): E | InvalidQuery =>
  error instanceof InvalidQuery
    ? invalid(error.endpoint, `streams[${index}].${error.parameter}`, error.rule, error.fix)
    : error

/**
 * One option's value: `read` gives what it decodes to, or the rule it breaks. The decoder takes any
 * input; the encoded side is typed as the public type `I` of the option.
 */
const value = <A, I>(to: Schema.Schema<A>, read: (input: unknown) => Either.Either<A, string>): Schema.Schema<A, I> =>
  Schema.transformOrFail(Schema.Unknown, to, {
    strict: true,
    decode: (input, _, ast) =>
      Either.match(read(input), {
        onLeft: (rule) => ParseResult.fail(new ParseResult.Type(ast, input, rule)),
        onRight: ParseResult.succeed
      }),
    encode: ParseResult.succeed
  }) as unknown as Schema.Schema<A, I>

const dateTimeRule = "must be a date-time (Date, ISO text, DateTime, date parts or Unix ms)"
const partNames: ReadonlySet<string> = new Set(["millis", "seconds", "minutes", "hours", "day", "month", "year"])

/** Date parts (`{ year: 2025, month: 1 }`): at least one, every one known and a whole number. */
const isParts = (input: object): boolean => {
  const entries = Object.entries(input)
  return Object.getPrototypeOf(input) === Object.prototype && entries.length > 0 &&
    entries.every(([name, n]) => partNames.has(name) && Number.isSafeInteger(n))
}

/**
 * A date-time as Unix ms: a `Date`, ISO text, a `DateTime`, date parts or Unix ms (a whole number),
 * not before 1970. Anything else fails, where `DateTime.make` would read an unknown object or a
 * boolean as some date.
 */
const epochMillis = (input: unknown): Either.Either<number, string> => {
  const known = typeof input === "string" || (typeof input === "number" && Number.isSafeInteger(input)) ||
    input instanceof Date || DateTime.isDateTime(input) ||
    (typeof input === "object" && input !== null && isParts(input))
  const made = known ? DateTime.make(input as DateTime.DateTime.Input) : Option.none()
  if (Option.isNone(made)) return Either.left(dateTimeRule)
  const ms = DateTime.toEpochMillis(made.value)
  return ms < 0 ? Either.left("must not be before 1970-01-01") : Either.right(ms)
}

const dateTime = value<number, DateTime.DateTime.Input>(Schema.Number, epochMillis)

const durationForms = `a Duration, milliseconds as a number, or text such as "30 seconds"`

/**
 * A finite duration in ms, or undefined. `Duration.decode` reads a negative or NaN input as zero:
 * such an input is refused here instead of silently meaning zero.
 */
const durationMillis = (input: unknown): number | undefined => {
  if (typeof input === "number" && !(input >= 0)) return undefined
  if (typeof input === "bigint" && input < BigInt(0)) return undefined
  if (typeof input === "string" && input.startsWith("-")) return undefined
  if (Array.isArray(input) && !input.every((n) => typeof n === "number" && n >= 0)) return undefined
  const decoded = Duration.decodeUnknown(input)
  return Option.isSome(decoded) && Duration.isFinite(decoded.value) ? Duration.toMillis(decoded.value) : undefined
}

/** A positive, finite duration, in ms. */
const positiveDuration = value<number, Duration.DurationInput>(Schema.Number, (input) => {
  const ms = durationMillis(input)
  return ms !== undefined && ms > 0
    ? Either.right(ms)
    : Either.left(`must be a positive, finite duration (${durationForms})`)
})

/** A finite duration of 0 or more, in ms. */
const finiteDuration = value<number, Duration.DurationInput>(Schema.Number, (input) => {
  const ms = durationMillis(input)
  return ms !== undefined ? Either.right(ms) : Either.left(`must be a finite duration, 0 or more (${durationForms})`)
})

const decodeCheckpoint = Schema.decodeUnknownEither(Checkpoint.Checkpoint)

/** A checkpoint, as `Checkpoint.decode` reads one (other fields are not part of it). */
const checkpoint = value<Checkpoint.Checkpoint, Checkpoint.Checkpoint>(
  Checkpoint.Checkpoint,
  (input) =>
    Either.mapLeft(
      decodeCheckpoint(input),
      () => "must be a checkpoint { time, ids } from a change stream (time: Unix ms, an integer from 0; ids: texts)"
    )
)

/** Most windows a stream fetches ahead. */
const maxConcurrency = 16

/** Most polls the follow scheduler has in flight. */
const maxPollsInFlight = 64

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

const defaultSettlement = Duration.toMillis(StreamOptions.defaultSettlement)

const rangeFields = (maxLimit: number) => ({
  since: Schema.optional(dateTime),
  until: Schema.optional(dateTime),
  resume: Schema.optional(checkpoint),
  limit: Schema.optionalWith(QueryViolation.integer(1, maxLimit), { default: () => maxLimit }),
  concurrency: Schema.optionalWith(QueryViolation.integer(1, maxConcurrency), { default: () => 1 })
})

const rangeOrder = (q: { readonly since?: number | undefined; readonly until?: number | undefined }) =>
  q.since === undefined || q.until === undefined || q.since <= q.until ||
  { path: ["since"], message: "must not be after until" }

const followFields = {
  interval: positiveDuration,
  settlement: Schema.optionalWith(finiteDuration, { default: () => defaultSettlement })
}

/** An object option's rule when it is given something else; the rules of its fields keep their own. */
const objectRule = (rule: string) => ({
  message: (issue: ParseResult.ParseIssue) => ({
    message: rule,
    override: "actual" in issue &&
      (typeof issue.actual !== "object" || issue.actual === null || Array.isArray(issue.actual))
  })
})

const Follow = Schema.Struct(followFields).annotations(objectRule("must be an object { interval, settlement }"))

/** The follow scheduler's defaults (`FollowScheduler.defaults`). */
export const scheduleDefaults = {
  minInterval: Duration.seconds(1),
  maxInterval: Duration.minutes(5),
  concurrency: 8
} as const

const scheduleFields = {
  minInterval: Schema.optionalWith(positiveDuration, {
    default: () => Duration.toMillis(scheduleDefaults.minInterval)
  }),
  maxInterval: Schema.optionalWith(positiveDuration, {
    default: () => Duration.toMillis(scheduleDefaults.maxInterval)
  }),
  concurrency: Schema.optionalWith(QueryViolation.integer(1, maxPollsInFlight), {
    default: () => scheduleDefaults.concurrency
  })
}

const intervalOrder = (s: { readonly minInterval: number; readonly maxInterval: number }) =>
  s.maxInterval >= s.minInterval ||
  { path: ["maxInterval"], message: `must not be shorter than minInterval (${Duration.format(s.minInterval)})` }

/**
 * A schema of options and how its errors name them: `root` is what the input is called when it is
 * not an object of options, `names` the options at each level (the top is `""`), `unknown` the rule
 * of an option that is not one of them, and `elsewhere` the rule and fix of an option of another
 * stream given here (`follow` of a stream that does not follow).
 */
export interface Options<A, I> {
  readonly schema: Schema.Schema<A, I>
  readonly root: string
  readonly names: Readonly<Record<string, ReadonlyArray<string>>>
  readonly unknown: string
  readonly elsewhere: Readonly<Record<string, { readonly rule: string; readonly fix: string }>>
  readonly parse: (input: unknown) => Either.Either<A, ParseResult.ParseError>
}

/** Unknown options are errors; the first broken rule is the one reported. */
const parseOptions: ParseOptions = { errors: "first", onExcessProperty: "error" }

// The option schemas need no context; a struct over generic fields cannot show it in its type.
const options = <A, I, R>(
  schema: Schema.Schema<A, I, R>,
  described: Omit<Options<A, I>, "schema" | "parse" | "elsewhere"> & Partial<Pick<Options<A, I>, "elsewhere">>
): Options<A, I> => {
  const free = schema as Schema.Schema<A, I>
  return { schema: free, elsewhere: {}, ...described, parse: Schema.decodeUnknownEither(free, parseOptions) }
}

/**
 * The options decoded, or the first broken rule as the `InvalidQuery` of `endpoint`, naming the
 * option by its path (`follow.interval`).
 */
export const decode = <A, I>(described: Options<A, I>, endpoint: string) =>
(
  input: unknown
): Either.Either<A, InvalidQuery> =>
  Array.isArray(input)
    ? Either.left(invalid(endpoint, described.root, "must be an object of options"))
    : Either.mapLeft(described.parse(input), (error) => refusal(described, endpoint, error))

const refusal = <A, I>(described: Options<A, I>, endpoint: string, error: ParseResult.ParseError): InvalidQuery => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (issue === undefined || issue.path.length === 0) {
    return invalid(endpoint, described.root, "must be an object of options")
  }
  const path = issue.path.map(String)
  const parameter = path.join(".")
  if (issue._tag === "Unexpected") {
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
  return issue._tag === "Missing"
    ? invalid(endpoint, parameter, "is required")
    : invalid(endpoint, parameter, issue.message)
}

/** A full-history stream's query, decoded: its filters, range options and `follow`. */
export interface Decoded<F> {
  readonly filters: F
  readonly range: RangeOptions
  readonly follow: FollowOptions | undefined
}

/** A query's decoder: the decoded query, or its first broken rule. */
export type Decoder<A> = (input: unknown) => Either.Either<A, InvalidQuery>

/**
 * The queries of one history's streams: `records` (`transfers` / `deposits`), `changes` (with
 * `follow`) and `followed` (a stream of `followTransfers` / `followDeposits`, which follow it).
 */
export interface History<F> {
  readonly records: Decoder<Decoded<F>>
  readonly changes: Decoder<Decoded<F>>
  readonly followed: Decoder<Decoded<F>>
}

const rangeNames = Object.keys(rangeFields(1))

/** The filters given, the range options, `follow`. */
const split = <F>(query: Record<string, unknown>, filterNames: ReadonlyArray<string>): Decoded<F> => {
  const filters: Record<string, unknown> = {}
  for (const name of filterNames) if (query[name] !== undefined) filters[name] = query[name]
  const { concurrency, limit, resume, since, until } = query as unknown as RangeOptions
  return {
    filters: filters as F,
    range: { since, until, resume, limit, concurrency },
    follow: query.follow as FollowOptions | undefined
  }
}

const history = <F extends Schema.Struct.Fields>(endpoint: Endpoint.Endpoint, filterFields: F) => {
  const range = rangeFields(endpoint.maxLimit)
  const filterNames = Object.keys(filterFields)
  const top = [...filterNames, ...rangeNames]
  const schemas = {
    records: options(Schema.Struct({ ...filterFields, ...range }).pipe(Schema.filter(rangeOrder)), {
      root: "query",
      names: { "": top },
      unknown: "is not an option of this stream",
      elsewhere: {
        follow: {
          rule: "is an option of the change streams only",
          fix: "use transferChanges / depositChanges to follow"
        }
      }
    }),
    changes: options(
      Schema.Struct({ ...filterFields, ...range, follow: Schema.optional(Follow) }).pipe(Schema.filter(rangeOrder)),
      {
        root: "query",
        names: { "": [...top, "follow"], follow: Object.keys(followFields) },
        unknown: "is not an option of this stream"
      }
    )
  }
  const followed = {
    ...schemas.records,
    elsewhere: {
      follow: {
        rule: "is not an option of a followed stream",
        fix: "remove it: every stream is followed, and settlement is an option of followTransfers / followDeposits"
      }
    }
  }
  type Filters = Schema.Struct.Type<F>
  const decoder = <A extends object, I>(described: Options<A, I>): Decoder<Decoded<Filters>> => (input) =>
    Either.map(
      decode(described, endpoint.name)(input),
      (query) => split<Filters>(query as unknown as Record<string, unknown>, filterNames)
    )
  return {
    schemas,
    records: decoder(schemas.records),
    changes: decoder(schemas.changes),
    followed: decoder(followed)
  }
}

/** The transfer streams' queries: the filters of `TransferHistoryQuery` (not its window or page). */
export const transfers = history(
  Endpoint.transferHistory,
  Struct.pick(
    TransferHistoryQuery.TransferHistoryQuery.from.fields,
    "fromAccountType",
    "toAccountType",
    "fromAccount",
    "toAccount",
    "clientTranId"
  )
)

/** The deposit streams' queries: the filters of `DepositHistoryQuery` (not its window or page). */
export const deposits = history(
  Endpoint.depositHistory,
  Struct.pick(DepositHistoryQuery.DepositHistoryQuery.from.fields, "coin", "status")
)

/** `FollowScheduler.changes`' options. */
export const schedule = options(Schema.Struct(scheduleFields).pipe(Schema.filter(intervalOrder)), {
  root: "options",
  names: { "": Object.keys(scheduleFields) },
  unknown: "is not an option of the follow scheduler"
})

/** `followTransfers` / `followDeposits`' options: the schedule and every stream's settlement window. */
export const followMany = options(
  Schema.Struct({ ...scheduleFields, settlement: followFields.settlement }).pipe(Schema.filter(intervalOrder)),
  {
    root: "options",
    names: { "": [...Object.keys(scheduleFields), "settlement"] },
    unknown: "is not an option of followTransfers / followDeposits"
  }
)

/** `subAccounts`' options. */
export const subAccounts = options(
  Schema.Struct({
    maxSubAccounts: Schema.optionalWith(QueryViolation.integer(1, StreamOptions.maxSubAccountsLimit), {
      default: () => StreamOptions.defaultMaxSubAccounts
    })
  }),
  { root: "options", names: { "": ["maxSubAccounts"] }, unknown: "is not an option of this stream" }
)
