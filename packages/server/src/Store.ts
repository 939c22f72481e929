/**
 * The service's data in SQLite: transfers, deposits and API keys, the page queries the endpoints
 * run, and live inserts/updates so tests can change the history while a client is reading it.
 *
 * @since 0.1.0
 */
import type * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import type { MigrationError } from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApiKey } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import * as Migrations from "./Migrations.js"

/**
 * A stored transfer. `fromAccount`/`toAccount` are `null` for the master account; `tranId` is
 * base-10 digits (it orders numerically); `amount` is exact decimal text.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const row: Store.TransferRow = {
 *   tranId: "11945860693", clientTranId: null, fromAccount: null, toAccount: "sub001@broker.test",
 *   asset: "USDT", amount: "0.10000000", fromAccountType: "SPOT", toAccountType: "FUTURES",
 *   fromSymbol: "", toSymbol: "", status: "SUCCESS", timestamp: 1544433325000
 * }
 */
export interface TransferRow {
  readonly tranId: string
  readonly clientTranId: string | null
  readonly fromAccount: string | null
  readonly toAccount: string | null
  readonly asset: string
  readonly amount: string
  readonly fromAccountType: string
  readonly toAccountType: string
  readonly fromSymbol: string
  readonly toSymbol: string
  readonly status: string
  readonly timestamp: number
}

/**
 * A stored deposit. `status` is the MEXC status code (1..12). Identity: `txId` + `coin` + `network`
 * + `address`.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const row: Store.DepositRow = {
 *   amount: "50000.00000000", coin: "USDT", network: "TRC20", status: 5, address: "TXyz",
 *   addressTag: null, txId: "0xabc", unlockConfirm: "20", confirmTimes: "20", insertTime: 1654064568000, memo: null
 * }
 */
export interface DepositRow {
  readonly amount: string
  readonly coin: string
  readonly network: string
  readonly status: number
  readonly address: string
  readonly addressTag: string | null
  readonly txId: string
  readonly unlockConfirm: string
  readonly confirmTimes: string
  readonly insertTime: number
  readonly memo: string | null
}

/**
 * Transfer filters. For an account, `undefined` means any account and `null` the master account;
 * time bounds are inclusive.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const masterToSub: Store.TransferFilter = { fromAccount: null, toAccount: "sub001@broker.test" }
 */
export interface TransferFilter {
  readonly fromAccount?: string | null | undefined
  readonly toAccount?: string | null | undefined
  readonly fromAccountType?: string | undefined
  readonly toAccountType?: string | undefined
  readonly clientTranId?: string | undefined
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
}

/**
 * Deposit filters; time bounds are inclusive.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const successfulUsdt: Store.DepositFilter = { coin: "USDT", status: 5 }
 */
export interface DepositFilter {
  readonly coin?: string | undefined
  readonly status?: number | undefined
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
}

/**
 * One page of a newest-first listing: `page` from 1, `limit` rows per page.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const second: Store.Page = { page: 2, limit: 500 }
 */
export interface Page {
  readonly page: number
  readonly limit: number
}

/**
 * The identity of a deposit.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const key: Store.DepositKey = { txId: "0xabc", coin: "USDT", network: "TRC20", address: "TXyz" }
 */
export interface DepositKey {
  readonly txId: string
  readonly coin: string
  readonly network: string
  readonly address: string
}

/**
 * What changes over a deposit's life.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const confirmed: Store.DepositChange = { status: 5, confirmTimes: "20" }
 */
export interface DepositChange {
  readonly status?: number | undefined
  readonly confirmTimes?: string | undefined
}

/**
 * Row counts.
 *
 * @example
 * import type { Store } from "@broker-history/server"
 * const empty: Store.Counts = { transfers: 0, deposits: 0 }
 */
export interface Counts {
  readonly transfers: number
  readonly deposits: number
}

/**
 * The store's operations. Database failures are defects: the data is the server's own, so a failing
 * query is a bug (the HTTP layer answers it with a bare 500).
 *
 * @example
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 * const total = Effect.flatMap(Store.Store, (store) => store.counts)
 */
export interface Service {
  /** Adds transfers (in one transaction). A duplicate `tranId` is a defect. */
  readonly insertTransfers: (rows: ReadonlyArray<TransferRow>) => Effect.Effect<void>
  /** Adds deposits (in one transaction), in insertion order. A duplicate identity is a defect. */
  readonly insertDeposits: (rows: ReadonlyArray<DepositRow>) => Effect.Effect<void>
  /** Changes a deposit's status and/or confirmations. An unknown deposit is a defect. */
  readonly updateDeposit: (key: DepositKey, change: DepositChange) => Effect.Effect<void>
  /** Every matching transfer, ascending (timestamp, then tranId numerically): the expected set for tests. */
  readonly allTransfers: (filter?: TransferFilter) => Effect.Effect<ReadonlyArray<TransferRow>>
  /** Every matching deposit, ascending (insertTime, then insertion order). */
  readonly allDeposits: (filter?: DepositFilter) => Effect.Effect<ReadonlyArray<DepositRow>>
  /** One page of matching transfers, newest first (timestamp DESC, tranId DESC). */
  readonly transferPage: (filter: TransferFilter, page: Page) => Effect.Effect<ReadonlyArray<TransferRow>>
  /** One page of matching deposits, newest first (insertTime DESC, insertion order DESC). */
  readonly depositPage: (filter: DepositFilter, page: Page) => Effect.Effect<ReadonlyArray<DepositRow>>
  /** `EXPLAIN QUERY PLAN` of the transfer page query, one detail line per plan step. */
  readonly explainTransferPage: (filter: TransferFilter, page: Page) => Effect.Effect<ReadonlyArray<string>>
  /** `EXPLAIN QUERY PLAN` of the deposit page query, one detail line per plan step. */
  readonly explainDepositPage: (filter: DepositFilter, page: Page) => Effect.Effect<ReadonlyArray<string>>
  /** Row counts of both histories. */
  readonly counts: Effect.Effect<Counts>
  /** Adds or replaces API keys. */
  readonly putKeys: (keys: ReadonlyArray<ApiKey>) => Effect.Effect<void>
  /** The stored key, if any. */
  readonly findKey: (apiKey: string) => Effect.Effect<Option.Option<ApiKey>>
}

/**
 * The store service.
 *
 * @example
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 * const program = Effect.gen(function*() {
 *   const store = yield* Store.Store
 *   return yield* store.allTransfers({ fromAccount: null })
 * })
 */
export class Store extends Context.Tag("@broker-history/server/Store")<Store, Service>() {}

// Multi-row inserts: 500 rows x 12 columns stays far below SQLite's bound-parameter limit.
const batchSize = 500

const digits = /^[0-9]+$/

const transferColumns = (row: TransferRow) => {
  if (!digits.test(row.tranId)) throw new Error(`tranId must be base-10 digits, got ${JSON.stringify(row.tranId)}`)
  return {
    tran_id: BigInt(row.tranId),
    client_tran_id: row.clientTranId,
    from_account: row.fromAccount,
    to_account: row.toAccount,
    asset: row.asset,
    amount: row.amount,
    from_account_type: row.fromAccountType,
    to_account_type: row.toAccountType,
    from_symbol: row.fromSymbol,
    to_symbol: row.toSymbol,
    status: row.status,
    timestamp: row.timestamp
  }
}

const depositColumns = (row: DepositRow) => ({
  amount: row.amount,
  coin: row.coin,
  network: row.network,
  status: row.status,
  address: row.address,
  address_tag: row.addressTag,
  tx_id: row.txId,
  unlock_confirm: row.unlockConfirm,
  confirm_times: row.confirmTimes,
  insert_time: row.insertTime,
  memo: row.memo
})

const offsetOf = (page: Page): bigint => (BigInt(page.page) - 1n) * BigInt(page.limit)

/**
 * Builds the store over the `SqlClient` in context (the schema must already be migrated).
 *
 * @example
 * import { Store } from "@broker-history/server"
 * import { Layer } from "effect"
 * const layer = Layer.effect(Store.Store, Store.make)
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // tranId is read back as text so ids beyond 2^53 stay exact.
  const transferSelect = sql`
    SELECT CAST(tran_id AS TEXT) AS tranId, client_tran_id AS clientTranId, from_account AS fromAccount,
      to_account AS toAccount, asset, amount, from_account_type AS fromAccountType,
      to_account_type AS toAccountType, from_symbol AS fromSymbol, to_symbol AS toSymbol, status, timestamp
    FROM transfers`
  const depositSelect = sql`
    SELECT amount, coin, network, status, address, address_tag AS addressTag, tx_id AS txId,
      unlock_confirm AS unlockConfirm, confirm_times AS confirmTimes, insert_time AS insertTime, memo
    FROM deposits`

  const account = (column: string, value: string | null | undefined): Array<Fragment> =>
    value === undefined ? [] : value === null ? [sql`${sql(column)} IS NULL`] : [sql`${sql(column)} = ${value}`]

  const transferWhere = (f: TransferFilter): Fragment =>
    sql.and([
      ...account("from_account", f.fromAccount),
      ...account("to_account", f.toAccount),
      ...(f.fromAccountType === undefined ? [] : [sql`from_account_type = ${f.fromAccountType}`]),
      ...(f.toAccountType === undefined ? [] : [sql`to_account_type = ${f.toAccountType}`]),
      ...(f.clientTranId === undefined ? [] : [sql`client_tran_id = ${f.clientTranId}`]),
      ...(f.startTime === undefined ? [] : [sql`timestamp >= ${f.startTime}`]),
      ...(f.endTime === undefined ? [] : [sql`timestamp <= ${f.endTime}`])
    ])

  const depositWhere = (f: DepositFilter): Fragment =>
    sql.and([
      ...(f.coin === undefined ? [] : [sql`coin = ${f.coin}`]),
      ...(f.status === undefined ? [] : [sql`status = ${f.status}`]),
      ...(f.startTime === undefined ? [] : [sql`insert_time >= ${f.startTime}`]),
      ...(f.endTime === undefined ? [] : [sql`insert_time <= ${f.endTime}`])
    ])

  const transferPageStatement = (f: TransferFilter, page: Page) =>
    sql<TransferRow>`${transferSelect} WHERE ${transferWhere(f)}
      ORDER BY timestamp DESC, tran_id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`

  const depositPageStatement = (f: DepositFilter, page: Page) =>
    sql<DepositRow>`${depositSelect} WHERE ${depositWhere(f)}
      ORDER BY insert_time DESC, id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`

  const explain = (statement: { readonly compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
    const [text, params] = statement.compile()
    return sql.unsafe<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params).pipe(
      Effect.map((rows) => rows.map((row) => row.detail)),
      Effect.orDie
    )
  }

  const inBatches = <A>(
    rows: ReadonlyArray<A>,
    insert: (batch: ReadonlyArray<A>) => Effect.Effect<unknown, SqlError>
  ) =>
    Effect.gen(function*() {
      for (let start = 0; start < rows.length; start += batchSize) {
        yield* insert(rows.slice(start, start + batchSize))
      }
    }).pipe(sql.withTransaction, Effect.orDie)

  return {
    insertTransfers: (rows) =>
      inBatches(
        rows,
        (batch) => Effect.suspend(() => sql`INSERT INTO transfers ${sql.insert(batch.map(transferColumns))}`)
      ),
    insertDeposits: (rows) =>
      inBatches(rows, (batch) => sql`INSERT INTO deposits ${sql.insert(batch.map(depositColumns))}`),
    updateDeposit: (key, change) => {
      const set = {
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.confirmTimes === undefined ? {} : { confirm_times: change.confirmTimes })
      }
      if (Object.keys(set).length === 0) return Effect.void
      return sql`UPDATE deposits SET ${sql.update(set)}
        WHERE tx_id = ${key.txId} AND coin = ${key.coin} AND network = ${key.network} AND address = ${key.address}
        RETURNING id`.pipe(
        Effect.orDie,
        Effect.flatMap((updated) =>
          updated.length === 1 ? Effect.void : Effect.dieMessage(`no deposit ${JSON.stringify(key)}`)
        )
      )
    },
    allTransfers: (filter = {}) =>
      sql<TransferRow>`${transferSelect} WHERE ${transferWhere(filter)} ORDER BY timestamp, tran_id`.pipe(
        Effect.orDie
      ),
    allDeposits: (filter = {}) =>
      sql<DepositRow>`${depositSelect} WHERE ${depositWhere(filter)} ORDER BY insert_time, id`.pipe(Effect.orDie),
    transferPage: (filter, page) => transferPageStatement(filter, page).pipe(Effect.orDie),
    depositPage: (filter, page) => depositPageStatement(filter, page).pipe(Effect.orDie),
    explainTransferPage: (filter, page) => explain(transferPageStatement(filter, page)),
    explainDepositPage: (filter, page) => explain(depositPageStatement(filter, page)),
    counts: sql<Counts>`
      SELECT (SELECT count(*) FROM transfers) AS transfers, (SELECT count(*) FROM deposits) AS deposits`.pipe(
      Effect.map((rows) => rows[0]!),
      Effect.orDie
    ),
    putKeys: (keys) =>
      keys.length === 0 ? Effect.void : sql`INSERT OR REPLACE INTO api_keys ${
        sql.insert(keys.map((k) => ({
          api_key: k.apiKey,
          secret_key: k.secretKey,
          permissions: k.permissions.join(",")
        })))
      }`.pipe(Effect.asVoid, Effect.orDie),
    findKey: (apiKey) =>
      sql<{ readonly apiKey: string; readonly secretKey: string; readonly permissions: string }>`
        SELECT api_key AS apiKey, secret_key AS secretKey, permissions FROM api_keys WHERE api_key = ${apiKey}`.pipe(
        Effect.map((rows) =>
          Option.fromNullable(rows[0]).pipe(Option.map((row) => ({
            apiKey: row.apiKey,
            secretKey: row.secretKey,
            permissions: ApiKeys.permissions.filter((p) => row.permissions.split(",").includes(p))
          })))
        ),
        Effect.orDie
      )
  }
})

/**
 * The store over the `SqlClient` in context, migrating the schema first.
 *
 * @example
 * import { Store } from "@broker-history/server"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Layer } from "effect"
 * const layer = Store.layer.pipe(Layer.provide(SqliteClient.layer({ filename: ":memory:" })))
 */
export const layer: Layer.Layer<Store, MigrationError | SqlError, SqlClient.SqlClient> = Layer.effect(
  Store,
  Effect.zipRight(Migrations.run, make)
)

/**
 * The SQLite driver (`@effect/sql-sqlite-node` over better-sqlite3) could not be loaded: it is an
 * optional dependency, compiled on install, and did not build or was left out.
 *
 * @example
 * import { Store } from "@broker-history/server"
 * new Store.SqliteDriverMissing({ reason: "Cannot find package 'better-sqlite3'" }).message
 */
export class SqliteDriverMissing extends Data.TaggedError("SqliteDriverMissing")<{ readonly reason: string }> {
  override get message(): string {
    return `the SQLite driver is not installed (${this.reason}): @effect/sql-sqlite-node and better-sqlite3 are ` +
      "optional dependencies, compiled on install; reinstall where Python 3, make and a C++ compiler are available"
  }
}

/**
 * The SQLite driver's module, loaded on first use, so that importing this package loads no native
 * code until a database is opened.
 *
 * @example
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 * const memory = Effect.map(Store.sqliteDriver, (SqliteClient) => SqliteClient.layer({ filename: ":memory:" }))
 */
export const sqliteDriver: Effect.Effect<typeof SqliteClient, SqliteDriverMissing> = Effect.tryPromise({
  try: () => import("@effect/sql-sqlite-node/SqliteClient"),
  catch: (cause) => new SqliteDriverMissing({ reason: String((cause as Error)?.message ?? cause).split("\n")[0] })
})

/**
 * The store in a SQLite database: a file path (created and migrated if new) or `":memory:"`.
 *
 * @example
 * import { Store } from "@broker-history/server"
 * const layer = Store.layerSqlite(":memory:")
 */
export const layerSqlite = (
  filename: string
): Layer.Layer<Store, MigrationError | SqlError | ConfigError | SqliteDriverMissing> =>
  Layer.unwrapEffect(
    Effect.map(sqliteDriver, (SqliteClient) => layer.pipe(Layer.provide(SqliteClient.layer({ filename }))))
  )
