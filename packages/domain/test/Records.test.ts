import { DepositRecord, ErrorBody, Field, TransferRecord } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"

const decodeTransfer = Schema.decodeUnknownEither(TransferRecord.TransferRecord)
const decodeDeposit = Schema.decodeUnknownEither(DepositRecord.DepositRecord)

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

describe("TransferRecord", () => {
  it("decodes the sample record and keeps the amount byte for byte", () => {
    const r = Either.getOrThrow(decodeTransfer(transferWire))
    expect(r.amount).toBe("0.10000000")
    expect(r.tranId).toBe("11945860693")
    expect(r.timestamp).toBe(1544433325000)
  })

  it("accepts both symbol spellings and exposes them as fromSymbol/toSymbol", () => {
    const { fromSymbol: _f, toSymbol: _t, ...rest } = transferWire
    const lower = Either.getOrThrow(decodeTransfer({ ...rest, fromsymbol: "BTCUSDT", tosymbol: "ETHUSDT" }))
    expect(lower.fromSymbol).toBe("BTCUSDT")
    expect(lower.toSymbol).toBe("ETHUSDT")
    expect("fromsymbol" in lower).toBe(false)
    const upper = Either.getOrThrow(decodeTransfer({ ...rest, fromSymbol: "A", toSymbol: "B" }))
    expect([upper.fromSymbol, upper.toSymbol]).toEqual(["A", "B"])
  })

  it("exposes null, empty and missing optional text as an empty string", () => {
    const { clientTranId: _c, ...withoutClient } = transferWire
    for (
      const input of [{ ...transferWire, clientTranId: null }, { ...transferWire, clientTranId: "" }, withoutClient]
    ) {
      expect(Either.getOrThrow(decodeTransfer(input)).clientTranId).toBe("")
    }
    const nulls = Either.getOrThrow(decodeTransfer({ ...transferWire, fromAccount: null, toSymbol: null }))
    expect([nulls.fromAccount, nulls.toSymbol]).toEqual(["", ""])
  })

  it("keeps unknown statuses and account types, ignores unknown fields", () => {
    const r = Either.getOrThrow(
      decodeTransfer({ ...transferWire, status: "REVERSED", toAccountType: "MARGIN", extra: { x: 1 } })
    )
    expect(r.status).toBe("REVERSED")
    expect(r.toAccountType).toBe("MARGIN")
    expect("extra" in r).toBe(false)
  })

  it("accepts numeric ids and timestamps as text", () => {
    const r = Either.getOrThrow(decodeTransfer({ ...transferWire, tranId: 42, timestamp: "1544433325000" }))
    expect(r.tranId).toBe("42")
    expect(r.timestamp).toBe(1544433325000)
  })

  it("rejects a record without identity, time or a decimal amount", () => {
    expect(Either.isLeft(decodeTransfer({ ...transferWire, tranId: "" }))).toBe(true)
    expect(Either.isLeft(decodeTransfer({ ...transferWire, tranId: null }))).toBe(true)
    expect(Either.isLeft(decodeTransfer({ ...transferWire, timestamp: -1 }))).toBe(true)
    expect(Either.isLeft(decodeTransfer({ ...transferWire, amount: 0.1 }))).toBe(true)
    expect(Either.isLeft(decodeTransfer({ ...transferWire, amount: "1e5" }))).toBe(true)
    expect(Either.isLeft(decodeTransfer({ ...transferWire, asset: undefined }))).toBe(true)
  })

  it("encodes to the sample spelling", () => {
    const r = Either.getOrThrow(decodeTransfer({ ...transferWire, fromSymbol: "X" }))
    const encoded = JSON.parse(JSON.stringify(Schema.encodeSync(TransferRecord.TransferRecord)(r)))
    expect(encoded.fromSymbol).toBe("X")
    expect("fromsymbol" in encoded).toBe(false)
  })

  it("orders by time, ties by numeric-aware id", () => {
    const a = Either.getOrThrow(decodeTransfer({ ...transferWire, tranId: "10", timestamp: 5 }))
    const b = Either.getOrThrow(decodeTransfer({ ...transferWire, tranId: "9", timestamp: 5 }))
    const c = Either.getOrThrow(decodeTransfer({ ...transferWire, tranId: "1", timestamp: 6 }))
    expect([c, a, b].sort(TransferRecord.compare).map((r) => r.tranId)).toEqual(["9", "10", "1"])
    expect(Field.compareIds("a", "b")).toBe(-1)
  })
})

describe("DepositRecord", () => {
  it("exposes a numeric status as text and keeps a text status", () => {
    expect(Either.getOrThrow(decodeDeposit(depositWire)).status).toBe("5")
    expect(Either.getOrThrow(decodeDeposit({ ...depositWire, status: "5" })).status).toBe("5")
    expect(Either.getOrThrow(decodeDeposit({ ...depositWire, status: 99 })).status).toBe("99")
    expect(DepositRecord.statusName("5")).toBe("SUCCESS")
    expect(DepositRecord.statusName("99")).toBe("99")
  })

  it("keeps exact decimals and tolerates null memo / addressTag and numeric confirmations", () => {
    const d = Either.getOrThrow(
      decodeDeposit({ ...depositWire, memo: null, addressTag: null, confirmTimes: 3, unlockConfirm: 12 })
    )
    expect(d.amount).toBe("50000.00000000")
    expect([d.memo, d.addressTag, d.confirmTimes, d.unlockConfirm]).toEqual(["", "", "3", "12"])
  })

  it("rejects a non-decimal amount and a missing insertTime", () => {
    expect(Either.isLeft(decodeDeposit({ ...depositWire, amount: 5 }))).toBe(true)
    expect(Either.isLeft(decodeDeposit({ ...depositWire, insertTime: undefined }))).toBe(true)
    expect(Either.isLeft(decodeDeposit({ ...depositWire, status: { x: 1 } }))).toBe(true)
  })

  it("identifies a deposit by txId, coin, network and address, and detects changes", () => {
    const a = Either.getOrThrow(decodeDeposit(depositWire))
    const b = Either.getOrThrow(decodeDeposit({ ...depositWire, address: "other" }))
    const a2 = Either.getOrThrow(decodeDeposit({ ...depositWire, status: 4, confirmTimes: "3" }))
    expect(DepositRecord.key(a)).not.toBe(DepositRecord.key(b))
    expect(DepositRecord.key(a)).toBe(DepositRecord.key(a2))
    expect(DepositRecord.changed(a, a2)).toBe(true)
    expect(DepositRecord.changed(a, a)).toBe(false)
  })
})

describe("ErrorBody", () => {
  it("decodes numeric and text codes", () => {
    const decode = Schema.decodeUnknownSync(ErrorBody.ErrorBody)
    expect(decode({ code: 700002, msg: "x" }).code).toBe(700002)
    expect(decode({ code: "33333", msg: "x" }).code).toBe(33333)
  })

  it("has the table of docs/wire-contract.md", () => {
    expect(ErrorBody.Errors.invalidApiKey).toEqual({ status: 401, code: 700001, msg: "API-key format invalid." })
    expect(ErrorBody.Errors.mandatoryParameter("fromAccountType")).toEqual({
      status: 400,
      code: 700004,
      msg: "Mandatory parameter 'fromAccountType' was not sent, was empty/null, or malformed."
    })
    expect(ErrorBody.Errors.tooManyRequests.status).toBe(429)
    expect(ErrorBody.Errors.noPermission).toEqual({
      status: 403,
      code: 700007,
      msg: "No permission to access the endpoint."
    })
  })
})
