/**
 * How the shared internal modules decode bodies with this line's `Schema` (Effect 4's): the schema
 * type a page call takes, a decoder made once per schema, the error body, and a decoding failure in
 * one line (`DecodeIssue`). The Effect 3 line's module of the same name has the same exports
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import { ErrorBody, Field } from "@broker-history/domain-effect4"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaParser from "effect/SchemaParser"
import * as DecodeIssue from "./DecodeIssue.js"

/** A schema a body is decoded with. */
export type Decoder<A> = Schema.Decoder<A>

/** What is wrong with a body a decoder refused. */
export type Issue = SchemaIssue.Issue

/** A decoder of a body's JSON value. */
export type Decode<A> = (u: unknown) => Result.Result<A, Issue>

// Built once per schema. The record pages carry a compiled decoder (the schema's field rules in one
// pass, with the schema itself as the fallback that reports what is wrong): with a generic Schema
// decoder, decoding a page cost several times the HTTP exchange (see packages/bench/README.md).
const decoders = new WeakMap<object, Decode<any>>()

/** The decoder of `schema`, made on first use. */
export const decoderFor = <A>(schema: Decoder<A>): Decode<A> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    const decodeSchema = Field.decoder(schema)
    decode = (u) => Result.mapError(decodeSchema(u), (error) => error.issue)
    decoders.set(schema, decode)
  }
  return decode
}

const ServerTime = Schema.Struct({
  serverTime: Schema.Union([Schema.Number, Schema.NumberFromString])
})

/** The body of the server clock's answer. */
export const decodeServerTime: Decode<{ readonly serverTime: number }> = decoderFor(ServerTime)

const decodeErrorBodyResult = SchemaParser.decodeUnknownResult(ErrorBody.ErrorBody)

/** A `{code,msg}` failure body, or `undefined` when the body is not one. */
export const decodeErrorBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  const body = decodeErrorBodyResult(u)
  return Result.isSuccess(body) ? body.success : undefined
}

/** A decoding failure of `input` as one short line (`DecodeIssue`). */
export const describe = (issue: Issue, input: unknown): string => DecodeIssue.describe(issue, input)
