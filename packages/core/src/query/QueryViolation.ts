/**
 * What is wrong with a query: which parameter and which rule it breaks, and the rules' own words.
 * Each line's domain re-exports it as part of its `QueryViolation`, with the schemas that state the
 * rules; its client fails with `InvalidQuery` before sending, and the reference service answers
 * 700004 or 33333.
 *
 * @since 0.2.0
 */

/**
 * A broken rule: `missing` when a mandatory parameter is absent or empty, `invalid` otherwise.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * const v: QueryViolation.QueryViolation = {
 *   parameter: "limit",
 *   rule: "must be an integer from 1 to 500",
 *   kind: "invalid"
 * }
 * assert.strictEqual(QueryViolation.format(v), "limit must be an integer from 1 to 500")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface QueryViolation {
  readonly parameter: string
  readonly rule: string
  readonly kind: "missing" | "invalid"
}

/**
 * Renders a violation as one sentence: `limit must be an integer from 1 to 500`.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(
 *   QueryViolation.format({ parameter: "page", rule: "must be an integer >= 1", kind: "invalid" }),
 *   "page must be an integer >= 1"
 * )
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const format = (violation: QueryViolation): string => `${violation.parameter} ${violation.rule}`

/**
 * The parameters every history query has: the time window (Unix ms, inclusive) and the page.
 *
 * @example
 * ```ts
 * import type * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * const firstPage: QueryViolation.WindowPage = { startTime: 1644400000000, endTime: 1644489390087, page: 1 }
 * assert.strictEqual(firstPage.limit, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface WindowPage {
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}

/**
 * The words of the rules every query shares, as violations and the schemas' messages state them.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.ruleTexts.required, "is required")
 * assert.strictEqual(QueryViolation.ruleTexts.timeOrder, "must not be after endTime")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const ruleTexts = {
  /** A mandatory parameter absent or empty (the violation's kind is then `missing`). */
  required: "is required",
  /** A parameter the endpoint does not have. */
  unknown: "is not a parameter of this endpoint",
  /** Not an object of parameters at all. */
  notParameters: "must be an object of parameters",
  /** A text parameter given another type. */
  text: "must be text",
  /** A text parameter with spaces around it. */
  spaces: "must not start or end with spaces",
  /** A timestamp parameter given another type. */
  timestamp: "must be a Unix millisecond timestamp",
  /** A timestamp parameter that is a number but not a timestamp. */
  millis: "must be a Unix millisecond timestamp (a non-negative integer)",
  /** A window whose start is after its end (reported on `startTime`). */
  timeOrder: "must not be after endTime",
  /** An integer parameter received as other text (server side). */
  integerText: "must be base-10 integer text"
} as const

/**
 * The rule of an optional text parameter given empty: what omitting it means.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.nonEmptyRule("omit it to mean every coin"), "must not be empty (omit it to mean every coin)")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const nonEmptyRule = (whenEmpty: string): string => `must not be empty (${whenEmpty})`

/**
 * The rule of an integer parameter within bounds (inclusive; `max` may be omitted).
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.integerRule(1, 500), "must be an integer from 1 to 500")
 * assert.strictEqual(QueryViolation.integerRule(1), "must be an integer >= 1")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const integerRule = (min: number, max?: number): string =>
  max === undefined ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`

/**
 * Whether `n` keeps the rule `integerRule(min, max)` states: a safe integer within the bounds.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.isInteger(1, 500)(500), true)
 * assert.strictEqual(QueryViolation.isInteger(1, 500)(20.5), false)
 * assert.strictEqual(QueryViolation.isInteger(1)(2 ** 60), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isInteger = (min: number, max?: number) => (n: number): boolean =>
  Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max)

/**
 * Whether `n` is a Unix millisecond timestamp: a non-negative safe integer.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.isMillis(1735689600000), true)
 * assert.strictEqual(QueryViolation.isMillis(-1), false)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const isMillis = (n: number): boolean => Number.isSafeInteger(n) && n >= 0

/**
 * Whether a window keeps `startTime <= endTime` (a window with a bound missing does).
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.strictEqual(QueryViolation.inTimeOrder({ startTime: 2, endTime: 1 }), false)
 * assert.strictEqual(QueryViolation.inTimeOrder({ startTime: 2 }), true)
 * ```
 *
 * @since 0.2.0
 * @category guards
 */
export const inTimeOrder = (q: Pick<WindowPage, "startTime" | "endTime">): boolean =>
  q.startTime === undefined || q.endTime === undefined || q.startTime <= q.endTime

/**
 * The first failure of a decoded query as a schema reports it: at which parameter (`undefined` when
 * the input is not an object of parameters at all), and whether the key was unexpected, missing, or
 * its value broke a rule in the words of that rule.
 *
 * @example
 * ```ts
 * import type * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * const failure: QueryViolation.Failure = { _tag: "Rule", rule: "must be an integer from 1 to 500" }
 * assert.strictEqual(failure._tag, "Rule")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Failure =
  | { readonly _tag: "Unexpected" }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Rule"; readonly rule: string }

/**
 * The violation of a query's first failure: an unexpected key is not a parameter of the endpoint, a
 * missing key (or the rule `ruleTexts.required`: an empty mandatory text) is `missing`, any other rule
 * broken is `invalid`.
 *
 * @example
 * ```ts
 * import * as QueryViolation from "@broker-history/core/query/QueryViolation"
 *
 * assert.deepStrictEqual(QueryViolation.ofFailure("coin", { _tag: "Unexpected" }), {
 *   parameter: "coin",
 *   rule: "is not a parameter of this endpoint",
 *   kind: "invalid"
 * })
 * assert.deepStrictEqual(QueryViolation.ofFailure("toAccountType", { _tag: "Rule", rule: "is required" }), {
 *   parameter: "toAccountType",
 *   rule: "is required",
 *   kind: "missing"
 * })
 * assert.strictEqual(QueryViolation.ofFailure(undefined, { _tag: "Missing" }).parameter, "query")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const ofFailure = (parameter: string | undefined, failure: Failure): QueryViolation => {
  if (parameter === undefined) return { parameter: "query", rule: ruleTexts.notParameters, kind: "invalid" }
  switch (failure._tag) {
    case "Unexpected":
      return { parameter, rule: ruleTexts.unknown, kind: "invalid" }
    case "Missing":
      return { parameter, rule: ruleTexts.required, kind: "missing" }
    case "Rule":
      return { parameter, rule: failure.rule, kind: failure.rule === ruleTexts.required ? "missing" : "invalid" }
  }
}
