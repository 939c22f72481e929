/**
 * Wire records and pages for property tests: valid ones with fields replaced, removed or added, so
 * that every field rule is exercised both ways.
 */
import * as fc from "fast-check"

// Values that each field rule accepts or rejects, mixed so that every rule is exercised both ways.
export const anyValue = fc.oneof(
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

export const transferFields = [
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

export const depositFields = [
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

export const validTransfer = {
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

export const validDeposit = {
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
export const mutated = (valid: Record<string, unknown>, fields: ReadonlyArray<string>) =>
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

export const page = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(record, { maxLength: 6 }) },
    { weight: 1, arbitrary: anyValue },
    { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }
  )
