// The compiled page decoders must decode exactly as the schemas do: they accept exactly what the
// schema accepts, with the same values, and `Field.decoder` gives the schema's own error for anything
// else.
import { DepositRecord, Field, TransferRecord } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema, SchemaAST } from "effect"
import * as fc from "fast-check"
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

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
  fc.constant([]),
  fc.jsonValue({ maxDepth: 2 })
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

/**
 * A record built from a valid one with some fields replaced, removed or added (arbitrary names with
 * arbitrary JSON values), sometimes through JSON as the client receives it.
 */
const mutated = (valid: Record<string, unknown>, fields: ReadonlyArray<string>) =>
  fc.tuple(
    fc.array(fc.tuple(fc.constantFrom(...fields), anyValue), { maxLength: 3 }),
    fc.subarray([...fields], { maxLength: 2 }),
    fc.boolean(),
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    fc.boolean()
  ).map(([changes, removed, extra, others, viaJson]) => {
    const record: Record<string, unknown> = { ...valid }
    for (const [name, value] of changes) record[name] = value
    for (const name of removed) delete record[name]
    if (extra) record.unexpected = { nested: 1 }
    Object.assign(record, others)
    return viaJson ? JSON.parse(JSON.stringify(record)) as unknown : record
  })

const page = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(record, { maxLength: 6 }) },
    { weight: 1, arbitrary: anyValue },
    { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }
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
  // The compiled decoder accepts exactly what the schema accepts (valid input never takes the slow
  // path), with the same value.
  const compiled = compiledOf(schema)(input)
  expect(compiled !== undefined).toBe(Either.isRight(viaSchema))
  if (compiled !== undefined) expect(compiled).toStrictEqual(Either.getOrThrow(viaSchema))
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

describe("without code generation", () => {
  const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
  const pages = {
    transfers: [validTransfer, { ...validTransfer, tranId: 42, fromSymbol: null, fromsymbol: "BTCUSDT" }],
    broken: [validTransfer, { ...validTransfer, amount: 0.1 }],
    deposits: [validDeposit, { ...validDeposit, status: "7", memo: "m" }]
  }
  // What the page decoders answer, as JSON: the same in a Node that refuses to generate code.
  const script = `
    import { DepositRecord, Field, TransferRecord } from "@broker-history/domain"
    const pages = ${JSON.stringify(pages)}
    let refused = false
    try { new Function("return 1") } catch (e) { refused = e instanceof EvalError }
    const transfers = Field.decoder(TransferRecord.TransferPage)
    const deposits = Field.decoder(DepositRecord.DepositPage)
    const answer = (e) => e._tag === "Right" ? e.right : e.left.message
    console.log(JSON.stringify({
      refused,
      transfers: answer(transfers(pages.transfers)),
      broken: answer(transfers(pages.broken)),
      deposits: answer(deposits(pages.deposits))
    }))
  `

  it(
    "the record pages decode as the schemas in a runtime that refuses it (a Content-Security-Policy without 'unsafe-eval')",
    () => {
      const output = ChildProcess.execFileSync(
        process.execPath,
        ["--disallow-code-generation-from-strings", "--import", "tsx", "--input-type=module", "--eval", script],
        { cwd: packageDir, encoding: "utf8" }
      )
      const answer = <A, I>(schema: Schema.Schema<A, I>, page: unknown) =>
        Either.match(Schema.decodeUnknownEither(schema)(page), { onLeft: (e) => e.message, onRight: (a) => a })
      expect(JSON.parse(output)).toStrictEqual({
        refused: true,
        transfers: answer(TransferRecord.TransferPage, pages.transfers),
        broken: answer(TransferRecord.TransferPage, pages.broken),
        deposits: answer(DepositRecord.DepositPage, pages.deposits)
      })
    },
    30_000
  )
})
