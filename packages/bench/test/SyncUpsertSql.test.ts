// The raw loops' SQL: the multi-row upsert's text and parameter numbering, the values in its order,
// and the statement run against SQLite (inserts, then updates every column but the key).
import { describe, expect, it } from "@effect/vitest"
import Database from "better-sqlite3"
import * as SyncUpsertSql from "../src/SyncUpsertSql.js"

const shape: SyncUpsertSql.Shape = { columns: ["profile", "tx_id", "amount", "status"], key: ["profile", "tx_id"] }

describe("SyncUpsertSql", () => {
  it("upsertSql: one tuple per row, parameters numbered row after row, every non-key column updated", () => {
    expect(SyncUpsertSql.upsertSql("deposits", shape, 2, (n) => `$${n}`)).toBe(
      "INSERT INTO deposits (profile, tx_id, amount, status) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8) " +
        "ON CONFLICT (profile, tx_id) DO UPDATE SET amount = excluded.amount, status = excluded.status"
    )
    const sqlite = SyncUpsertSql.upsertSql("deposits", shape, 3, () => "?")
    expect(sqlite.match(/\?/g)).toHaveLength(3 * shape.columns.length)
    expect(sqlite).toContain("VALUES (?, ?, ?, ?), (?, ?, ?, ?), (?, ?, ?, ?) ON CONFLICT")
  })

  it("values: the rows from..to, each in the shape's column order, the profile column the default profile", () => {
    const rows = [
      { tx_id: "a", amount: "1.5", status: 1 },
      { tx_id: "b", amount: "2", status: 0 },
      { tx_id: "c", amount: "0.1", status: 1 }
    ]
    expect(SyncUpsertSql.values((i) => rows[i]!, shape, 1, 3)).toEqual([
      "default",
      "b",
      "2",
      0,
      "default",
      "c",
      "0.1",
      1
    ])
    const reordered: SyncUpsertSql.Shape = { columns: ["status", "amount", "tx_id"], key: ["tx_id"] }
    expect(SyncUpsertSql.values((i) => rows[i]!, reordered, 0, 1)).toEqual([1, "1.5", "a"])
    expect(SyncUpsertSql.values((i) => rows[i]!, shape, 2, 2)).toEqual([])
  })

  it("statementRows: as many rows as keep a statement within 30,000 parameters", () => {
    for (let columns = 1; columns <= 40; columns++) {
      const s: SyncUpsertSql.Shape = { columns: Array.from({ length: columns }, (_, i) => `c${i}`), key: ["c0"] }
      const rows = SyncUpsertSql.statementRows(s)
      expect(rows * columns).toBeLessThanOrEqual(30_000)
      expect((rows + 1) * columns).toBeGreaterThan(30_000)
    }
  })

  it("the statement and its values upsert into SQLite: new rows inserted, existing ones updated", () => {
    const db = new Database(":memory:")
    try {
      db.exec(
        "CREATE TABLE deposits (profile TEXT, tx_id TEXT, amount TEXT, status INTEGER, PRIMARY KEY (profile, tx_id))"
      )
      const upsert = (rows: ReadonlyArray<Record<string, unknown>>) =>
        db.prepare(SyncUpsertSql.upsertSql("deposits", shape, rows.length, () => "?")).run(
          SyncUpsertSql.values((i) => rows[i]!, shape, 0, rows.length)
        )
      upsert([{ tx_id: "a", amount: "1", status: 0 }, { tx_id: "b", amount: "2", status: 0 }])
      upsert([{ tx_id: "b", amount: "2.5", status: 1 }, { tx_id: "c", amount: "3", status: 1 }])
      expect(db.prepare("SELECT profile, tx_id, amount, status FROM deposits ORDER BY tx_id").all()).toEqual([
        { profile: "default", tx_id: "a", amount: "1", status: 0 },
        { profile: "default", tx_id: "b", amount: "2.5", status: 1 },
        { profile: "default", tx_id: "c", amount: "3", status: 1 }
      ])
    } finally {
      db.close()
    }
  })
})
