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
import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Struct from "effect/Struct"
import type { InvalidQuery } from "../../BrokerError.js"
import * as Checkpoint from "../../Checkpoint.js"
import * as StreamOptions from "../../StreamOptions.js"
import * as OptionRules from "../query/OptionRules.js"

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

/** The names of Effect 4's date parts. */
const partNames: ReadonlySet<string> = new Set(["millisecond", "second", "minute", "hour", "day", "month", "year"])

const dateTime = value<number, DateTime.DateTime.Input>((input) => OptionRules.epochMillis(input, partNames))

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
  return ms !== undefined && ms > 0 ? Result.succeed(ms) : Result.fail(OptionRules.rules.positiveDuration)
}

const positiveDuration = value<number, Duration.Input>(readPositiveDuration)

/** A finite duration of 0 or more, in ms. */
const finiteDuration = value<number, Duration.Input>((input) => {
  const ms = durationMillis(input)
  return ms !== undefined ? Result.succeed(ms) : Result.fail(OptionRules.rules.finiteDuration)
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
  Result.mapError(decodeCheckpoint(input), () => OptionRules.rules.checkpoint)
)

const { defaultSettlement, maxConcurrency, maxPollsInFlight, scheduleDefaults } = OptionRules

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
  { path: ["since"], issue: OptionRules.rules.sinceAfterUntil }
)

const followFields = {
  interval: required<number, Duration.Input>(readPositiveDuration),
  settlement: finiteDuration
}

/** An object option's rule when it is given something else; the rules of its fields keep their own. */
const objectRule = (rule: string) => ({ message: rule, expected: rule })

const Follow = Schema.optional(
  Schema.Struct(followFields).annotate(objectRule(OptionRules.rules.follow))
)

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
        message: OptionRules.rules.intervalOrder(s.minInterval)
      })
    )
  )

/** How a schema of options names them in its errors (`OptionRules.Described`), and its decoder. */
export interface Options<A> extends OptionRules.Described {
  readonly parse: (input: unknown) => Result.Result<A, SchemaIssue.Issue>
}

/** Unknown options are errors; the first broken rule is the one reported. */
const parseOptions: SchemaAST.ParseOptions = { errors: "first", onExcessProperty: "error" }

// The option schemas need no services; a struct over generic fields cannot show it in its type.
const options = <S extends Schema.Top, A>(
  schema: S,
  finish: (decoded: S["Type"]) => Result.Result<A, SchemaIssue.Issue>,
  described: OptionRules.Described
): Options<A> & { readonly schema: S } => {
  const decode = Schema.decodeUnknownResult(schema as unknown as Schema.Decoder<S["Type"]>, parseOptions)
  return {
    schema,
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
    ? Result.fail(OptionRules.notAnObject(described, endpoint))
    : Result.mapError(described.parse(input), (issue) => OptionRules.refusal(described, endpoint, firstFailure(issue)))

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

/** The first failure of a decoding (the walk is the domain's), as `OptionRules.refusal` reads it. */
const firstFailure = (error: SchemaIssue.Issue): OptionRules.Failure => {
  const first = QueryViolation.firstFailure(error)
  const kind = first.issue._tag === "UnexpectedKey"
    ? "Unexpected"
    : first.issue._tag === "MissingKey"
    ? "Missing"
    : "Broken"
  return { path: first.path, kind, rule: kind === "Broken" ? ruleOf(first.issue) : "" }
}

const history = <F extends Schema.Struct.Fields>(endpoint: Endpoint.Endpoint, filterFields: F) => {
  const range = rangeFields(endpoint.maxLimit)
  const filterNames = Object.keys(filterFields)
  type Filters = Schema.Struct.Type<F>
  const decoded = (query: unknown) =>
    Result.succeed(OptionRules.split<Filters>(query as Record<string, unknown>, filterNames, endpoint.maxLimit))
  const schemas = {
    records: options(
      Schema.Struct({ ...filterFields, ...range }).check(rangeOrder),
      decoded,
      OptionRules.described.records(filterNames)
    ),
    changes: options(
      Schema.Struct({ ...filterFields, ...range, follow: Follow }).check(rangeOrder),
      decoded,
      OptionRules.described.changes(filterNames)
    )
  }
  const followed: Options<OptionRules.Decoded<Filters>> = {
    ...schemas.records,
    ...OptionRules.described.followed(filterNames)
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
  OptionRules.described.schedule
)

/** `followTransfers` / `followDeposits`' options: the schedule and every stream's settlement window. */
export const followMany = options(
  Schema.Struct({ ...scheduleFields, settlement: followFields.settlement }),
  (s) => intervalOrder({ ...withScheduleDefaults(s), settlement: s.settlement ?? defaultSettlement }),
  OptionRules.described.followMany
)

/** `subAccounts`' options. */
export const subAccounts = options(
  Schema.Struct({ maxSubAccounts: integer(1, StreamOptions.maxSubAccountsLimit) }),
  (s) => Result.succeed({ maxSubAccounts: s.maxSubAccounts ?? StreamOptions.defaultMaxSubAccounts }),
  OptionRules.described.subAccounts
)
