/**
 * Where the sync benchmark's contenders write: PostgreSQL as the tests find it (or why it cannot be
 * used), and a fresh database per run (a new SQLite file, or PostgreSQL without the sync's tables),
 * so that every contender starts from empty tables.
 *
 * @since 0.2.0
 */
import { SyncDatabase } from "@broker-history/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Path from "node:path"
import Pg from "pg"

/**
 * PostgreSQL as the tests find it (`BROKER_TEST_PG_URL`) when it accepts a connection, or why it
 * cannot be used and how to provide one.
 *
 * @example
 * import * as SyncDatabase from "@broker-history/bench/SyncDatabase"
 * import { Effect } from "effect"
 * const url = Effect.map(SyncDatabase.postgres(), (pg) => ("url" in pg ? pg.url : undefined))
 */
export const postgres = (): Effect.Effect<{ readonly url: string } | { readonly skipped: string }> =>
  Effect.promise(async () => {
    const url = process.env.BROKER_TEST_PG_URL
    const enable = "set BROKER_TEST_PG_URL=postgres://user@127.0.0.1:port/database (its sync tables are dropped), " +
      "or start a throwaway cluster first: source .ci/postgres && pg_start"
    if (url === undefined || url === "") return { skipped: `skipped: no PostgreSQL (${enable})` }
    const pg = new Pg.Client({ connectionString: url })
    try {
      await pg.connect()
      await pg.end()
      return { url }
    } catch (e) {
      return { skipped: `skipped: no PostgreSQL at BROKER_TEST_PG_URL (${(e as Error).message}; ${enable})` }
    }
  })

/**
 * A fresh database for one run, as the sync's `--db` names it: a new SQLite file `<name>.db` in `dir`,
 * or the PostgreSQL at `pgUrl` with the sync's tables dropped.
 *
 * @example
 * import * as SyncDatabase from "@broker-history/bench/SyncDatabase"
 * const db = SyncDatabase.fresh("sqlite", "/tmp/bench", undefined, "sync-0") // "/tmp/bench/sync-0.db"
 */
export const fresh = (
  target: "sqlite" | "pg",
  dir: string,
  pgUrl: string | undefined,
  name: string
): Effect.Effect<string> =>
  Effect.promise(async () => {
    if (target === "sqlite") return Path.join(dir, `${name}.db`)
    const pg = new Pg.Client({ connectionString: pgUrl })
    await pg.connect()
    await pg.query("DROP TABLE IF EXISTS transfers, deposits, sync_checkpoints, sync_migrations")
    await pg.end()
    return pgUrl!
  })

/**
 * Creates the sync's tables (its migrations) in `db`, as `sync` does on open.
 *
 * @example
 * import * as SyncDatabase from "@broker-history/bench/SyncDatabase"
 * import { Effect } from "effect"
 * const created = Effect.runPromise(SyncDatabase.migrate("/tmp/bench/raw-0.db"))
 */
export const migrate = (db: string) => Effect.scoped(Layer.build(SyncDatabase.layer(db)))
