// The record schemas: what they accept, what they decode to and what they refuse. The record rules as
// plain functions (ordering, identity, status names, the error table) are tested in core.
import { DepositRecord, ErrorBody, TransferRecord } from "@broker-history/domain-effect4"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"

const decodeTransfer = Schema.decodeUnknownResult(TransferRecord.TransferRecord)
const decodeDeposit = Schema.decodeUnknownResult(DepositRecord.DepositRecord)

const transferWire = {
  tranId: "11945860693",
  fromAccount: "master@test.com",
  toAccount: "sub@test.com",
  clientTranId: "test",
  asset: "BTC",
  amount: "0.10000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: 1544433325000
}

const depositWire = {
  amount: "50000.00000000",
  coin: "USDT",
  network: "TRC20",
  status: 5,
  address: "TDU1zKLkC7JqKg5y7w2k3L9fvMTzjMn2cK",
  addressTag: "",
  txId: "0xabc",
  unlockConfirm: "12",
  confirmTimes: "12",
  insertTime: 1654064568000,
  memo: "memo-1"
}

const failure = (result: Result.Result<unknown, Schema.SchemaError>): string =>
  Result.isFailure(result) ? result.failure.message : "decoded"

describe("TransferRecord", () => {
  it("decodes the sample record and keeps the amount byte for byte", () => {
    const r = Result.getOrThrow(decodeTransfer(transferWire))
    expect(r.amount).toBe("0.10000000")
    expect(r.tranId).toBe("11945860693")
    expect(r.timestamp).toBe(1544433325000)
  })

  it("accepts both symbol spellings and exposes them as fromSymbol/toSymbol", () => {
    const { fromSymbol: _f, toSymbol: _t, ...rest } = transferWire
    const lower = Result.getOrThrow(decodeTransfer({ ...rest, fromsymbol: "BTCUSDT", tosymbol: "ETHUSDT" }))
    expect(lower.fromSymbol).toBe("BTCUSDT")
    expect(lower.toSymbol).toBe("ETHUSDT")
    expect("fromsymbol" in lower).toBe(false)
    const upper = Result.getOrThrow(decodeTransfer({ ...rest, fromSymbol: "A", toSymbol: "B" }))
    expect([upper.fromSymbol, upper.toSymbol]).toEqual(["A", "B"])
  })

  it("exposes null, empty and missing optional text as an empty string", () => {
    const { clientTranId: _c, ...withoutClient } = transferWire
    for (
      const input of [{ ...transferWire, clientTranId: null }, { ...transferWire, clientTranId: "" }, withoutClient]
    ) {
      expect(Result.getOrThrow(decodeTransfer(input)).clientTranId).toBe("")
    }
    const nulls = Result.getOrThrow(decodeTransfer({ ...transferWire, fromAccount: null, toSymbol: null }))
    expect([nulls.fromAccount, nulls.toSymbol]).toEqual(["", ""])
  })

  it("keeps unknown statuses and account types, ignores unknown fields", () => {
    const r = Result.getOrThrow(
      decodeTransfer({ ...transferWire, status: "REVERSED", toAccountType: "MARGIN", extra: { x: 1 } })
    )
    expect(r.status).toBe("REVERSED")
    expect(r.toAccountType).toBe("MARGIN")
    expect("extra" in r).toBe(false)
  })

  it("accepts numeric ids and timestamps as text", () => {
    const r = Result.getOrThrow(decodeTransfer({ ...transferWire, tranId: 42, timestamp: "1544433325000" }))
    expect(r.tranId).toBe("42")
    expect(r.timestamp).toBe(1544433325000)
  })

  it("rejects a record without identity, time or a decimal amount, naming the field", () => {
    expect(failure(decodeTransfer({ ...transferWire, tranId: "" }))).toBe(
      "Expected a non-empty identifier\n  at [\"tranId\"]"
    )
    expect(failure(decodeTransfer({ ...transferWire, tranId: null }))).toContain("[\"tranId\"]")
    expect(failure(decodeTransfer({ ...transferWire, timestamp: -1 }))).toBe(
      "Expected a Unix millisecond timestamp\n  at [\"timestamp\"]"
    )
    expect(failure(decodeTransfer({ ...transferWire, amount: 0.1 }))).toContain("[\"amount\"]")
    expect(failure(decodeTransfer({ ...transferWire, amount: "1e5" }))).toBe(
      "expected decimal text such as \"12.5\"\n  at [\"amount\"]"
    )
    expect(failure(decodeTransfer({ ...transferWire, asset: undefined }))).toContain("[\"asset\"]")
    expect(failure(decodeTransfer({ ...transferWire, status: 5 }))).toBe("Expected text or null\n  at [\"status\"]")
  })

  it("encodes to the sample spelling", () => {
    const r = Result.getOrThrow(decodeTransfer({ ...transferWire, fromSymbol: "X" }))
    const encoded = JSON.parse(JSON.stringify(Schema.encodeSync(TransferRecord.TransferRecord)(r)))
    expect(encoded.fromSymbol).toBe("X")
    expect("fromsymbol" in encoded).toBe(false)
    expect(Schema.decodeUnknownSync(TransferRecord.TransferRecord)(encoded)).toStrictEqual(r)
  })
})

describe("DepositRecord", () => {
  it("exposes a numeric status as text and keeps a text status", () => {
    expect(Result.getOrThrow(decodeDeposit(depositWire)).status).toBe("5")
    expect(Result.getOrThrow(decodeDeposit({ ...depositWire, status: "5" })).status).toBe("5")
    expect(Result.getOrThrow(decodeDeposit({ ...depositWire, status: 99 })).status).toBe("99")
  })

  it("keeps exact decimals and tolerates null memo / addressTag and numeric confirmations", () => {
    const d = Result.getOrThrow(
      decodeDeposit({ ...depositWire, memo: null, addressTag: null, confirmTimes: 3, unlockConfirm: 12 })
    )
    expect(d.amount).toBe("50000.00000000")
    expect([d.memo, d.addressTag, d.confirmTimes, d.unlockConfirm]).toEqual(["", "", "3", "12"])
  })

  it("rejects a non-decimal amount, a missing insertTime and a status that is no text, number or null", () => {
    expect(failure(decodeDeposit({ ...depositWire, amount: 5 }))).toContain("[\"amount\"]")
    expect(failure(decodeDeposit({ ...depositWire, insertTime: undefined }))).toContain("[\"insertTime\"]")
    expect(failure(decodeDeposit({ ...depositWire, status: { x: 1 } }))).toBe(
      "Expected text, a number or null\n  at [\"status\"]"
    )
  })

  it("encodes back to what decodes to the same record", () => {
    const d = Result.getOrThrow(decodeDeposit(depositWire))
    expect(Schema.decodeUnknownSync(DepositRecord.DepositRecord)(Schema.encodeSync(DepositRecord.DepositRecord)(d)))
      .toStrictEqual(d)
  })
})

describe("ErrorBody", () => {
  it("decodes numeric and text codes", () => {
    const decode = Schema.decodeUnknownSync(ErrorBody.ErrorBody)
    expect(decode({ code: 700002, msg: "x" }).code).toBe(700002)
    expect(decode({ code: "33333", msg: "x" }).code).toBe(33333)
  })

  it("refuses a code that is no integer, blank text among them", () => {
    const decode = Schema.decodeUnknownResult(ErrorBody.ErrorBody)
    for (const code of [1.5, "1.5", "", "  ", "NaN", "x", null]) {
      expect(Result.isFailure(decode({ code, msg: "x" }))).toBe(true)
    }
  })
})
