import { describe, expect, it } from "vitest"
import * as HistoryKind from "../../src/query/HistoryKind.js"
import * as QueryCheck from "../../src/query/QueryCheck.js"
import type * as DepositRecord from "../../src/record/DepositRecord.js"
import type * as TransferRecord from "../../src/record/TransferRecord.js"

const transfer = (over: Partial<TransferRecord.TransferRecord> = {}): TransferRecord.TransferRecord => ({
  tranId: "1",
  clientTranId: "",
  asset: "USDT",
  amount: "1" as TransferRecord.TransferRecord["amount"],
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromAccount: "",
  toAccount: "sub1",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp: 1000,
  ...over
})

const deposit = (over: Partial<DepositRecord.DepositRecord> = {}): DepositRecord.DepositRecord => ({
  amount: "1" as DepositRecord.DepositRecord["amount"],
  coin: "USDT",
  network: "TRX",
  status: "5",
  address: "T1",
  addressTag: "",
  txId: "tx1",
  insertTime: 2000,
  unlockConfirm: "1",
  confirmTimes: "1",
  memo: "",
  ...over
})

const check = <Q, A>(kind: HistoryKind.HistoryKind<Q, A>, query: HistoryKind.Filters<Q>, records: ReadonlyArray<A>) =>
  QueryCheck.firstOutside(records, {
    start: 0,
    end: 10_000,
    limit: 500,
    time: kind.time,
    key: kind.key,
    filters: kind.recordFilters(query)
  })

describe("HistoryKind.transfers", () => {
  const query = { fromAccountType: "SPOT", toAccountType: "FUTURES", toAccount: "sub1" }

  it("a transfer of the query's account pair and account types is inside; any other is outside", () => {
    expect(check(HistoryKind.transfers, query, [transfer()])).toBeUndefined()
    expect(check(HistoryKind.transfers, query, [transfer(), transfer({ tranId: "2", toAccount: "sub2" })])?.index)
      .toBe(1)
    expect(check(HistoryKind.transfers, query, [transfer({ toAccountType: "SPOT" })])?.index).toBe(0)
  })

  it("a clientTranId is a filter only when the query names one", () => {
    expect(HistoryKind.transfers.recordFilters(query).map((f) => f.field)).not.toContain("clientTranId")
    const named = HistoryKind.transfers.recordFilters({ ...query, clientTranId: "c".repeat(32) })
    expect(named.map((f) => f.field)).toContain("clientTranId")
  })

  it("a transfer changes when its status does; its time, identity and order are the record's", () => {
    expect(HistoryKind.transfers.fingerprint(transfer({ status: "PENDING" })))
      .not.toBe(HistoryKind.transfers.fingerprint(transfer()))
    expect(HistoryKind.transfers.fingerprint(transfer({ amount: "2" as TransferRecord.TransferRecord["amount"] })))
      .toBe(HistoryKind.transfers.fingerprint(transfer()))
    expect(HistoryKind.transfers.time(transfer())).toBe(1000)
    expect(HistoryKind.transfers.key(transfer())).toBe("1")
    expect(HistoryKind.transfers.endpoint.name).toBe("transferHistory")
  })
})

describe("HistoryKind.deposits", () => {
  it("filters coin and status only when asked", () => {
    expect(HistoryKind.deposits.recordFilters({})).toEqual([])
    expect(check(HistoryKind.deposits, { coin: "USDT", status: "5" }, [deposit()])).toBeUndefined()
    expect(check(HistoryKind.deposits, { coin: "BTC" }, [deposit()])?.index).toBe(0)
    expect(check(HistoryKind.deposits, { status: "1" }, [deposit()])?.index).toBe(0)
  })

  it("a deposit changes when its status, confirmations, unlock confirmations or amount do, and only then", () => {
    const base = HistoryKind.deposits.fingerprint(deposit())
    for (
      const changed of [
        deposit({ status: "1" }),
        deposit({ confirmTimes: "2" }),
        deposit({ unlockConfirm: "2" }),
        deposit({ amount: "2" as DepositRecord.DepositRecord["amount"] })
      ]
    ) expect(HistoryKind.deposits.fingerprint(changed)).not.toBe(base)
    expect(HistoryKind.deposits.fingerprint(deposit({ memo: "x" }))).toBe(base)
    expect(HistoryKind.deposits.time(deposit())).toBe(2000)
    expect(HistoryKind.deposits.endpoint.name).toBe("depositHistory")
  })
})
