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
import { DepositHistoryQuery, Endpoint, QueryViolation, TransferHistoryQuery } from "@broker-history/domain-effect4"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Struct from "effect/Struct"
import { InvalidQuery } from "../../BrokerError.js"
import * as Checkpoint from "../../Checkpoint.js"
import * as StreamOptions from "../../StreamOptions.js"

/** The `InvalidQuery` of a broken rule: every one the client builds is built here. */
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
 * An optional option's value: absent or `undefined` is `undefined`; anything else is what `read`
 * gives, or fails with the rule it breaks. The decoder takes any input; the encoded side is typed as
 * the public type `I` of the option.
 */
const value = <A, I>(read: (input: unknown) => Result.Result<A, string>) =>
  Schema.optionalKey(
    required<A | undefined, I | undefined>((input) => input === undefined ? Result.succeed(undefined) : read(input))
  )

/** A required option's value: what `read` gives, or a failure with the rule it breaks. */
const required = <A, I>(read: (input: unknown) => Result.Result<A, string>): Schema.Codec<A, I> =>
  Schema.Unknown.pipe(Schema.decodeTo(Schema.Unknown, {
    decode: SchemaGetter.transformEffect((input: unknown) =>
      Result.match(read(input), {
        onFailure: (rule) => Effect.fail(new SchemaIssue.InvalidValue({ message: rule })),
        onSuccess: Effect.succeed
      })
    ),
    encode: SchemaGetter.passthrough()
  })) as unknown as Schema.Codec<A, I>

const dateTimeRule = "must be a date-time (Date, ISO text, DateTime, date parts or Unix ms)"
const partNames: ReadonlySet<string> = new Set(["millisecond", "second", "minute", "hour", "day", "month", "year"])

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
const epochMillis = (input: unknown): Result.Result<number, string> => {
  const known = typeof input === "string" || (typeof input === "number" && Number.isSafeInteger(input)) ||
    input instanceof Date || DateTime.isDateTime(input) ||
    (typeof input === "object" && input !== null && isParts(input))
  const made = known ? DateTime.make(input as DateTime.DateTime.Input) : Option.none()
  if (Option.isNone(made)) return Result.fail(dateTimeRule)
  const ms = DateTime.toEpochMillis(made.value)
  return ms < 0 ? Result.fail("must not be before 1970-01-01") : Result.succeed(ms)
}

const dateTime = value<number, DateTime.DateTime.Input>(epochMillis)

const durationForms = `a Duration, milliseconds as a number, or text such as "30 seconds"`

/** A finite duration of 0 or more in ms, or undefined (a negative or NaN input is refused, not read as 0). */
const durationMillis = (input: unknown): number | undefined => {
  if (typeof input === "number" && !(input >= 0)) return undefined
  const decoded = Duration.fromInput(input as Duration.Input)
  if (Option.isNone(decoded) || !Duration.isFinite(decoded.value)) return undefined
  const ms = Duration.toMillis(decoded.value)
  return ms >= 0 ? ms : undefined
}

/** A positive, finite duration, in ms. */
const readPositiveDuration = (input: unknown): Result.Result<number, string> => {
  const ms = durationMillis(input)
  return ms !== undefined && ms > 0
    ? Result.succeed(ms)
    : Result.fail(`must be a positive, finite duration (${durationForms})`)
}

const positiveDuration = value<number, Duration.Input>(readPositiveDuration)

/** A finite duration of 0 or more, in ms. */
const finiteDuration = value<number, Duration.Input>((input) => {
  const ms = durationMillis(input)
  return ms !== undefined ? Result.succeed(ms) : Result.fail(`must be a finite duration, 0 or more (${durationForms})`)
})

/** A whole number from `min` to `max` (the domain's rule words). */
const integer = (min: number, max: number) => {
  const rule = `must be an integer from ${min} to ${max}`
  return value<number, number>((input) =>
    typeof input === "number" && Number.isSafeInteger(input) && input >= min && input <= max
      ? Result.succeed(input)
      : Result.fail(rule)
  )
}

const decodeCheckpoint = Schema.decodeUnknownResult(Checkpoint.Checkpoint)

/** A checkpoint, as `Checkpoint.decode` reads one (other fields are not part of it). */
const checkpoint = value<Checkpoint.Checkpoint, Checkpoint.Checkpoint>((input) =>
  Result.mapError(
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
  since: dateTime,
  until: dateTime,
  resume: checkpoint,
  limit: integer(1, maxLimit),
  concurrency: integer(1, maxConcurrency)
})

const rangeOrder = Schema.makeFilter((
  q: { readonly since?: number | undefined; readonly until?: number | undefined }
) =>
  q.since === undefined || q.until === undefined || q.since <= q.until ||
  { path: ["since"], issue: "must not be after until" }
)

const followFields = {
  interval: required<number, Duration.Input>(readPositiveDuration),
  settlement: finiteDuration
}

/** An object option's rule when it is given something else; the rules of its fields keep their own. */
const objectRule = (rule: string) => ({ message: rule, expected: rule })

const Follow = Schema.optional(
  Schema.Struct(followFields).annotate(objectRule("must be an object { interval, settlement }"))
)

/** The follow scheduler's defaults (`FollowScheduler.defaults`). */
export const scheduleDefaults = {
  minInterval: Duration.seconds(1),
  maxInterval: Duration.minutes(5),
  concurrency: 8
} as const

const scheduleFields = {
  minInterval: positiveDuration,
  maxInterval: positiveDuration,
  concurrency: integer(1, maxPollsInFlight)
}

/** The follow scheduler's options with their defaults. */
const withScheduleDefaults = <
  S extends {
    readonly minInterval?: number | undefined
    readonly maxInterval?: number | undefined
    readonly concurrency?: number | undefined
  }
>(s: S) => ({
  ...s,
  minInterval: s.minInterval ?? Duration.toMillis(scheduleDefaults.minInterval),
  maxInterval: s.maxInterval ?? Duration.toMillis(scheduleDefaults.maxInterval),
  concurrency: s.concurrency ?? scheduleDefaults.concurrency
})

/** The schedule's options with their defaults, `maxInterval` not shorter than `minInterval`. */
const intervalOrder = <S extends { readonly minInterval: number; readonly maxInterval: number }>(
  s: S
): Result.Result<S, SchemaIssue.Issue> =>
  s.maxInterval >= s.minInterval ? Result.succeed(s) : Result.fail(
    new SchemaIssue.Pointer(
      ["maxInterval"],
      new SchemaIssue.InvalidValue({
        message: `must not be shorter than minInterval (${Duration.format(Duration.millis(s.minInterval))})`
      })
    )
  )

/**
 * A schema of options and how its errors name them: `root` is what the input is called when it is
 * not an object of options, `names` the options at each level (the top is `""`), `unknown` the rule
 * of an option that is not one of them, and `elsewhere` the rule and fix of an option of another
 * stream given here (`follow` of a stream that does not follow). `defaults` fills in what was not
 * given, after the rules.
 */
export interface Options<A> {
  readonly root: string
  readonly names: Readonly<Record<string, ReadonlyArray<string>>>
  readonly unknown: string
  readonly elsewhere: Readonly<Record<string, { readonly rule: string; readonly fix: string }>>
  readonly parse: (input: unknown) => Result.Result<A, SchemaIssue.Issue>
}

/** Unknown options are errors; the first broken rule is the one reported. */
const parseOptions: SchemaAST.ParseOptions = { errors: "first", onExcessProperty: "error" }

// The option schemas need no services; a struct over generic fields cannot show it in its type.
const options = <S extends Schema.Top, A>(
  schema: S,
  finish: (decoded: S["Type"]) => Result.Result<A, SchemaIssue.Issue>,
  described: Omit<Options<A>, "parse" | "elsewhere"> & Partial<Pick<Options<A>, "elsewhere">>
): Options<A> & { readonly schema: S } => {
  const decode = Schema.decodeUnknownResult(schema as unknown as Schema.Decoder<S["Type"]>, parseOptions)
  return {
    schema,
    elsewhere: {},
    ...described,
    parse: (input) => Result.flatMap(Result.mapError(decode(input), (error) => error.issue), finish)
  }
}

/**
 * The options decoded, or the first broken rule as the `InvalidQuery` of `endpoint`, naming the
 * option by its path (`follow.interval`).
 */
export const decode = <A>(described: Options<A>, endpoint: string) =>
(
  input: unknown
): Result.Result<A, InvalidQuery> =>
  Array.isArray(input)
    ? Result.fail(invalid(endpoint, described.root, "must be an object of options"))
    : Result.mapError(described.parse(input), (issue) => refusal(described, endpoint, issue))

const formatIssue = SchemaIssue.makeFormatterDefault()

/** The rule a leaf states: its message, or the rule of the option's own schema for a value of the wrong type. */
const ruleOf = (issue: SchemaIssue.Issue): string => {
  if (issue._tag === "AnyOf" || issue._tag === "InvalidType") {
    const ast = issue.ast
    const own = ast._tag === "Union"
      ? ast.types.map((member) => member.annotations?.message).find((m) => typeof m === "string")
      : ast.annotations?.message
    if (typeof own === "string") return own
  }
  return formatIssue(issue).split("\n", 1)[0] ?? "is invalid"
}

const refusal = <A>(described: Options<A>, endpoint: string, error: SchemaIssue.Issue): InvalidQuery => {
  // The first failure, with the path of the option it is at: the walk is the domain's.
  const first = QueryViolation.firstFailure(error)
  if (first.path.length === 0) {
    return invalid(endpoint, described.root, "must be an object of options")
  }
  const path = first.path.map(String)
  const parameter = path.join(".")
  if (first.issue._tag === "UnexpectedKey") {
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
  return first.issue._tag === "MissingKey"
    ? invalid(endpoint, parameter, "is required")
    : invalid(endpoint, parameter, ruleOf(first.issue))
}

/** A full-history stream's query, decoded: its filters, range options and `follow`. */
export interface Decoded<F> {
  readonly filters: F
  readonly range: RangeOptions
  readonly follow: FollowOptions | undefined
}

/** A query's decoder: the decoded query, or its first broken rule. */
export type Decoder<A> = (input: unknown) => Result.Result<A, InvalidQuery>

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

/** The filters given, the range options with their defaults, `follow` with its default settlement. */
const split = <F>(query: Record<string, unknown>, filterNames: ReadonlyArray<string>, maxLimit: number): Decoded<F> => {
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

const history = <F extends Schema.Struct.Fields>(endpoint: Endpoint.Endpoint, filterFields: F) => {
  const range = rangeFields(endpoint.maxLimit)
  const filterNames = Object.keys(filterFields)
  const top = [...filterNames, ...rangeNames]
  type Filters = Schema.Struct.Type<F>
  const decoded = (query: unknown) =>
    Result.succeed(split<Filters>(query as Record<string, unknown>, filterNames, endpoint.maxLimit))
  const schemas = {
    records: options(Schema.Struct({ ...filterFields, ...range }).check(rangeOrder), decoded, {
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
    changes: options(Schema.Struct({ ...filterFields, ...range, follow: Follow }).check(rangeOrder), decoded, {
      root: "query",
      names: { "": [...top, "follow"], follow: Object.keys(followFields) },
      unknown: "is not an option of this stream"
    })
  }
  const followed: Options<Decoded<Filters>> = {
    ...schemas.records,
    elsewhere: {
      follow: {
        rule: "is not an option of a followed stream",
        fix: "remove it: every stream is followed, and settlement is an option of followTransfers / followDeposits"
      }
    }
  }
  return {
    schemas,
    records: decode(schemas.records, endpoint.name),
    changes: decode(schemas.changes, endpoint.name),
    followed: decode(followed, endpoint.name)
  }
}

/** The transfer streams' queries: the filters of `TransferHistoryQuery` (not its window or page). */
export const transfers = history(
  Endpoint.transferHistory,
  Struct.pick(TransferHistoryQuery.TransferHistoryQuery.fields, [
    "fromAccountType",
    "toAccountType",
    "fromAccount",
    "toAccount",
    "clientTranId"
  ])
)

/** The deposit streams' queries: the filters of `DepositHistoryQuery` (not its window or page). */
export const deposits = history(
  Endpoint.depositHistory,
  Struct.pick(DepositHistoryQuery.DepositHistoryQuery.fields, ["coin", "status"])
)

/** `FollowScheduler.changes`' options. */
export const schedule = options(
  Schema.Struct(scheduleFields),
  (s) => intervalOrder(withScheduleDefaults(s)),
  {
    root: "options",
    names: { "": Object.keys(scheduleFields) },
    unknown: "is not an option of the follow scheduler"
  }
)

/** `followTransfers` / `followDeposits`' options: the schedule and every stream's settlement window. */
export const followMany = options(
  Schema.Struct({ ...scheduleFields, settlement: followFields.settlement }),
  (s) => intervalOrder({ ...withScheduleDefaults(s), settlement: s.settlement ?? defaultSettlement }),
  {
    root: "options",
    names: { "": [...Object.keys(scheduleFields), "settlement"] },
    unknown: "is not an option of followTransfers / followDeposits"
  }
)

/** `subAccounts`' options. */
export const subAccounts = options(
  Schema.Struct({ maxSubAccounts: integer(1, StreamOptions.maxSubAccountsLimit) }),
  (s) => Result.succeed({ maxSubAccounts: s.maxSubAccounts ?? StreamOptions.defaultMaxSubAccounts }),
  { root: "options", names: { "": ["maxSubAccounts"] }, unknown: "is not an option of this stream" }
)
