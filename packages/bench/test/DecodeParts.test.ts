// The decoding part's pages and contenders: pages of each endpoint's size, one broken record in each
// broken page, and every contender decoding as the schema does (the same records, the same error), so
// that the part compares equal work.
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import * as DecodeContenders from "../src/DecodeContenders.js"
import * as DecodePages from "../src/DecodePages.js"

const pages = DecodePages.make({ transferPages: 2, depositPages: 1, brokenPages: 2 })
const decodeTransfers = Schema.decodeUnknownEither(TransferRecord.TransferPage)
const decodeDeposits = Schema.decodeUnknownEither(DepositRecord.DepositPage)

describe("DecodePages", () => {
  it("transfer pages of 500, deposit pages of 1,000, all valid; each broken page breaks at one amount", () => {
    expect(pages.transfers.map((p) => p.length)).toEqual([500, 500])
    expect(pages.deposits.map((p) => p.length)).toEqual([1000])
    expect(pages.broken.map((p) => p.length)).toEqual([500, 500])
    for (const page of pages.transfers) expect(Either.isRight(decodeTransfers(page))).toBe(true)
    for (const page of pages.deposits) expect(Either.isRight(decodeDeposits(page))).toBe(true)
    for (const page of pages.broken) {
      const rejected = page.filter((record) =>
        Either.isLeft(Schema.decodeUnknownEither(TransferRecord.TransferRecord)(record))
      )
      expect(rejected).toHaveLength(1)
      expect(typeof (rejected[0] as { amount: unknown }).amount).toBe("number")
    }
  })
})

describe("DecodeContenders", () => {
  for (const name of DecodeContenders.names) {
    it(`${name}: the schema's records for valid pages, the schema's error for broken ones`, async () => {
      const contender = await DecodeContenders.make(name, undefined)
      for (const page of pages.transfers) {
        expect(contender.transfers(page)).toStrictEqual(Either.getOrThrow(decodeTransfers(page)))
      }
      for (const page of pages.deposits) {
        expect(contender.deposits(page)).toStrictEqual(Either.getOrThrow(decodeDeposits(page)))
      }
      for (const page of pages.broken) {
        expect(contender.transfers(page)).toBe(Option.getOrThrow(Either.getLeft(decodeTransfers(page))).message)
      }
    })
  }
})
