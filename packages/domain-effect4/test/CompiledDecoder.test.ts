// The compiled page decoders must decode exactly as the schemas do: they accept exactly what the
// schema accepts, with the same values, and `Field.decoder` gives the schema's own error for anything
// else.
import { DepositRecord, Field, TransferRecord } from "@broker-history/domain-effect4"
import type { Schema as S } from "effect"
import { Result, Schema, SchemaAST } from "effect"
import * as fc from "fast-check"
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { depositFields, mutated, page, transferFields, validDeposit, validTransfer } from "./arbitraries.js"

const compiledOf = <A>(schema: S.Decoder<A>): Field.CompiledDecoder<A> => {
  const compiled = SchemaAST.resolveAt<Field.CompiledDecoder<A>>(Field.CompiledDecoderId)(schema.ast)
  if (compiled === undefined) throw new Error("no compiled decoder")
  return compiled
}

const sameAsSchema = <A>(schema: S.Decoder<A>, input: unknown) => {
  const viaSchema = Schema.decodeUnknownResult(schema)(input)
  const viaDecoder = Field.decoder(schema)(input)
  expect(Result.isSuccess(viaDecoder)).toBe(Result.isSuccess(viaSchema))
  if (Result.isSuccess(viaSchema) && Result.isSuccess(viaDecoder)) {
    expect(viaDecoder.success).toStrictEqual(viaSchema.success)
  }
  if (Result.isFailure(viaSchema) && Result.isFailure(viaDecoder)) {
    expect(viaDecoder.failure.message).toBe(viaSchema.failure.message)
  }
  // The compiled decoder accepts exactly what the schema accepts (valid input never takes the slow
  // path), with the same value.
  const compiled = compiledOf(schema)(input)
  expect(compiled !== undefined).toBe(Result.isSuccess(viaSchema))
  if (compiled !== undefined) expect(compiled).toStrictEqual(Result.getOrThrow(viaSchema))
}

describe("compiled decoders", () => {
  it("transfer pages decode exactly as the schema", () => {
    fc.assert(
      fc.property(page(mutated(validTransfer, transferFields)), (input) => {
        sameAsSchema(TransferRecord.TransferPage, input)
      }),
      { numRuns: 3000 }
    )
  })

  it("deposit pages decode exactly as the schema", () => {
    fc.assert(
      fc.property(page(mutated(validDeposit, depositFields)), (input) => {
        sameAsSchema(DepositRecord.DepositPage, input)
      }),
      { numRuns: 3000 }
    )
  })

  it("single records decode exactly as the schema", () => {
    fc.assert(
      fc.property(mutated(validTransfer, transferFields), mutated(validDeposit, depositFields), (t, d) => {
        sameAsSchema(TransferRecord.TransferRecord, t)
        sameAsSchema(DepositRecord.DepositRecord, d)
      }),
      { numRuns: 2000 }
    )
  })

  it("the compiled path takes documented wire shapes (both symbol spellings, numeric ids and times as text)", () => {
    const { fromSymbol: _f, toSymbol: _t, ...lower } = validTransfer
    const wire = [
      validTransfer,
      { ...lower, fromsymbol: "BTCUSDT", tosymbol: null },
      { ...validTransfer, tranId: 42, timestamp: "1544433325000", fromSymbol: "X", fromsymbol: "Y" }
    ]
    const compiled = compiledOf(TransferRecord.TransferPage)(wire)
    expect(compiled).toStrictEqual(Result.getOrThrow(Schema.decodeUnknownResult(TransferRecord.TransferPage)(wire)))
    expect(compiled?.map((r) => r.fromSymbol)).toEqual(["", "BTCUSDT", "X"])
    const deposits = [validDeposit, { ...validDeposit, status: "7", confirmTimes: null, memo: "m" }]
    expect(compiledOf(DepositRecord.DepositPage)(deposits)).toStrictEqual(
      Result.getOrThrow(Schema.decodeUnknownResult(DepositRecord.DepositPage)(deposits))
    )
  })

  it("a broken record falls back to the schema, which names the record and the field", () => {
    const broken = [validTransfer, { ...validTransfer, amount: "1e5" }]
    expect(compiledOf(TransferRecord.TransferPage)(broken)).toBeUndefined()
    const error = Field.decoder(TransferRecord.TransferPage)(broken)
    expect(Result.isFailure(error) && error.failure.message).toBe(
      "expected decimal text such as \"12.5\"\n  at [1][\"amount\"]"
    )
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
    import { DepositRecord, Field, TransferRecord } from "@broker-history/domain-effect4"
    const pages = ${JSON.stringify(pages)}
    let refused = false
    try { new Function("return 1") } catch (e) { refused = e instanceof EvalError }
    const transfers = Field.decoder(TransferRecord.TransferPage)
    const deposits = Field.decoder(DepositRecord.DepositPage)
    const answer = (r) => r._tag === "Success" ? r.success : r.failure.message
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
      const answer = <A>(schema: S.Decoder<A>, page: unknown) =>
        Result.match(Schema.decodeUnknownResult(schema)(page), { onFailure: (e) => e.message, onSuccess: (a) => a })
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
