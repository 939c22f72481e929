// The compiled page decoders must decode exactly as the schemas do: same values for what the schema
// accepts, and the schema's own error for anything else.
import { Decimal, DepositRecord, Field, TransferRecord } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema, SchemaAST } from "effect"
import * as fc from "fast-check"

const compiledOf = <A, I>(schema: Schema.Schema<A, I>) =>
  Option.getOrThrow(SchemaAST.getAnnotation<Field.CompiledDecoder<A>>(schema.ast, Field.CompiledDecoderId))

// Values that each field rule accepts or rejects, mixed so that every rule is exercised both ways.
const anyValue = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(""),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("0", "12.5", "-3", "0.10000000", "1e5", "3.", "1644489390087", "-1", "99999999999999999"),
  fc.integer({ min: -5, max: 2_000_000_000_000 }),
  fc.constantFrom(1.5, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53),
  fc.boolean(),
  fc.constant({}),
  fc.constant([])
)

const transferFields = [
  "tranId",
  "clientTranId",
  "fromAccount",
  "toAccount",
  "asset",
  "amount",
  "fromAccountType",
  "toAccountType",
  "fromSymbol",
  "fromsymbol",
  "toSymbol",
  "tosymbol",
  "status",
  "timestamp"
] as const

const depositFields = [
  "amount",
  "coin",
  "network",
  "status",
  "address",
  "addressTag",
  "txId",
  "unlockConfirm",
  "confirmTimes",
  "insertTime",
  "memo"
] as const

const validTransfer = {
  tranId: "11945860693",
  clientTranId: null,
  fromAccount: "master@test.com",
  toAccount: "sub@test.com",
  asset: "BTC",
  amount: "0.10000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: 1544433325000
}

const validDeposit = {
  amount: "50000.00000000",
  coin: "USDT",
  network: "TRC20",
  status: 5,
  address: "TDU1zKLkC7JqKg5y7w2k3L9fvMTzjMn2cK",
  addressTag: "",
  txId: "0xabc",
  unlockConfirm: "12",
  confirmTimes: 12,
  insertTime: 1654064568000,
  memo: null
}

/** A record built from a valid one with some fields replaced, removed or added. */
const mutated = (valid: Record<string, unknown>, fields: ReadonlyArray<string>) =>
  fc.tuple(
    fc.array(fc.tuple(fc.constantFrom(...fields), anyValue), { maxLength: 3 }),
    fc.subarray([...fields], { maxLength: 2 }),
    fc.boolean()
  ).map(([changes, removed, extra]) => {
    const record: Record<string, unknown> = { ...valid }
    for (const [name, value] of changes) record[name] = value
    for (const name of removed) delete record[name]
    if (extra) record.unexpected = { nested: 1 }
    return record
  })

const page = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(record, { maxLength: 6 }) },
    { weight: 1, arbitrary: anyValue }
  )

const sameAsSchema = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const viaSchema = Schema.decodeUnknownEither(schema)(input)
  const viaDecoder = Field.decoder(schema)(input)
  expect(Either.isRight(viaDecoder)).toBe(Either.isRight(viaSchema))
  if (Either.isRight(viaSchema) && Either.isRight(viaDecoder)) {
    expect(viaDecoder.right).toStrictEqual(viaSchema.right)
  }
  if (Either.isLeft(viaSchema) && Either.isLeft(viaDecoder)) {
    expect(viaDecoder.left.message).toBe(viaSchema.left.message)
  }
  // Whatever the compiled decoder accepts, the schema accepts, with the same value.
  const compiled = compiledOf(schema)(input)
  if (compiled !== undefined) {
    expect(Either.isRight(viaSchema)).toBe(true)
    expect(compiled).toStrictEqual(Either.getOrThrow(viaSchema))
  }
}

describe("compiled decoders", () => {
  it.prop("transfer pages decode exactly as the schema", [page(mutated(validTransfer, transferFields))], ([input]) => {
    sameAsSchema(TransferRecord.TransferPage, input)
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("deposit pages decode exactly as the schema", [page(mutated(validDeposit, depositFields))], ([input]) => {
    sameAsSchema(DepositRecord.DepositPage, input)
  }, { fastCheck: { numRuns: 3000 } })

  it.prop(
    "single records decode exactly as the schema",
    [mutated(validTransfer, transferFields), mutated(validDeposit, depositFields)],
    ([t, d]) => {
      sameAsSchema(TransferRecord.TransferRecord, t)
      sameAsSchema(DepositRecord.DepositRecord, d)
    },
    { fastCheck: { numRuns: 2000 } }
  )

  it("the compiled path takes documented wire shapes (both symbol spellings, numeric ids and times as text)", () => {
    const { fromSymbol: _f, toSymbol: _t, ...lower } = validTransfer
    const wire = [
      validTransfer,
      { ...lower, fromsymbol: "BTCUSDT", tosymbol: null },
      { ...validTransfer, tranId: 42, timestamp: "1544433325000", fromSymbol: "X", fromsymbol: "Y" }
    ]
    const compiled = compiledOf(TransferRecord.TransferPage)(wire)
    expect(compiled).toStrictEqual(Either.getOrThrow(Schema.decodeUnknownEither(TransferRecord.TransferPage)(wire)))
    expect(compiled?.map((r) => r.fromSymbol)).toEqual(["", "BTCUSDT", "X"])
    const deposits = [validDeposit, { ...validDeposit, status: "7", confirmTimes: null, memo: "m" }]
    expect(compiledOf(DepositRecord.DepositPage)(deposits)).toStrictEqual(
      Either.getOrThrow(Schema.decodeUnknownEither(DepositRecord.DepositPage)(deposits))
    )
  })

  it("a broken record falls back to the schema, which names the field", () => {
    const broken = [validTransfer, { ...validTransfer, amount: "1e5" }]
    expect(compiledOf(TransferRecord.TransferPage)(broken)).toBeUndefined()
    const error = Either.getLeft(Field.decoder(TransferRecord.TransferPage)(broken))
    expect(Option.getOrThrow(error).message).toContain("amount")
  })
})

describe("Field.compiledStruct", () => {
  const readers = { id: Field.readId, amount: Decimal.readDecimalString, note: Field.readOptionalText }
  const struct = Schema.Struct({ id: Field.Id, amount: Decimal.DecimalString, note: Field.OptionalText })
  const record = fc.record(
    { id: anyValue, amount: anyValue, note: anyValue, other: anyValue },
    { requiredKeys: [] }
  )

  // Written out as code where that is allowed (here), as a loop over the fields where it is not.
  it.prop("decodes as the schema, written out or looped", [fc.oneof(record, anyValue)], ([input]) => {
    const expected = Schema.decodeUnknownOption(struct)(input)
    const writtenOut = Field.compiledStruct(readers)
    const looped = withoutCodeGeneration(() => Field.compiledStruct(readers))
    for (const compiled of [writtenOut, looped]) {
      const decoded = compiled(input)
      expect(Option.fromNullable(decoded)).toStrictEqual(expected)
      if (decoded !== undefined) expect(Object.keys(decoded)).toEqual(["id", "amount", "note"])
    }
  }, { fastCheck: { numRuns: 2000 } })

  it("falls back to the loop where code cannot be generated, and for names that are not identifiers", () => {
    const looped = withoutCodeGeneration(() => Field.compiledStruct(readers))
    expect(looped({ id: 7, amount: "1.5", note: null })).toStrictEqual({ id: "7", amount: "1.5", note: "" })
    const odd = Field.compiledStruct({ "a-b": Field.readText, "c d": Field.readText })
    expect(odd({ "a-b": "x", "c d": "y" })).toStrictEqual({ "a-b": "x", "c d": "y" })
    expect(odd({ "a-b": "x" })).toBeUndefined()
  })
})

// Runs `f` in a runtime that refuses to generate code (as under a Content-Security-Policy).
const withoutCodeGeneration = <A>(f: () => A): A => {
  const original = globalThis.Function
  globalThis.Function = function() {
    throw new EvalError("code generation from strings disallowed for this context")
  } as unknown as FunctionConstructor
  try {
    return f()
  } finally {
    globalThis.Function = original
  }
}
