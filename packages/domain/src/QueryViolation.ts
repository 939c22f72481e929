/**
 * What is wrong with a query: which parameter and which rule it breaks. Shared by the client (which
 * fails with `InvalidQuery` before sending) and the server (which answers 700004 or 33333).
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * A broken rule: `missing` when a mandatory parameter is absent or empty, `invalid` otherwise.
 *
 * @example
 * import type { QueryViolation } from "@broker-history/domain"
 * const v: QueryViolation.QueryViolation = { parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" }
 */
export interface QueryViolation {
  readonly parameter: string
  readonly rule: string
  readonly kind: "missing" | "invalid"
}

/**
 * Annotation key marking a rule message as "missing mandatory parameter".
 */
const missingPrefix = "is required"

/**
 * Decodes `input` with `schema` (unknown parameters are errors) and reports the first broken rule.
 *
 * @example
 * import { QueryViolation, TransferHistoryQuery } from "@broker-history/domain"
 * QueryViolation.validate(TransferHistoryQuery.TransferHistoryQuery, { fromAccountType: "SPOT" })
 * // Either.left({ parameter: "toAccountType", rule: "is required", kind: "missing" })
 */
export const validate = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Either.Either<A, QueryViolation> => {
  const decode = decoders.get(schema) ?? makeDecoder(schema)
  return Either.mapLeft(decode(input), toViolation) as Either.Either<A, QueryViolation>
}

const decoders = new WeakMap<object, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()

const makeDecoder = (schema: Schema.Schema<any, any>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })
  decoders.set(schema, decode)
  return decode
}

const toViolation = (error: ParseResult.ParseError): QueryViolation => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  if (first === undefined || first.path.length === 0) {
    return { parameter: "query", rule: "must be an object of parameters", kind: "invalid" }
  }
  const parameter = String(first.path[0])
  if (first._tag === "Unexpected") {
    return { parameter, rule: "is not a parameter of this endpoint", kind: "invalid" }
  }
  if (first._tag === "Missing" || first.message === missingPrefix) {
    return { parameter, rule: missingPrefix, kind: "missing" }
  }
  return { parameter, rule: first.message, kind: "invalid" }
}

/**
 * Renders a violation as one sentence: `limit must be an integer from 1 to 500`.
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * QueryViolation.format({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })
 * // "page must be an integer >= 1"
 */
export const format = (violation: QueryViolation): string => `${violation.parameter} ${violation.rule}`

/**
 * A required non-empty text parameter (the message marks it as missing when empty).
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * import { Schema } from "effect"
 * const Coin = QueryViolation.requiredText
 */
export const requiredText = Schema.String.annotations({ message: () => "must be text" }).pipe(
  Schema.filter((s) => s.length > 0, { message: () => missingPrefix })
)

/**
 * An optional text parameter: when given it must be non-empty and free of surrounding spaces.
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * const Coin = QueryViolation.nonEmptyText("omit it to mean every coin")
 */
export const nonEmptyText = (whenEmpty: string) =>
  Schema.String.annotations({ message: () => "must be text" }).pipe(
    Schema.filter((s) => s.length > 0, { message: () => `must not be empty (${whenEmpty})` }),
    Schema.filter((s) => s.trim() === s, { message: () => "must not start or end with spaces" })
  )

/**
 * An integer parameter within bounds (inclusive; `max` may be omitted).
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * const Limit = QueryViolation.integer(1, 500)
 */
export const integer = (min: number, max?: number) => {
  const rule = max === undefined ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`
  return Schema.Number.annotations({ message: () => rule }).pipe(
    Schema.filter((n) => Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max), {
      message: () => rule
    })
  )
}

/**
 * A Unix millisecond timestamp parameter: a non-negative safe integer.
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * const StartTime = QueryViolation.millis
 */
export const millis = Schema.Number.annotations({ message: () => "must be a Unix millisecond timestamp" }).pipe(
  Schema.filter((n) => Number.isSafeInteger(n) && n >= 0, {
    message: () => "must be a Unix millisecond timestamp (a non-negative integer)"
  })
)

/**
 * The cross-field rule `startTime <= endTime`, reported on `startTime`.
 *
 * @example
 * import { QueryViolation } from "@broker-history/domain"
 * QueryViolation.timeOrder({ startTime: 2, endTime: 1 }) // { path: ["startTime"], message: "…" }
 */
export const timeOrder = (q: { readonly startTime?: number | undefined; readonly endTime?: number | undefined }) =>
  q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime ||
  { path: ["startTime"], message: "must not be after endTime" }

const integerText = /^(0|[1-9]\d{0,15})$/

/**
 * Reads business parameters received as text (server side): integer parameters must be base-10
 * integer text; then the query schema's rules apply. `integers` names the integer parameters.
 *
 * @example
 * import { QueryViolation, DepositHistoryQuery } from "@broker-history/domain"
 * QueryViolation.fromText(DepositHistoryQuery.DepositHistoryQuery, ["limit", "page"], { limit: "20" })
 */
export const fromText = <A, I>(
  schema: Schema.Schema<A, I>,
  integers: ReadonlyArray<string>,
  params: Readonly<Record<string, string>>
): Either.Either<A, QueryViolation> => {
  // A null-prototype object: a parameter named `__proto__` must become a key (and be rejected as
  // unknown), not set the prototype and vanish.
  const input: Record<string, unknown> = Object.create(null)
  for (const name of Object.keys(params)) {
    const value = params[name]!
    if (integers.includes(name)) {
      if (!integerText.test(value)) {
        return Either.left({ parameter: name, rule: "must be base-10 integer text", kind: "invalid" })
      }
      input[name] = Number(value)
    } else {
      input[name] = value
    }
  }
  return validate(schema, input)
}
