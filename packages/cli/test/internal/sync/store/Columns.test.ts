// The sync store's rows without a database: the statements of a batch hold every key once, as its
// last version, in runs no longer than a statement may be; a checkpoint row reads back as its stream.
import { Checkpoint } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Columns from "../../../../src/internal/sync/store/Columns.js"

const keyed = fc.array(fc.record({ key: fc.integer({ min: 0, max: 30 }), version: fc.nat() }), { maxLength: 200 })

describe("Columns.lastByKey", () => {
  it.prop("every key once, as its last version, ordered by last appearance", { rs: keyed }, ({ rs }) => {
    const kept = Columns.lastByKey(rs, (r) => String(r.key))
    const lastIndex = new Map(rs.map((r, i) => [r.key, i]))
    expect(kept).toEqual([...lastIndex.values()].sort((a, b) => a - b).map((i) => rs[i]))
  })
})

describe("Columns.chunks", () => {
  it.prop(
    "runs of the size (the last shorter) that join back into the items",
    { items: fc.array(fc.nat(), { maxLength: 100 }), size: fc.integer({ min: 1, max: 30 }) },
    ({ items, size }) => {
      const runs = Columns.chunks(items, size)
      expect(runs.flat()).toEqual(items)
      expect(runs.every((run, i) => run.length === size || (i === runs.length - 1 && run.length > 0))).toBe(true)
    }
  )

  it("a batch of the default size is one statement, a larger one several", () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i) }))
    expect(Columns.statements(rows(500), (r) => r.id)).toHaveLength(1)
    expect(Columns.statements(rows(Columns.statementRows + 1), (r) => r.id).map((s) => s.length))
      .toEqual([Columns.statementRows, 1])
    expect(Columns.statements([], (r: { id: string }) => r.id)).toEqual([])
  })
})

describe("Columns.depositKey", () => {
  it("txId, coin, network and address, without ambiguity between fields", () => {
    const deposit = { txId: "a,b", coin: "USDT", network: "TRC20", address: "x" }
    const other = { txId: "a", coin: "b,USDT", network: "TRC20", address: "x" }
    const key = (d: typeof deposit) => Columns.depositKey(d as never)
    expect(key(deposit)).not.toBe(key(other))
    expect(key(deposit)).toBe(key({ ...deposit }))
  })
})

describe("Columns.time", () => {
  it("a Unix ms as number or text; NULL, negative or not an integer is undefined", () => {
    expect([1700000000000, "1700000000000", 0, "0"].map(Columns.time)).toEqual([
      1700000000000,
      1700000000000,
      0,
      0
    ])
    expect([null, -1, "1.5", "x", "9007199254740993"].map(Columns.time)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined
    ])
  })
})

describe("Columns.storedStream", () => {
  const checkpoint = { time: 2000, ids: ["9"] }
  const row = {
    stream: "[\"deposits\"]",
    checkpoint: Checkpoint.encode(checkpoint),
    covered_since: "1000",
    backfill_since: null,
    backfill_checkpoint: null
  }

  it("the checkpoint and where the history starts; no backfill without its progress", () => {
    expect(Columns.storedStream(row)).toEqual({
      checkpoint: Either.right(checkpoint),
      coveredSince: 1000,
      backfill: undefined
    })
    expect(Columns.storedStream({ ...row, covered_since: null }).coveredSince).toBeUndefined()
  })

  it("backfill progress counts only with both its start and a readable checkpoint", () => {
    const progress = Checkpoint.encode({ time: 500, ids: ["3"] })
    expect(Columns.storedStream({ ...row, backfill_since: 0, backfill_checkpoint: progress }).backfill)
      .toEqual({ since: 0, checkpoint: { time: 500, ids: ["3"] } })
    expect(Columns.storedStream({ ...row, backfill_since: null, backfill_checkpoint: progress }).backfill)
      .toBeUndefined()
    expect(Columns.storedStream({ ...row, backfill_since: 0, backfill_checkpoint: "{garbage" }).backfill)
      .toBeUndefined()
  })

  it("a damaged checkpoint is kept as its error", () => {
    expect(Either.isLeft(Columns.storedStream({ ...row, checkpoint: "{garbage" }).checkpoint)).toBe(true)
  })
})
