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
import { DepositHistoryQuery, Endpoint, QueryViolation, TransferHistoryQuery } from "@broker-history/domain"
import type * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { ParseOptions } from "effect/SchemaAST"
import * as Struct from "effect/Struct"
import type { InvalidQuery } from "../../BrokerError.js"
import * as Checkpoint from "../../Checkpoint.js"
import * as StreamOptions from "../../StreamOptions.js"
import * as OptionRules from "../query/OptionRules.js"

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

/** The names of Effect 3's date parts. */
const partNames: ReadonlySet<string> = new Set(["millis", "seconds", "minutes", "hours", "day", "month", "year"])

const dateTime = value<number, DateTime.DateTime.Input>(
  Schema.Number,
  (input) => OptionRules.epochMillis(input, partNames)
)

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
  return ms !== undefined && ms > 0 ? Either.right(ms) : Either.left(OptionRules.rules.positiveDuration)
})

/** A finite duration of 0 or more, in ms. */
const finiteDuration = value<number, Duration.DurationInput>(Schema.Number, (input) => {
  const ms = durationMillis(input)
  return ms !== undefined ? Either.right(ms) : Either.left(OptionRules.rules.finiteDuration)
})

const decodeCheckpoint = Schema.decodeUnknownEither(Checkpoint.Checkpoint)

/** A checkpoint, as `Checkpoint.decode` reads one (other fields are not part of it). */
const checkpoint = value<Checkpoint.Checkpoint, Checkpoint.Checkpoint>(
  Checkpoint.Checkpoint,
  (input) => Either.mapLeft(decodeCheckpoint(input), () => OptionRules.rules.checkpoint)
)

const { defaultSettlement, maxConcurrency, maxPollsInFlight, scheduleDefaults } = OptionRules

const rangeFields = (maxLimit: number) => ({
  since: Schema.optional(dateTime),
  until: Schema.optional(dateTime),
  resume: Schema.optional(checkpoint),
  limit: Schema.optionalWith(QueryViolation.integer(1, maxLimit), { default: () => maxLimit }),
  concurrency: Schema.optionalWith(QueryViolation.integer(1, maxConcurrency), { default: () => 1 })
})

const rangeOrder = (q: { readonly since?: number | undefined; readonly until?: number | undefined }) =>
  q.since === undefined || q.until === undefined || q.since <= q.until ||
  { path: ["since"], message: OptionRules.rules.sinceAfterUntil }

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

const Follow = Schema.Struct(followFields).annotations(objectRule(OptionRules.rules.follow))

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
  { path: ["maxInterval"], message: OptionRules.rules.intervalOrder(s.minInterval) }

/** A schema of options, how its errors name them (`OptionRules.Described`), and its decoder. */
export interface Options<A, I> extends OptionRules.Described {
  readonly schema: Schema.Schema<A, I>
  readonly parse: (input: unknown) => Either.Either<A, ParseResult.ParseError>
}

/** Unknown options are errors; the first broken rule is the one reported. */
const parseOptions: ParseOptions = { errors: "first", onExcessProperty: "error" }

// The option schemas need no context; a struct over generic fields cannot show it in its type.
const options = <A, I, R>(schema: Schema.Schema<A, I, R>, described: OptionRules.Described): Options<A, I> => {
  const free = schema as Schema.Schema<A, I>
  return { schema: free, ...described, parse: Schema.decodeUnknownEither(free, parseOptions) }
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
    ? Either.left(OptionRules.notAnObject(described, endpoint))
    : Either.mapLeft(described.parse(input), (error) => OptionRules.refusal(described, endpoint, firstFailure(error)))

/** The first failure of a decoding, as `OptionRules.refusal` reads it. */
const firstFailure = (error: ParseResult.ParseError): OptionRules.Failure | undefined => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (issue === undefined) return undefined
  const kind = issue._tag === "Unexpected" ? "Unexpected" : issue._tag === "Missing" ? "Missing" : "Broken"
  return { path: issue.path, kind, rule: issue.message }
}

const history = <F extends Schema.Struct.Fields>(endpoint: Endpoint.Endpoint, filterFields: F) => {
  const range = rangeFields(endpoint.maxLimit)
  const filterNames = Object.keys(filterFields)
  const schemas = {
    records: options(
      Schema.Struct({ ...filterFields, ...range }).pipe(Schema.filter(rangeOrder)),
      OptionRules.described.records(filterNames)
    ),
    changes: options(
      Schema.Struct({ ...filterFields, ...range, follow: Schema.optional(Follow) }).pipe(Schema.filter(rangeOrder)),
      OptionRules.described.changes(filterNames)
    )
  }
  const followed = { ...schemas.records, ...OptionRules.described.followed(filterNames) }
  type Filters = Schema.Struct.Type<F>
  const decoder =
    <A extends object, I>(described: Options<A, I>): OptionRules.Decoder<OptionRules.Decoded<Filters>> => (input) =>
      Either.map(
        decode(described, endpoint.name)(input),
        (query) =>
          OptionRules.split<Filters>(query as unknown as Record<string, unknown>, filterNames, endpoint.maxLimit)
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
export const schedule = options(
  Schema.Struct(scheduleFields).pipe(Schema.filter(intervalOrder)),
  OptionRules.described.schedule
)

/** `followTransfers` / `followDeposits`' options: the schedule and every stream's settlement window. */
export const followMany = options(
  Schema.Struct({ ...scheduleFields, settlement: followFields.settlement }).pipe(Schema.filter(intervalOrder)),
  OptionRules.described.followMany
)

/** `subAccounts`' options. */
export const subAccounts = options(
  Schema.Struct({
    maxSubAccounts: Schema.optionalWith(QueryViolation.integer(1, StreamOptions.maxSubAccountsLimit), {
      default: () => StreamOptions.defaultMaxSubAccounts
    })
  }),
  OptionRules.described.subAccounts
)
