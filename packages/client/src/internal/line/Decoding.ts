/**
 * How the shared internal modules decode bodies with this line's `Schema` (Effect 3's): the schema
 * type a page call takes, a decoder made once per schema, the error body, and a decoding failure in
 * one line (`DecodeIssue`). The Effect 4 line's module of the same name has the same exports
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import { ErrorBody, Field } from "@broker-history/domain"
import * as Either from "effect/Either"
import type * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as DecodeIssue from "./DecodeIssue.js"
import type * as Results from "./Results.js"

/** A schema a body is decoded with. */
export type Decoder<A> = Schema.Schema<A, any>

/** What is wrong with a body a decoder refused. */
export type Issue = ParseResult.ParseError

/** A decoder of a body's JSON value. */
export type Decode<A> = (u: unknown) => Results.Result<A, Issue>

// Built once per schema. The record pages carry a compiled decoder (the schema's field rules in one
// pass, with the schema itself as the fallback that reports what is wrong): with a generic Schema
// decoder, decoding a page cost several times the HTTP exchange (see packages/bench/README.md).
const decoders = new WeakMap<object, Decode<any>>()

/** The decoder of `schema`, made on first use. */
export const decoderFor = <A>(schema: Decoder<A>): Decode<A> => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    decode = Field.decoder(schema)
    decoders.set(schema, decode)
  }
  return decode
}

const ServerTime = Schema.Struct({
  serverTime: Schema.Union(Schema.Number, Schema.NumberFromString)
})

/** The body of the server clock's answer. */
export const decodeServerTime: Decode<{ readonly serverTime: number }> = decoderFor(ServerTime)

const decodeErrorBodyEither = Schema.decodeUnknownEither(ErrorBody.ErrorBody)

/** A `{code,msg}` failure body, or `undefined` when the body is not one. */
export const decodeErrorBody = (u: unknown): ErrorBody.ErrorBody | undefined => {
  const body = decodeErrorBodyEither(u)
  return Either.isRight(body) ? body.right : undefined
}

/** A decoding failure of `input` as one short line (`DecodeIssue`). */
export const describe = (issue: Issue, _input: unknown): string => DecodeIssue.describe(issue)
