/**
 * The contenders of the decoding part (`Decoding`): ways to decode a page of transfers or deposits
 * with every field validated, each giving the records or the schema's error. `decoder` is what the
 * client runs (`Field.decoder` of the page schema); `closures` is the generic alternative without
 * generated code (a loop over one reading closure per field, built once from the field rules, the
 * schema for the error); `schema` is `Schema.decodeUnknownEither` alone; `against` is `Field.decoder`
 * of another revision's domain package (`--against`).
 *
 * @since 0.2.0
 */
import type * as DomainModule from "@broker-history/domain"
import { Decimal, DepositRecord, Field, TransferRecord } from "@broker-history/domain"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Against from "./Against.js"

/**
 * The contenders, `against` aside (measured only with `--against`).
 *
 * @example
 * import * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * DecodeContenders.names // ["decoder", "closures", "schema"]
 *
 * @since 0.2.0
 * @category models
 */
export const names = ["decoder", "closures", "schema"] as const

/**
 * A contender's name, `against` included.
 *
 * @example
 * import type * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * const name: DecodeContenders.Name = "against"
 *
 * @since 0.2.0
 * @category models
 */
export type Name = typeof names[number] | "against"

/**
 * What each contender is, for the table.
 *
 * @example
 * import * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * DecodeContenders.labels.schema // "Schema.decodeUnknownEither"
 *
 * @since 0.2.0
 * @category models
 */
export const labels: { readonly [N in Name]: string } = {
  decoder: "Field.decoder (the client's)",
  closures: "per-field closures in a loop, the schema for errors",
  schema: "Schema.decodeUnknownEither",
  against: "Field.decoder"
}

/**
 * A page decoded: its records, or the error's message (read, as the client reads it to describe the
 * page).
 *
 * @example
 * import type * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * const ok = (o: DecodeContenders.Outcome) => typeof o !== "string"
 *
 * @since 0.2.0
 * @category models
 */
export type Outcome = ReadonlyArray<unknown> | string

/**
 * A contender: its decoding of a transfer page and of a deposit page.
 *
 * @example
 * import type * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * const records = (c: DecodeContenders.Contender, page: unknown) => c.transfers(page).length
 *
 * @since 0.2.0
 * @category models
 */
export interface Contender {
  readonly transfers: (page: unknown) => Outcome
  readonly deposits: (page: unknown) => Outcome
}

// The result of any copy of `effect`'s Either (the `against` copy has its own).
type AnyEither = { readonly _tag: "Right"; readonly right: unknown } | {
  readonly _tag: "Left"
  readonly left: { readonly message: string }
}

const outcome = (decode: (u: unknown) => unknown) => (page: unknown): Outcome => {
  const result = decode(page) as AnyEither
  return result._tag === "Right" ? result.right as ReadonlyArray<unknown> : result.left.message
}

type Readers = { readonly [field: string]: (u: unknown) => unknown }

// A record's decoding as a loop over its fields, each read by its rule: what a library builds from a
// description of the fields when it generates no code.
const closures = (readers: Readers): (u: unknown) => { [field: string]: unknown } | undefined => {
  const fields = Object.entries(readers).map(([name, read]) => ({ name, read }))
  return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
    const wire = u as { readonly [field: string]: unknown }
    const out: { [field: string]: unknown } = {}
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!
      const value = field.read(wire[field.name])
      if (value === undefined) return undefined
      out[field.name] = value
    }
    return out
  }
}

const transferWire = closures({
  tranId: Field.readId,
  clientTranId: Field.readOptionalText,
  fromAccount: Field.readOptionalText,
  toAccount: Field.readOptionalText,
  asset: Field.readText,
  amount: Decimal.readDecimalString,
  fromAccountType: Field.readOptionalText,
  toAccountType: Field.readOptionalText,
  fromSymbol: Field.readOptionalText,
  fromsymbol: Field.readOptionalText,
  toSymbol: Field.readOptionalText,
  tosymbol: Field.readOptionalText,
  status: Field.readOptionalText,
  timestamp: Field.readMillis
})

// The record a wire record stands for, as `TransferRecord` maps it (`fromFields`: the other symbol
// spelling when the sample's is empty).
const transferRecord = (u: unknown): TransferRecord.TransferRecord | undefined => {
  const w = transferWire(u)
  return w === undefined ? undefined : TransferRecord.fromFields(w as unknown as TransferRecord.WireFields)
}

const depositRecord = closures({
  amount: Decimal.readDecimalString,
  coin: Field.readText,
  network: Field.readOptionalText,
  status: Field.readNumericText,
  address: Field.readOptionalText,
  addressTag: Field.readOptionalText,
  txId: Field.readOptionalText,
  unlockConfirm: Field.readNumericText,
  confirmTimes: Field.readNumericText,
  insertTime: Field.readMillis,
  memo: Field.readOptionalText
})

// A page through `record`, the schema's decoding when any record breaks a rule (for its error).
const closuresPage = <A, I>(record: (u: unknown) => unknown, schema: Schema.Schema<A, I>) => {
  const full = Schema.decodeUnknownEither(schema)
  return outcome((u) => {
    if (!Array.isArray(u)) return full(u)
    const out = new Array<unknown>(u.length)
    for (let i = 0; i < u.length; i++) {
      const decoded = record(u[i])
      if (decoded === undefined) return full(u)
      out[i] = decoded
    }
    return Either.right(out)
  })
}

type Domain = Pick<typeof DomainModule, "DepositRecord" | "Field" | "TransferRecord">

const viaDecoder = (domain: Domain): Contender => ({
  transfers: outcome(domain.Field.decoder(domain.TransferRecord.TransferPage)),
  deposits: outcome(domain.Field.decoder(domain.DepositRecord.DepositPage))
})

/**
 * The contender `name`; `against` loads the domain package (and its `effect`) of the prepared copy.
 *
 * @example
 * import * as DecodeContenders from "@broker-history/bench/DecodeContenders"
 * const schema = await DecodeContenders.make("schema", undefined)
 * schema.deposits([]) // []
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = async (name: Name, against: Against.Copy | undefined): Promise<Contender> => {
  switch (name) {
    case "decoder":
      return viaDecoder({ DepositRecord, Field, TransferRecord })
    case "closures":
      return {
        transfers: closuresPage(transferRecord, TransferRecord.TransferPage),
        deposits: closuresPage(depositRecord, DepositRecord.DepositPage)
      }
    case "schema":
      return {
        transfers: outcome(Schema.decodeUnknownEither(TransferRecord.TransferPage)),
        deposits: outcome(Schema.decodeUnknownEither(DepositRecord.DepositPage))
      }
    case "against":
      if (against === undefined) throw new Error("the against contender needs --against <git-rev>")
      return viaDecoder(await Against.loadDomain(against))
  }
}
