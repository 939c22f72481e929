/**
 * The sync benchmark's baseline: a raw loop that upserts the pre-fetched batches, one transaction per
 * batch, over the same driver the sync uses (better-sqlite3, `pg`) into the sync's own tables, with
 * the multi-row statements of `SyncUpsertSql`. What the sync's rows per second are compared with.
 *
 * @since 0.2.0
 */
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import Pg from "pg"
import { SyncColumns } from "./CliInternals.js"
import * as Measure from "./Measure.js"
import type { Batch } from "./SyncContenders.js"
import { type Shape, statementRows, upsertSql, values } from "./SyncUpsertSql.js"

/** A raw loop over one database: `run` writes the batches, `counts` reads the tables' row counts. */
interface Loop {
  readonly run: () => Promise<void>
  readonly counts: () => { transfers: number; deposits: number } | Promise<{ transfers: number; deposits: number }>
  readonly close: () => unknown
}

/** Row `i` of a batch as the sync's store writes it (column name to value). */
const rowAt = (batch: Batch) => (i: number): Record<string, unknown> =>
  batch.kind === "transfers" ? SyncColumns.transferRow(batch.records[i]!) : SyncColumns.depositRow(batch.records[i]!)

/** The raw SQLite loop: one transaction per batch, multi-row upserts through prepared statements. */
const rawSqlite = (file: string, batches: ReadonlyArray<Batch>): Loop => {
  const db = new Database(file)
  db.pragma("journal_mode = WAL")
  const shapeOf = (table: string): Shape => {
    const info = db.prepare("SELECT name, pk FROM pragma_table_info(?)").all(table) as Array<
      { name: string; pk: number }
    >
    return {
      columns: info.map((c) => c.name),
      key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name)
    }
  }
  const shapes = { transfers: shapeOf("transfers"), deposits: shapeOf("deposits") }
  const prepared = new Map<string, Database.Statement>()
  const statement = (table: Batch["kind"], rows: number) => {
    const key = `${table}:${rows}`
    let s = prepared.get(key)
    if (s === undefined) {
      s = db.prepare(upsertSql(table, shapes[table], rows, () => "?"))
      prepared.set(key, s)
    }
    return s
  }
  const write = db.transaction((batch: Batch) => {
    const shape = shapes[batch.kind]
    const step = statementRows(shape)
    for (let i = 0; i < batch.records.length; i += step) {
      const to = Math.min(batch.records.length, i + step)
      statement(batch.kind, to - i).run(values(rowAt(batch), shape, i, to))
    }
  })
  return {
    run: async () => {
      for (const batch of batches) write(batch)
    },
    counts: () => {
      const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
      return { transfers: count("transfers"), deposits: count("deposits") }
    },
    close: () => db.close()
  }
}

/** The raw PostgreSQL loop: one transaction per batch (BEGIN, multi-row upserts, COMMIT) on one connection. */
const rawPg = async (url: string, batches: ReadonlyArray<Batch>): Promise<Loop> => {
  const pg = new Pg.Client({ connectionString: url })
  await pg.connect()
  const shapeOf = async (table: string): Promise<Shape> => {
    const columns = await pg.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
      [table]
    )
    const key = await pg.query<{ attname: string }>(
      "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary",
      [table]
    )
    return { columns: columns.rows.map((r) => r.column_name), key: key.rows.map((r) => r.attname) }
  }
  const shapes = { transfers: await shapeOf("transfers"), deposits: await shapeOf("deposits") }
  const texts = new Map<string, string>()
  const text = (table: Batch["kind"], rows: number) => {
    const key = `${table}:${rows}`
    let s = texts.get(key)
    if (s === undefined) {
      s = upsertSql(table, shapes[table], rows, (n) => `$${n}`)
      texts.set(key, s)
    }
    return s
  }
  return {
    run: async () => {
      for (const batch of batches) {
        const shape = shapes[batch.kind]
        const step = statementRows(shape)
        await pg.query("BEGIN")
        for (let i = 0; i < batch.records.length; i += step) {
          const to = Math.min(batch.records.length, i + step)
          await pg.query(text(batch.kind, to - i), values(rowAt(batch), shape, i, to))
        }
        await pg.query("COMMIT")
      }
    },
    counts: async () => {
      const { rows } = await pg.query<{ transfers: string; deposits: string }>(
        "SELECT (SELECT COUNT(*) FROM transfers) AS transfers, (SELECT COUNT(*) FROM deposits) AS deposits"
      )
      return { transfers: Number(rows[0]!.transfers), deposits: Number(rows[0]!.deposits) }
    },
    close: () => pg.end()
  }
}

/**
 * The raw loop of `target` over the batches into `db` (a SQLite file, or a PostgreSQL URL), whose
 * tables the sync's migrations created: the tables' counts afterwards, wall and CPU time of the writes.
 *
 * @example
 * import type * as SyncContenders from "@broker-history/bench/SyncContenders"
 * import * as SyncRawLoop from "@broker-history/bench/SyncRawLoop"
 * import { Effect } from "effect"
 * declare const batches: ReadonlyArray<SyncContenders.Batch>
 * const perSecond = Effect.map(SyncRawLoop.rawInto("sqlite", "/tmp/raw.db", batches), (r) => r.counts.transfers / (r.wallMillis / 1000))
 */
export const rawInto = (target: "sqlite" | "pg", db: string, batches: ReadonlyArray<Batch>) =>
  Effect.promise(async () => {
    const loop = target === "sqlite" ? rawSqlite(db, batches) : await rawPg(db, batches)
    try {
      const { timing } = await Measure.timed(loop.run)
      const counts = await loop.counts()
      return { counts, ...timing }
    } finally {
      await loop.close()
    }
  })
