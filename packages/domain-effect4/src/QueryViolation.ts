/**
 * What is wrong with a query: which parameter and which rule it breaks. The client fails with
 * `InvalidQuery` before sending.
 *
 * @since 0.2.0
 */
import * as QueryText from "@broker-history/core/query/QueryText"
import * as Core from "@broker-history/core/query/QueryViolation"
import * as QueryString from "@broker-history/core/signing/QueryString"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Accepts from "./internal/Accepts.js"

/**
 * The plain parts, from `@broker-history/core/query/QueryViolation`: the violation
 * (`QueryViolation`, `format`), the window and page every history query has (`WindowPage`), the
 * rules' words and checks (`ruleTexts`, `nonEmptyRule`, `integerRule`, `isInteger`, `isMillis`,
 * `inTimeOrder`) and a schema's first failure as a violation (`Failure`, `ofFailure`). The schemas
 * below state the rules with them.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 *
 * const v: QueryViolation.QueryViolation = { parameter: "limit", rule: QueryViolation.integerRule(1, 500), kind: "invalid" }
 * assert.strictEqual(QueryViolation.format(v), "limit must be an integer from 1 to 500")
 * const firstPage: QueryViolation.WindowPage = { startTime: 1644400000000, endTime: 1644489390087, page: 1 }
 * assert.strictEqual(QueryViolation.inTimeOrder(firstPage), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export * from "@broker-history/core/query/QueryViolation"

/**
 * Decodes `input` with `schema` (unknown parameters are errors) and reports the first broken rule.
 *
 * @example
 * ```ts
 * import { QueryViolation, TransferHistoryQuery } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * assert.deepStrictEqual(
 *   QueryViolation.validate(TransferHistoryQuery.TransferHistoryQuery, { fromAccountType: "SPOT" }),
 *   Result.fail({ parameter: "toAccountType", rule: "is required", kind: "missing" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(TransferHistoryQuery.TransferHistoryQuery, {
 *     fromAccountType: "SPOT",
 *     toAccountType: "FUTURES",
 *     coin: "BTC"
 *   }),
 *   Result.fail({ parameter: "coin", rule: "is not a parameter of this endpoint", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const validate = <A>(schema: Schema.Decoder<A>, input: unknown): Result.Result<A, Core.QueryViolation> => {
  const decode = decoders.get(schema) ?? makeDecoder(schema)
  return decode(input) as Result.Result<A, Core.QueryViolation>
}

const decoders = new WeakMap<object, (u: unknown) => Result.Result<unknown, Core.QueryViolation>>()

const makeDecoder = (schema: Schema.Decoder<unknown>) => {
  const full = Schema.decodeUnknownResult(schema, { errors: "first", onExcessProperty: "error" })
  const report = (u: unknown) => Result.mapError(full(u), (error) => toViolation(error.issue))
  const accepts = Accepts.compile(schema.ast)
  // A query is validated before every request: the schema's own rules, run directly, accept a
  // valid one without the schema interpreter's allocations; anything else goes to the schema,
  // which says what is wrong.
  const decode = accepts === undefined ? report : (u: unknown) => accepts(u) ? Result.succeed(u) : report(u)
  decoders.set(schema, decode)
  return decode
}

/**
 * A check that is true only for input the schema decodes to itself: a struct of known keys (required
 * ones present, no others) whose values pass the fields' own checks, and the struct's own checks.
 * Built from the schema's AST; `undefined` for a shape it does not handle (a transformation, a nested
 * struct), which then always goes through the schema.
 *
 * @example
 * ```ts
 * import { QueryViolation, TransferHistoryQuery, TransferRecord } from "@broker-history/domain-effect4"
 *
 * const accepts = QueryViolation.compileAccepts(TransferHistoryQuery.TransferHistoryQuery.ast)!
 * assert.strictEqual(accepts({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 500 }), true)
 * assert.strictEqual(accepts({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 501 }), false)
 * assert.strictEqual(QueryViolation.compileAccepts(TransferRecord.TransferRecord.ast), undefined)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const compileAccepts: (ast: SchemaAST.AST) => ((u: unknown) => boolean) | undefined = Accepts.compile

/**
 * The first failure of a schema issue, the one formatters list first, and the path it is at: the
 * issue is walked through its pointers, groups and transformations down to a leaf (a missing or
 * unexpected key, a value of the wrong type), a failed filter (whose message states the rule), or a
 * union no member of which fits the value.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ limit: QueryViolation.integer(1, 500) })
 * const result = Schema.decodeUnknownResult(Query)({ limit: 501 })
 * assert.ok(Result.isFailure(result))
 * const first = QueryViolation.firstFailure(result.failure.issue)
 * assert.deepStrictEqual(first.path, ["limit"])
 * assert.strictEqual(first.issue._tag, "Filter")
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const firstFailure = (
  issue: SchemaIssue.Issue
): { readonly issue: SchemaIssue.Issue; readonly path: ReadonlyArray<PropertyKey> } => walk(issue, [])

const walk = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>
): { readonly issue: SchemaIssue.Issue; readonly path: ReadonlyArray<PropertyKey> } => {
  switch (issue._tag) {
    case "Pointer":
      return walk(issue.issue, [...path, ...issue.path])
    case "Filter":
      return issue.issue._tag === "InvalidValue" ? { issue, path } : walk(issue.issue, path)
    case "Encoding":
      return walk(issue.issue, path)
    case "Composite":
      return walk(issue.issues[0], path)
    case "AnyOf":
      return issue.issues.length > 0 ? walk(issue.issues[0], path) : { issue, path }
    default:
      return { issue, path }
  }
}

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

const toViolation = (issue: SchemaIssue.Issue): Core.QueryViolation => {
  const first = firstFailure(issue)
  const parameter = first.path.length === 0 ? undefined : String(first.path[0])
  switch (first.issue._tag) {
    case "UnexpectedKey":
      return Core.ofFailure(parameter, { _tag: "Unexpected" })
    case "MissingKey":
      return Core.ofFailure(parameter, { _tag: "Missing" })
    case "AnyOf": {
      // A value of the wrong type for an optional parameter: the rule of the parameter's own type
      // (its `message`), not the union with `undefined` that makes it optional.
      const ast = first.issue.ast
      const own = ast._tag === "Union"
        ? ast.types.map((member) => member.annotations?.message).find((m) => typeof m === "string")
        : undefined
      if (own !== undefined) return Core.ofFailure(parameter, { _tag: "Rule", rule: own })
      break
    }
  }
  return Core.ofFailure(parameter, { _tag: "Rule", rule: formatIssue(first.issue).issues[0]?.message ?? "is invalid" })
}

/**
 * A required non-empty text parameter (the message marks it as missing when empty).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ fromAccountType: QueryViolation.requiredText })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { fromAccountType: "" }),
 *   Result.fail({ parameter: "fromAccountType", rule: "is required", kind: "missing" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const requiredText = Schema.String.annotate({ message: Core.ruleTexts.text }).check(
  Schema.makeFilter((s: string) => s.length > 0, { message: Core.ruleTexts.required })
)

/**
 * An optional text parameter: when given it must be non-empty and free of surrounding spaces.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ coin: Schema.optional(QueryViolation.nonEmptyText("omit it to mean every coin")) })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { coin: "" }),
 *   Result.fail({ parameter: "coin", rule: "must not be empty (omit it to mean every coin)", kind: "invalid" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { coin: " USDT" }),
 *   Result.fail({ parameter: "coin", rule: "must not start or end with spaces", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const nonEmptyText = (whenEmpty: string) =>
  Schema.String.annotate({ message: Core.ruleTexts.text }).check(
    Schema.makeFilter((s: string) => s.length > 0, { message: Core.nonEmptyRule(whenEmpty) }),
    Schema.makeFilter((s: string) => s.trim() === s, { message: Core.ruleTexts.spaces })
  )

/**
 * An integer parameter within bounds (inclusive; `max` may be omitted).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ limit: QueryViolation.integer(1, 500), page: QueryViolation.integer(1) })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { limit: 20.5, page: 1 }),
 *   Result.fail({ parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" })
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { limit: 20, page: 0 }),
 *   Result.fail({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const integer = (min: number, max?: number) => {
  const rule = Core.integerRule(min, max)
  return Schema.Number.annotate({ message: rule }).check(Schema.makeFilter(Core.isInteger(min, max), { message: rule }))
}

/**
 * A Unix millisecond timestamp parameter: a non-negative safe integer.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ startTime: QueryViolation.millis })
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Query, { startTime: -1 }),
 *   Result.fail({
 *     parameter: "startTime",
 *     rule: "must be a Unix millisecond timestamp (a non-negative integer)",
 *     kind: "invalid"
 *   })
 * )
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const millis = Schema.Number.annotate({ message: Core.ruleTexts.timestamp }).check(
  Schema.makeFilter(Core.isMillis, { message: Core.ruleTexts.millis })
)

/**
 * The cross-field rule `startTime <= endTime`, reported on `startTime`: a filter for
 * `Schema.makeFilter`.
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Window = Schema.Struct({ startTime: QueryViolation.millis, endTime: QueryViolation.millis }).check(
 *   Schema.makeFilter(QueryViolation.timeOrder)
 * )
 * assert.deepStrictEqual(
 *   QueryViolation.validate(Window, { startTime: 2, endTime: 1 }),
 *   Result.fail({ parameter: "startTime", rule: "must not be after endTime", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category schemas
 */
export const timeOrder = (q: Pick<Core.WindowPage, "startTime" | "endTime">): Schema.FilterOutput =>
  Core.inTimeOrder(q) || { path: ["startTime"], issue: Core.ruleTexts.timeOrder }

/**
 * Reads business parameters received as text (server side): integer parameters must be base-10
 * integer text; then the query schema's rules apply. `integers` names the integer parameters.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery, QueryViolation } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const read = (params: Record<string, string>) =>
 *   QueryViolation.fromText(DepositHistoryQuery.DepositHistoryQuery, ["limit", "page"], params)
 * assert.deepStrictEqual(Result.map(read({ limit: "20" }), (q) => q.limit), Result.succeed(20))
 * assert.deepStrictEqual(
 *   read({ limit: "0x14" }),
 *   Result.fail({ parameter: "limit", rule: "must be base-10 integer text", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category decoding
 */
export const fromText = <A>(
  schema: Schema.Decoder<A>,
  integers: ReadonlyArray<string>,
  params: Readonly<Record<string, string>>
): Result.Result<A, Core.QueryViolation> => {
  const read = QueryText.read(integers, params)
  if ("violation" in read) return Result.fail(read.violation)
  // The schema's check may accept the null-prototype input itself: what is returned is a plain object
  // like any other.
  return Result.map(validate(schema, read.input), (query) => ({ ...query }))
}

/**
 * How one endpoint's query is read and written, from its schema: `validate` (before sending),
 * `fromText` (parameters received as text, server side) and `toParams` (the parameters present, as
 * text, in the order they are signed and sent).
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/domain-effect4"
 * import { Result, Schema } from "effect"
 *
 * const Query = Schema.Struct({ coin: Schema.optional(Schema.String), limit: Schema.optional(QueryViolation.integer(1, 10)) })
 * const rules: QueryViolation.Rules<typeof Query.Type> = QueryViolation.rules(Query, ["limit"], ["coin", "limit"])
 * assert.deepStrictEqual(rules.fromText({ limit: "5" }), Result.succeed({ limit: 5 }))
 * assert.deepStrictEqual(rules.toParams({ limit: 5, coin: "BTC" }), [["coin", "BTC"], ["limit", "5"]])
 * assert.ok(Result.isFailure(rules.validate({ limit: 11 })))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Rules<Q> {
  readonly validate: (input: unknown) => Result.Result<Q, Core.QueryViolation>
  readonly fromText: (params: Readonly<Record<string, string>>) => Result.Result<Q, Core.QueryViolation>
  readonly toParams: (query: Q) => Array<QueryString.Param>
}

/**
 * The `Rules` of a query schema: `integers` names its integer parameters (read from base-10 text by
 * `fromText`), `order` the order of its parameters on the wire.
 *
 * @example
 * ```ts
 * import { DepositHistoryQuery, QueryViolation } from "@broker-history/domain-effect4"
 * import { Result } from "effect"
 *
 * const deposits = QueryViolation.rules(DepositHistoryQuery.DepositHistoryQuery, ["limit", "page"], ["coin", "limit", "page"])
 * assert.deepStrictEqual(deposits.toParams({ page: 2, coin: "USDT" }), [["coin", "USDT"], ["page", "2"]])
 * assert.deepStrictEqual(
 *   deposits.fromText({ page: "0" }),
 *   Result.fail({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" })
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const rules = <A extends { readonly [K in keyof A]?: string | number | undefined }>(
  schema: Schema.Decoder<A>,
  integers: ReadonlyArray<string>,
  order: ReadonlyArray<keyof A & string>
): Rules<A> => ({
  validate: (input) => validate(schema, input),
  fromText: (params) => fromText(schema, integers, params),
  toParams: QueryString.fields<A>(order)
})
