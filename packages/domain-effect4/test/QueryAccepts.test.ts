// Query validation runs the schemas' own rules directly for a valid query and falls back to the
// schema otherwise: the result must always be the schema's.
import {
  DepositHistoryQuery,
  QueryViolation,
  SubAccountListQuery,
  TransferHistoryQuery
} from "@broker-history/domain-effect4"
import type { SchemaAST } from "effect"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"

const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(""),
  fc.constant(" x"),
  fc.constantFrom("SPOT", "FUTURES", "sub1", "USDT", "5"),
  fc.constant("a".repeat(16) + "B1".repeat(8)),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -2, max: 1200 }),
  fc.constantFrom(0, 1, 200, 201, 500, 501, 1000, 1001, 1.5, Number.NaN, 2 ** 53, 1_700_000_000_000),
  fc.constant({}),
  fc.constant([])
)

const queryOf = (keys: ReadonlyArray<string>) =>
  fc.dictionary(fc.constantFrom(...keys, "coin", "extra", "__proto__"), value, { maxKeys: 8 })

/** The parameters a query schema knows, from its AST. */
const parameterNames = (schema: Schema.Top) =>
  (schema.ast as SchemaAST.Objects).propertySignatures.map((p) => String(p.name))

const schemaOnly = (schema: Schema.Decoder<unknown>) =>
  Schema.decodeUnknownResult(schema, { errors: "first", onExcessProperty: "error" })

const cases = [
  [
    "TransferHistoryQuery",
    TransferHistoryQuery.TransferHistoryQuery,
    TransferHistoryQuery.validate,
    queryOf(parameterNames(TransferHistoryQuery.TransferHistoryQuery)).map((q) => ({
      fromAccountType: "SPOT",
      toAccountType: "FUTURES",
      ...q
    }))
  ],
  [
    "DepositHistoryQuery",
    DepositHistoryQuery.DepositHistoryQuery,
    DepositHistoryQuery.validate,
    queryOf(parameterNames(DepositHistoryQuery.DepositHistoryQuery))
  ],
  [
    "SubAccountListQuery",
    SubAccountListQuery.SubAccountListQuery,
    SubAccountListQuery.validate,
    queryOf(parameterNames(SubAccountListQuery.SubAccountListQuery))
  ]
] as const

describe("query validation: the compiled accept-check agrees with the schema", () => {
  for (const [name, schema, validate, arbitrary] of cases) {
    const accepts = QueryViolation.compileAccepts(schema.ast)

    it(`${name}: same verdict and same value as the schema alone`, () => {
      fc.assert(
        fc.property(arbitrary, (input) => {
          const expected = schemaOnly(schema)(input)
          const actual: Result.Result<unknown, unknown> = (validate as (u: unknown) => Result.Result<unknown, unknown>)(
            input
          )
          expect(Result.isSuccess(actual)).toBe(Result.isSuccess(expected))
          if (Result.isSuccess(actual) && Result.isSuccess(expected)) expect(actual.success).toEqual(expected.success)
          // Never accepts what the schema refuses.
          if (accepts!(input)) expect(Result.isSuccess(expected)).toBe(true)
        }),
        { numRuns: 3000 }
      )
    })

    it(`${name}: the generated queries exercise the compiled check (many are accepted by it)`, () => {
      expect(accepts).toBeDefined()
      const acceptedFast = fc.sample(arbitrary, { numRuns: 3000, seed: 13 }).filter((q) => accepts!(q)).length
      expect(acceptedFast).toBeGreaterThan(50)
    })
  }

  it("a valid query is accepted without the schema interpreter (the input itself comes back)", () => {
    const q = { fromAccountType: "SPOT", toAccountType: "FUTURES", startTime: 1, endTime: 2, limit: 500 }
    const r = TransferHistoryQuery.validate(q)
    expect(Result.isSuccess(r) && r.success === q).toBe(true)
    const bad = { ...q, limit: 501 }
    expect(TransferHistoryQuery.validate(bad)).toEqual(
      Result.fail({ parameter: "limit", rule: "must be an integer from 1 to 500", kind: "invalid" })
    )
  })

  it("anything the check cannot vouch for goes to the schema: inherited keys, symbols, non-objects", () => {
    const accepts = QueryViolation.compileAccepts(DepositHistoryQuery.DepositHistoryQuery.ast)!
    expect(accepts({ coin: "USDT" })).toBe(true)
    expect(accepts(Object.create({ coin: "USDT" }))).toBe(false)
    expect(accepts({ coin: "USDT", [Symbol("s")]: 1 })).toBe(false)
    expect(accepts(null)).toBe(false)
    expect(accepts([])).toBe(false)
    expect(accepts({ startTime: 2, endTime: 1 })).toBe(false)
    expect(QueryViolation.compileAccepts(Schema.Struct({ n: Schema.NumberFromString }).ast)).toBeUndefined()
  })
})
