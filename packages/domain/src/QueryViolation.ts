/**
 * What is wrong with a query: which parameter and which rule it breaks. Shared by the client (which
 * fails with `InvalidQuery` before sending) and the server (which answers 700004 or 33333).
 *
 * @since 0.1.0
 */
import * as QueryText from "@broker-history/core/query/QueryText"
import * as Core from "@broker-history/core/query/QueryViolation"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as Accepts from "./internal/Accepts.js"
import * as QueryString from "./QueryString.js"

/**
 * The plain parts, from `@broker-history/core/query/QueryViolation`: the violation
 * (`QueryViolation`, `format`), the window and page every history query has (`WindowPage`), the
 * rules' words and checks (`ruleTexts`, `nonEmptyRule`, `integerRule`, `isInteger`, `isMillis`,
 * `inTimeOrder`) and a schema's first failure as a violation (`Failure`, `ofFailure`). The schemas
 * below state the rules with them.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 *
 * const v: QueryViolation.QueryViolation = { parameter: "limit", rule: QueryViolation.integerRule(1, 500), kind: "invalid" }
 * assert.strictEqual(QueryViolation.format(v), "limit must be an integer from 1 to 500")
 * const firstPage: QueryViolation.WindowPage = { startTime: 1644400000000, endTime: 1644489390087, page: 1 }
 * assert.strictEqual(QueryViolation.inTimeOrder(firstPage), true)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export * from "@broker-history/core/query/QueryViolation"

/**
 * Decodes `input` with `schema` (unknown parameters are errors) and reports the first broken rule.
 *
 * @example
 * ```ts
 * import { QueryViolation, TransferHistoryQuery } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * assert.deepStrictEqual(
 *   QueryViolation.validate(TransferHistoryQuery.TransferHistoryQuery, { fromAccountType: "SPOT" }),
 *   Either.left({ parameter: "toAccountType", rule: "is required", kind: "missing" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(TransferHistoryQuery.TransferHistoryQuery, {
 *     fromAccountType: "SPOT",
 *     toAccountType: "FUTURES",
 *     coin: "BTC"
 *   }),
 *   Either.left({ parameter: "coin", rule: "is not a parameter of this endpoint", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const validate = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Either.Either<A, Core.QueryViolation> => {
  const decode = decoders.get(schema) ?? makeDecoder(schema)
  return Either.mapLeft(decode(input), toViolation) as Either.Either<A, Core.QueryViolation>
}

const decoders = new WeakMap<object, (u: unknown) => Either.Either<unknown, ParseResult.ParseError>>()

const makeDecoder = (schema: Schema.Schema<any, any>) => {
  const full = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })
  const accepts = compileAccepts(schema.ast)
  // A query is validated before every request: the schema's own rules, run directly, accept a
  // valid one without the schema interpreter's allocations; anything else goes to the schema,
  // which says what is wrong.
  const decode = accepts === undefined ? full : (u: unknown) => accepts(u) ? Either.right(u) : full(u)
  decoders.set(schema, decode)
  return decode
}

/**
 * A check that is true only for input the schema decodes to itself: a struct of known keys (required
 * ones present, no others) whose values pass the fields' own refinements, and the struct's own
 * filters. Built from the schema's AST; `undefined` for a shape it does not handle (a transformation,
 * a nested struct), which then always goes through the schema.
 *
 * @example
 * ```ts
 * import { QueryViolation, TransferHistoryQuery, TransferRecord } from "@broker-history/domain"
 *
 * const accepts = QueryViolation.compileAccepts(TransferHistoryQuery.TransferHistoryQuery.ast)!
 * assert.strictEqual(accepts({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 500 }), true)
 * assert.strictEqual(accepts({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 501 }), false)
 * assert.strictEqual(QueryViolation.compileAccepts(TransferRecord.TransferRecord.ast), undefined)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const compileAccepts: (ast: SchemaAST.AST) => ((u: unknown) => boolean) | undefined = Accepts.compile

const toViolation = (error: ParseResult.ParseError): Core.QueryViolation => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const parameter = first === undefined || first.path.length === 0 ? undefined : String(first.path[0])
  switch (first?._tag) {
    case "Unexpected":
    case "Missing":
      return Core.ofFailure(parameter, { _tag: first._tag })
    default:
      return Core.ofFailure(parameter, { _tag: "Rule", rule: first?.message ?? "" })
  }
}

/**
 * A required non-empty text parameter (the message marks it as missing when empty).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Query = Schema.Struct({ fromAccountType: QueryViolation.requiredText })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { fromAccountType: "" }),
 *   Either.left({ parameter: "fromAccountType", rule: "is required", kind: "missing" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const requiredText = Schema.String.annotations({ message: () => Core.ruleTexts.text }).pipe(
  Schema.filter((s) => s.length > 0, { message: () => Core.ruleTexts.required })
)

/**
 * An optional text parameter: when given it must be non-empty and free of surrounding spaces.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Query = Schema.Struct({ coin: Schema.optional(QueryViolation.nonEmptyText("omit it to mean every coin")) })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { coin: "" }),
 *   Either.left({ parameter: "coin", rule: "must not be empty (omit it to mean every coin)", kind: "invalid" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { coin: " USDT" }),
 *   Either.left({ parameter: "coin", rule: "must not start or end with spaces", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const nonEmptyText = (whenEmpty: string) =>
  Schema.String.annotations({ message: () => Core.ruleTexts.text }).pipe(
    Schema.filter((s) => s.length > 0, { message: () => Core.nonEmptyRule(whenEmpty) }),
    Schema.filter((s) => s.trim() === s, { message: () => Core.ruleTexts.spaces })
  )

/**
 * An integer parameter within bounds (inclusive; `max` may be omitted).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Query = Schema.Struct({ limit: QueryViolation.integer(1, 500), page: QueryViolation.integer(1) })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { limit: 20.5, page: 1 }),
 *   Either.left({ parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { limit: 20, page: 0 }),
 *   Either.left({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const integer = (min: number, max?: number) => {
  const rule = Core.integerRule(min, max)
  return Schema.Number.annotations({ message: () => rule }).pipe(
    Schema.filter(Core.isInteger(min, max), { message: () => rule })
  )
}

/**
 * A Unix millisecond timestamp parameter: a non-negative safe integer.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Query = Schema.Struct({ startTime: QueryViolation.millis })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { startTime: -1 }),
 *   Either.left({
 *     parameter: "startTime",
 *     rule: "must be a Unix millisecond timestamp (a non-negative integer)",
 *     kind: "invalid"
 *   })
 * )
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const millis = Schema.Number.annotations({ message: () => Core.ruleTexts.timestamp }).pipe(
  Schema.filter(Core.isMillis, { message: () => Core.ruleTexts.millis })
)

/**
 * The cross-field rule `startTime <= endTime`, reported on `startTime`.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Window = Schema.Struct({ startTime: QueryViolation.millis, endTime: QueryViolation.millis }).pipe(
 *   Schema.filter(QueryViolation.timeOrder)
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Window, { startTime: 2, endTime: 1 }),
 *   Either.left({ parameter: "startTime", rule: "must not be after endTime", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category schemas
 */
export const timeOrder = (q: Pick<Core.WindowPage, "startTime" | "endTime">) =>
  Core.inTimeOrder(q) || { path: ["startTime"], message: Core.ruleTexts.timeOrder }

/**
 * Reads business parameters received as text (server side): integer parameters must be base-10
 * integer text; then the query schema's rules apply. `integers` names the integer parameters.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery, QueryViolation } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * const read = (params: Record<string, string>) =>
 *   QueryViolation.fromText(DepositHistoryQuery.DepositHistoryQuery, ["limit", "page"], params)
 * assert.deepStrictEqual(Either.map(read({ limit: "20" }), (q) => q.limit), Either.right(20))
 * assert.deepStrictEqual(
 *   read({ limit: "0x14" }),
 *   Either.left({ parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const fromText = <A, I>(
  schema: Schema.Schema<A, I>,
  integers: ReadonlyArray<string>,
  params: Readonly<Record<string, string>>
): Either.Either<A, Core.QueryViolation> => {
  const read = QueryText.read(integers, params)
  if ("violation" in read) return Either.left(read.violation)
  // The schema's check may accept the null-prototype input itself: what is returned is a plain object
  // like any other.
  return Either.map(validate(schema, read.input), (query) => ({ ...query }))
}

/**
 * How one endpoint's query is read and written, from its schema: `validate` (before sending),
 * `fromText` (parameters received as text, server side) and `toParams` (the parameters present, as
 * text, in the order they are signed and sent).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain"
 * import { Either, Schema } from "effect"
 *
 * const Query = Schema.Struct({ coin: Schema.optional(Schema.String), limit: Schema.optional(QueryViolation.integer(1, 10)) })
 * const rules: QueryViolation.Rules<typeof Query.Type> = QueryViolation.rules(Query, ["limit"], ["coin", "limit"])
 * assert.deepStrictEqual(rules.fromText({ limit: "5" }), Either.right({ limit: 5 }))
 * assert.deepStrictEqual(rules.toParams({ limit: 5, coin: "BTC" }), [["coin", "BTC"], ["limit", "5"]])
 * assert.ok(Either.isLeft(rules.validate({ limit: 11 })))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Rules<Q> {
  readonly validate: (input: unknown) => Either.Either<Q, Core.QueryViolation>
  readonly fromText: (params: Readonly<Record<string, string>>) => Either.Either<Q, Core.QueryViolation>
  readonly toParams: (query: Q) => Array<QueryString.Param>
}

/**
 * The `Rules` of a query schema: `integers` names its integer parameters (read from base-10 text by
 * `fromText`), `order` the order of its parameters on the wire.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery, QueryViolation } from "@broker-history/domain"
 * import { Either } from "effect"
 *
 * const deposits = QueryViolation.rules(DepositHistoryQuery.DepositHistoryQuery, ["limit", "page"], ["coin", "limit", "page"])
 * assert.deepStrictEqual(deposits.toParams({ page: 2, coin: "USDT" }), [["coin", "USDT"], ["page", "2"]])
 * assert.deepStrictEqual(
 *   deposits.fromText({ page: "0" }),
 *   Either.left({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const rules = <A extends { readonly [K in keyof A]?: string | number | undefined }, I>(
  schema: Schema.Schema<A, I>,
  integers: ReadonlyArray<string>,
  order: ReadonlyArray<keyof A & string>
): Rules<A> => ({
  validate: (input) => validate(schema, input),
  fromText: (params) => fromText(schema, integers, params),
  toParams: QueryString.fields<A>(order)
})
