/**
 * The SQL of the sync benchmark's raw loops (`SyncRawLoop`): a table's multi-row
 * `INSERT … ON CONFLICT … DO UPDATE` statement, as the sync's store upserts, and a batch's values
 * flattened in the statement's order. Pure, so that the statement text and the value order can be
 * checked without a database.
 *
 * @since 0.2.0
 */

/**
 * A table's columns (in order) and its primary key, as the raw loop upserts it.
 *
 * @example
 * import type * as SyncUpsertSql from "@broker-history/bench/SyncUpsertSql"
 * const shape: SyncUpsertSql.Shape = { columns: ["tx_id", "profile", "amount"], key: ["profile", "tx_id"] }
 */
export interface Shape {
  readonly columns: ReadonlyArray<string>
  readonly key: ReadonlyArray<string>
}

/**
 * `INSERT … ON CONFLICT (key) DO UPDATE` of `rows` rows, every column but the key's updated from
 * `excluded`; `placeholder(n)` names the n-th parameter (1-based: `?` for SQLite, `$n` for PostgreSQL).
 *
 * @example
 * import * as SyncUpsertSql from "@broker-history/bench/SyncUpsertSql"
 * SyncUpsertSql.upsertSql("deposits", { columns: ["tx_id", "amount"], key: ["tx_id"] }, 2, (n) => `$${n}`)
 * // "INSERT INTO deposits (tx_id, amount) VALUES ($1, $2), ($3, $4) ON CONFLICT (tx_id) DO UPDATE SET amount = excluded.amount"
 */
export const upsertSql = (table: string, shape: Shape, rows: number, placeholder: (n: number) => string): string => {
  const tuples: Array<string> = []
  for (let r = 0; r < rows; r++) {
    tuples.push(`(${shape.columns.map((_, c) => placeholder(r * shape.columns.length + c + 1)).join(", ")})`)
  }
  const update = shape.columns.filter((c) => !shape.key.includes(c)).map((c) => `${c} = excluded.${c}`).join(", ")
  return `INSERT INTO ${table} (${shape.columns.join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT (${
    shape.key.join(", ")
  }) DO UPDATE SET ${update}`
}

/**
 * Rows per statement: below SQLite's and PostgreSQL's parameter limits.
 *
 * @example
 * import * as SyncUpsertSql from "@broker-history/bench/SyncUpsertSql"
 * SyncUpsertSql.statementRows({ columns: ["tx_id", "amount"], key: ["tx_id"] }) // 15000
 */
export const statementRows = (shape: Shape): number => Math.floor(30_000 / shape.columns.length)

/**
 * The values of rows `from` (inclusive) to `to` (exclusive), row after row, each in the shape's
 * column order; the `profile` column holds `"default"` (the sync's profile when none is named).
 *
 * @example
 * import * as SyncUpsertSql from "@broker-history/bench/SyncUpsertSql"
 * const rows = [{ tx_id: "a", amount: "1" }, { tx_id: "b", amount: "2" }]
 * SyncUpsertSql.values((i) => rows[i]!, { columns: ["profile", "tx_id", "amount"], key: ["profile", "tx_id"] }, 0, 2)
 * // ["default", "a", "1", "default", "b", "2"]
 */
export const values = (
  rowAt: (i: number) => Readonly<Record<string, unknown>>,
  shape: Shape,
  from: number,
  to: number
): Array<unknown> => {
  const out: Array<unknown> = []
  for (let i = from; i < to; i++) {
    const row = rowAt(i)
    for (const c of shape.columns) out.push(c === "profile" ? "default" : row[c])
  }
  return out
}
