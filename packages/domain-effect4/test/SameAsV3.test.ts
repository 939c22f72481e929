// The Effect 4 schemas accept exactly what the Effect 3 line's accept, decode to the same values and
// encode to the same wire shapes; query validation names the same parameter, kind and rule. The two
// lines run side by side here, each on its own copy of effect: only plain data passes between them. (Encoding is held to the
// documented wire shapes in Records.test.ts and SubAccount.test.ts.)
import * as V3 from "@broker-history/domain"
import * as V4 from "@broker-history/domain-effect4"
import { Result, Schema } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { anyValue, depositFields, mutated, page, transferFields, validDeposit, validTransfer } from "./arbitraries.js"

/** A schema of the Effect 3 line (of its own copy of effect). */
type V3Schema<A, I> = Parameters<typeof V3.Field.decoder<A, I>>[0]

/** A decoding by the Effect 3 line, as a plain verdict: the value, or that it failed. */
const viaV3 = <A, I>(schema: V3Schema<A, I>) => {
  const decode = V3.Field.decoder(schema)
  return (input: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
    const result = decode(input)
    return result._tag === "Right" ? { ok: true, value: result.right } : { ok: false }
  }
}

const viaV4 = <A>(schema: Schema.Decoder<A>) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
    const result = decode(input)
    return Result.isSuccess(result) ? { ok: true, value: result.success } : { ok: false }
  }
}

const sameDecoding = <A, I>(
  v3: V3Schema<A, I>,
  v4: Schema.Decoder<unknown>,
  arbitrary: fc.Arbitrary<unknown>,
  numRuns = 2000
) => {
  const three = viaV3(v3)
  const four = viaV4(v4)
  fc.assert(
    fc.property(arbitrary, (input) => {
      expect(four(input)).toStrictEqual(three(input))
    }),
    { numRuns }
  )
}

const subAccountRecord = fc.record({
  subAccount: fc.oneof(fc.constantFrom("mexc1", "", " a", "a".repeat(257)), anyValue),
  note: anyValue,
  timestamp: fc.oneof(fc.constantFrom("1597026383085", "1597026383085.5", 1597026383085, -1), anyValue)
}, { requiredKeys: [] })

const subAccountPage = fc.oneof(
  fc.array(subAccountRecord, { maxLength: 3 }),
  fc.record({
    code: fc.oneof(fc.constantFrom(0, "0", "000", "700001", 700001, 1.5, ""), anyValue),
    message: anyValue,
    data: fc.oneof(fc.array(subAccountRecord, { maxLength: 3 }), anyValue)
  }, { requiredKeys: [] }),
  anyValue
)

const errorBody = fc.record({
  code: fc.oneof(
    fc.constantFrom(700002, "33333", "", "  ", " 12", "1e3", "12.0", "0x10", "NaN", "Infinity", "+5", "-5", "1_000"),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 4 }),
    anyValue
  ),
  msg: anyValue
}, { requiredKeys: [] })

describe("the Effect 4 record schemas decode as the Effect 3 line's", () => {
  it("transfer records and pages", () => {
    sameDecoding(
      V3.TransferRecord.TransferPage,
      V4.TransferRecord.TransferPage,
      page(mutated(validTransfer, transferFields))
    )
    sameDecoding(
      V3.TransferRecord.TransferRecord,
      V4.TransferRecord.TransferRecord,
      mutated(validTransfer, transferFields)
    )
  })

  it("deposit records and pages", () => {
    sameDecoding(V3.DepositRecord.DepositPage, V4.DepositRecord.DepositPage, page(mutated(validDeposit, depositFields)))
    sameDecoding(V3.DepositRecord.DepositRecord, V4.DepositRecord.DepositRecord, mutated(validDeposit, depositFields))
  })

  it("sub-account list pages, enveloped or bare", () => {
    sameDecoding(V3.SubAccount.SubAccountPage, V4.SubAccount.SubAccountPage, subAccountPage, 3000)
  })

  it("failure bodies", () => {
    sameDecoding(V3.ErrorBody.ErrorBody, V4.ErrorBody.ErrorBody, errorBody, 3000)
  })

  it("decimal text, names and creation times", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom("12.5", "-3", "3.", "1e5", "0.10000000"),
      anyValue
    )
    sameDecoding(V3.Decimal.DecimalString, V4.Decimal.DecimalString, text)
    sameDecoding(V3.SubAccount.Name, V4.SubAccount.Name, text)
    sameDecoding(V3.SubAccount.CreationTime, V4.SubAccount.CreationTime, text)
  })
})

// A value a query parameter may be given.
const parameterValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom("", " x", "SPOT", "FUTURES", "sub1", "USDT", "5", "a".repeat(16) + "B1".repeat(8)),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -2, max: 1200 }),
  fc.constantFrom(0, 1, 200, 201, 500, 501, 1000, 1001, 1.5, Number.NaN, 2 ** 53, 1_700_000_000_000),
  fc.constant({}),
  fc.constant([])
)

const queryOf = (names: ReadonlyArray<string>) =>
  fc.oneof(
    {
      weight: 9,
      arbitrary: fc.dictionary(fc.constantFrom(...names, "coin", "extra", "__proto__"), parameterValue, { maxKeys: 6 })
    },
    { weight: 1, arbitrary: anyValue }
  )

const textOf = (names: ReadonlyArray<string>) =>
  fc.dictionary(
    fc.constantFrom(...names, "coin", "extra"),
    fc.oneof(
      fc.constantFrom("", "0", "1", "01", "20", "500", "501", "-1", "1.0", "1e3", " 1", "SPOT", "USDT"),
      fc.string({ maxLength: 3 })
    ),
    { maxKeys: 5 }
  )

const v3Violation = (result: ReturnType<typeof V3.QueryViolation.validate>) =>
  result._tag === "Right" ? { ok: true, value: result.right } : { ok: false, violation: result.left }
const v4Violation = (result: Result.Result<unknown, V4.QueryViolation.QueryViolation>) =>
  Result.isSuccess(result) ? { ok: true, value: result.success } : { ok: false, violation: result.failure }

// The Effect 3 line words a value of the wrong type for a parameter without a rule of its own as the
// schema library does ("Expected string, actual 5"); the Effect 4 line says "must be text".
const v3Wording = /^Expected string, actual /

const sameViolations = (
  v3: (input: unknown) => ReturnType<typeof v3Violation>,
  v4: (input: unknown) => ReturnType<typeof v4Violation>,
  arbitrary: fc.Arbitrary<unknown>
) =>
  fc.assert(
    fc.property(arbitrary, (input) => {
      const three = v3(input)
      const four = v4(input)
      if (!three.ok && !four.ok && v3Wording.test(three.violation!.rule)) {
        expect({ ...four.violation, rule: "" }).toStrictEqual({ ...three.violation, rule: "" })
        expect(four.violation!.rule).toBe("must be text")
      } else {
        expect(four).toStrictEqual(three)
      }
    }),
    { numRuns: 3000 }
  )

const names = {
  transfers: [
    "fromAccountType",
    "toAccountType",
    "fromAccount",
    "toAccount",
    "clientTranId",
    "startTime",
    "endTime",
    "page",
    "limit"
  ],
  deposits: ["coin", "status", "startTime", "endTime", "limit", "page"],
  subAccounts: ["subAccount", "page", "limit"]
}

describe("the Effect 4 query rules are the Effect 3 line's", () => {
  it("transfer-history queries", () => {
    const transfers = fc.oneof(
      queryOf(names.transfers),
      queryOf(names.transfers).map((q) => ({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...q as object }))
    )
    sameViolations(
      (u) => v3Violation(V3.TransferHistoryQuery.validate(u)),
      (u) => v4Violation(V4.TransferHistoryQuery.validate(u)),
      transfers
    )
    sameViolations(
      (u) => v3Violation(V3.TransferHistoryQuery.fromText(u as Record<string, string>)),
      (u) => v4Violation(V4.TransferHistoryQuery.fromText(u as Record<string, string>)),
      textOf(names.transfers).map((q) => ({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...q }))
    )
  })

  it("deposit-history queries", () => {
    sameViolations(
      (u) => v3Violation(V3.DepositHistoryQuery.validate(u)),
      (u) => v4Violation(V4.DepositHistoryQuery.validate(u)),
      queryOf(names.deposits)
    )
    sameViolations(
      (u) => v3Violation(V3.DepositHistoryQuery.fromText(u as Record<string, string>)),
      (u) => v4Violation(V4.DepositHistoryQuery.fromText(u as Record<string, string>)),
      textOf(names.deposits)
    )
  })

  it("sub-account list queries", () => {
    sameViolations(
      (u) => v3Violation(V3.SubAccountListQuery.validate(u)),
      (u) => v4Violation(V4.SubAccountListQuery.validate(u)),
      queryOf(names.subAccounts)
    )
  })
})
