/**
 * The service's data in SQLite: transfers, deposits, sub-accounts and API keys, the page queries the
 * endpoints run, and live inserts/updates so tests can change the history while a client is reading it.
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
import * as Migrations from "./internal/Migrations.js"

/**
 * A stored transfer: `fromAccount`/`toAccount` are `null` for the master account, `tranId` is base-10
 * digits (ordered numerically, exact beyond 2^53) and `amount` is exact decimal text.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const row: Store.TransferRow = {
 *   tranId: "9007199254740993", // 2^53 + 1: kept exact
 *   clientTranId: null,
 *   fromAccount: null,
 *   toAccount: "sub001@broker.test",
 *   asset: "USDT",
 *   amount: "0.10000000",
 *   fromAccountType: "SPOT",
 *   toAccountType: "FUTURES",
 *   fromSymbol: "",
 *   toSymbol: "",
 *   status: "SUCCESS",
 *   timestamp: 1544433325000
 * }
 * const stored = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertTransfers([row])
 *     return yield* store.allTransfers()
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(stored, [row])
 * ```
 *
 * @since 0.1.0
 * @category models
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
 * A stored deposit: `status` is the MEXC status code (1..12), and `txId` + `coin` + `network` +
 * `address` is its identity.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect, Exit } from "effect"
 *
 * const row: Store.DepositRow = {
 *   amount: "50000.00000000",
 *   coin: "USDT",
 *   network: "TRC20",
 *   status: 5,
 *   address: "TXyz",
 *   addressTag: null,
 *   txId: "0xabc",
 *   unlockConfirm: "20",
 *   confirmTimes: "20",
 *   insertTime: 1654064568000,
 *   memo: null
 * }
 * const again = await Effect.runPromiseExit(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertDeposits([row])
 *     yield* store.insertDeposits([{ ...row, amount: "1.00000000" }]) // the same identity
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.ok(Exit.isFailure(again)) // a duplicate identity is a defect
 * ```
 *
 * @since 0.1.0
 * @category models
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
 * Transfer filters: for an account, `undefined` means any account and `null` the master account; time
 * bounds are inclusive.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const masterToSub001: Store.TransferFilter = { fromAccount: null, toAccount: "sub001@broker.test" }
 * const rows = await Effect.runPromise(
 *   Seed.seed({ seed: 1, transfers: 2000, deposits: 0, subAccounts: 4 }).pipe(
 *     Effect.zipRight(Effect.flatMap(Store.Store, (store) => store.allTransfers(masterToSub001))),
 *     Effect.provide(Store.layerSqlite(":memory:"))
 *   )
 * )
 * assert.ok(rows.length > 0 && rows.every((t) => t.fromAccount === null && t.toAccount === "sub001@broker.test"))
 * ```
 *
 * @since 0.1.0
 * @category models
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
 * Deposit filters: an exact `coin` and `status` code, and inclusive time bounds.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const creditedUsdt: Store.DepositFilter = { coin: "USDT", status: 5 }
 * const rows = await Effect.runPromise(
 *   Seed.seed({ seed: 1, transfers: 0, deposits: 500 }).pipe(
 *     Effect.zipRight(Effect.flatMap(Store.Store, (store) => store.allDeposits(creditedUsdt))),
 *     Effect.provide(Store.layerSqlite(":memory:"))
 *   )
 * )
 * assert.ok(rows.length > 0 && rows.every((d) => d.coin === "USDT" && d.status === 5))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface DepositFilter {
  readonly coin?: string | undefined
  readonly status?: number | undefined
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
}

/**
 * One page of a newest-first listing: `page` from 1, `limit` rows a page.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const second: Store.Page = { page: 2, limit: 3 }
 * const { all, page } = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* Seed.seed({ seed: 1, transfers: 0, deposits: 20 })
 *     return { all: yield* store.allDeposits(), page: yield* store.depositPage({}, second) }
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * // Newest first: the 4th to 6th newest deposits.
 * assert.deepStrictEqual(page, all.slice(-6, -3).reverse())
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Page {
  readonly page: number
  readonly limit: number
}

/**
 * The identity of a deposit: transaction, coin, network and address.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const pending = Seed.deposits({ seed: 1, transfers: 0, deposits: 1 })[0] // status 1
 * const key: Store.DepositKey = { txId: pending.txId, coin: pending.coin, network: pending.network, address: pending.address }
 * const [updated] = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertDeposits([pending])
 *     yield* store.updateDeposit(key, { status: 5 })
 *     return yield* store.allDeposits()
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(updated, { ...pending, status: 5 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface DepositKey {
  readonly txId: string
  readonly coin: string
  readonly network: string
  readonly address: string
}

/**
 * What changes over a deposit's life: its status and its confirmation count.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const deposit = Seed.deposits({ seed: 1, transfers: 0, deposits: 1 })[0]
 * const confirmed: Store.DepositChange = { status: 5, confirmTimes: deposit.unlockConfirm }
 * const [updated] = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertDeposits([deposit])
 *     yield* store.updateDeposit(deposit, confirmed) // a deposit row carries its own key
 *     return yield* store.allDeposits()
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual([updated.status, updated.confirmTimes], [5, deposit.unlockConfirm])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface DepositChange {
  readonly status?: number | undefined
  readonly confirmTimes?: string | undefined
}

/**
 * A stored sub-account: its name, its note (free text, `""` when none) and when it was created (Unix
 * ms), as the broker's sub-account list answers it.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const rows: ReadonlyArray<Store.SubAccountRow> = [
 *   { name: "sub002@broker.test", note: "", createdAt: 1700000000000 },
 *   { name: "sub001@broker.test", note: "desk 1", createdAt: 1700000000000 },
 *   { name: "sub000@broker.test", note: "", createdAt: 1700000001000 }
 * ]
 * const listed = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertSubAccounts(rows)
 *     return yield* store.allSubAccounts()
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * // By creation time, then name.
 * assert.deepStrictEqual(listed.map((s) => s.name), ["sub001@broker.test", "sub002@broker.test", "sub000@broker.test"])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountRow {
  readonly name: string
  readonly note: string
  readonly createdAt: number
}

/**
 * Sub-account filters: an exact `name`, or any sub-account when `undefined`.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const one: Store.SubAccountFilter = { name: "sub002@broker.test" }
 * const found = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* store.insertSubAccounts([
 *       { name: "sub001@broker.test", note: "", createdAt: 1 },
 *       { name: "sub002@broker.test", note: "", createdAt: 2 }
 *     ])
 *     return yield* store.allSubAccounts(one)
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(found, [{ name: "sub002@broker.test", note: "", createdAt: 2 }])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface SubAccountFilter {
  readonly name?: string | undefined
}

/**
 * The row counts of both histories.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const empty: Store.Counts = await Effect.runPromise(
 *   Effect.flatMap(Store.Store, (store) => store.counts).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(empty, { transfers: 0, deposits: 0 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Counts {
  readonly transfers: number
  readonly deposits: number
}

/**
 * The store's operations: inserts and updates, complete listings for tests, the endpoints' page
 * queries and their query plans, counts and API keys; database failures are defects, since the data
 * is the server's own.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const plan = await Effect.runPromise(
 *   Effect.flatMap(Store.Store, (store: Store.Service) =>
 *     store.explainTransferPage(
 *       { fromAccount: null, toAccount: "sub001@broker.test", fromAccountType: "SPOT", toAccountType: "FUTURES" },
 *       { page: 1, limit: 500 }
 *     )).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * // Every filter and the time order are served by one index: no table scan, no sort.
 * assert.ok(plan.length === 1 && plan[0].includes("USING INDEX transfers_by_route_time"))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** Adds transfers (in one transaction). A duplicate `tranId` is a defect. */
  readonly insertTransfers: (rows: ReadonlyArray<TransferRow>) => Effect.Effect<void>
  /** Adds deposits (in one transaction), in insertion order. A duplicate identity is a defect. */
  readonly insertDeposits: (rows: ReadonlyArray<DepositRow>) => Effect.Effect<void>
  /**
   * Sets the status of stored transfers (in one transaction), as a pending transfer settles; only the
   * status changes. An unknown `tranId` is a defect, and then nothing changes.
   */
  readonly settleTransfers: (
    settled: ReadonlyArray<{ readonly tranId: string; readonly status: string }>
  ) => Effect.Effect<void>
  /** The ids of the `PENDING` transfers at or before `until` (Unix ms), oldest first. */
  readonly pendingTransfers: (until: number) => Effect.Effect<ReadonlyArray<string>>
  /** Changes a deposit's status and/or confirmations. An unknown deposit is a defect. */
  readonly updateDeposit: (key: DepositKey, change: DepositChange) => Effect.Effect<void>
  /** Adds sub-accounts (in one transaction). A duplicate name is a defect. */
  readonly insertSubAccounts: (rows: ReadonlyArray<SubAccountRow>) => Effect.Effect<void>
  /** Every matching transfer, ascending (timestamp, then tranId numerically): the expected set for tests. */
  readonly allTransfers: (filter?: TransferFilter) => Effect.Effect<ReadonlyArray<TransferRow>>
  /** Every matching deposit, ascending (insertTime, then insertion order). */
  readonly allDeposits: (filter?: DepositFilter) => Effect.Effect<ReadonlyArray<DepositRow>>
  /** One page of matching transfers, newest first (timestamp DESC, tranId DESC). */
  readonly transferPage: (filter: TransferFilter, page: Page) => Effect.Effect<ReadonlyArray<TransferRow>>
  /** One page of matching deposits, newest first (insertTime DESC, insertion order DESC). */
  readonly depositPage: (filter: DepositFilter, page: Page) => Effect.Effect<ReadonlyArray<DepositRow>>
  /** Every matching sub-account, by creation time, then name. */
  readonly allSubAccounts: (filter?: SubAccountFilter) => Effect.Effect<ReadonlyArray<SubAccountRow>>
  /** One page of matching sub-accounts, by creation time, then name: the broker's sub-account list. */
  readonly subAccountPage: (filter: SubAccountFilter, page: Page) => Effect.Effect<ReadonlyArray<SubAccountRow>>
  /**
   * The accounts the stored transfers name, each as created at the earliest transfer naming it, by
   * that time, then name: the sub-accounts of a history stored without its sub-accounts.
   */
  readonly subAccountsOfTransfers: Effect.Effect<ReadonlyArray<SubAccountRow>>
  /** `EXPLAIN QUERY PLAN` of the transfer page query, one detail line per plan step. */
  readonly explainTransferPage: (filter: TransferFilter, page: Page) => Effect.Effect<ReadonlyArray<string>>
  /** `EXPLAIN QUERY PLAN` of the deposit page query, one detail line per plan step. */
  readonly explainDepositPage: (filter: DepositFilter, page: Page) => Effect.Effect<ReadonlyArray<string>>
  /** `EXPLAIN QUERY PLAN` of the query of `pendingTransfers`, one detail line per plan step. */
  readonly explainPendingTransfers: (until: number) => Effect.Effect<ReadonlyArray<string>>
  /** `EXPLAIN QUERY PLAN` of the sub-account page query, one detail line per plan step. */
  readonly explainSubAccountPage: (filter: SubAccountFilter, page: Page) => Effect.Effect<ReadonlyArray<string>>
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
 * ```ts
 * import { ApiKeys, Store } from "@broker-history/server"
 * import { Effect, Option } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const store = yield* Store.Store
 *   yield* store.putKeys([ApiKeys.demo])
 *   return [yield* store.findKey(ApiKeys.demo.apiKey), yield* store.findKey("unknown")] as const
 * })
 * const [demo, unknown] = await Effect.runPromise(program.pipe(Effect.provide(Store.layerSqlite(":memory:"))))
 * assert.deepStrictEqual(demo, Option.some(ApiKeys.demo))
 * assert.ok(Option.isNone(unknown))
 * ```
 *
 * @since 0.1.0
 * @category services
 */
export class Store extends Context.Tag("@broker-history/server/Store")<Store, Service>() {}

// The rows as table columns and back, and a page as its row offset.

/** Rows per multi-row insert: 500 rows x 12 columns stays far below SQLite's bound-parameter limit. */
const batchSize = 500

const digits = /^[0-9]+$/

/** A `tranId` as its column: base-10 digits, stored as an integer (anything else throws). */
const tranIdColumn = (tranId: string): bigint => {
  if (!digits.test(tranId)) throw new Error(`tranId must be base-10 digits, got ${JSON.stringify(tranId)}`)
  return BigInt(tranId)
}

/** A transfer's columns; `tranId` must be base-10 digits, stored as an integer. */
const transferColumns = (row: TransferRow) => {
  return {
    tran_id: tranIdColumn(row.tranId),
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

/** A deposit's columns. */
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

/** The columns a deposit change sets: none when it changes nothing. */
const depositChangeColumns = (change: DepositChange) => ({
  ...(change.status === undefined ? {} : { status: change.status }),
  ...(change.confirmTimes === undefined ? {} : { confirm_times: change.confirmTimes })
})

/** A sub-account's columns. */
const subAccountColumns = (row: SubAccountRow) => ({
  name: row.name,
  note: row.note,
  created_at: row.createdAt
})

/** An API key's columns: its permissions as one comma-separated text. */
const keyColumns = (key: ApiKey) => ({
  api_key: key.apiKey,
  secret_key: key.secretKey,
  permissions: key.permissions.join(",")
})

/** An API key as read back. */
interface KeyRow {
  readonly apiKey: string
  readonly secretKey: string
  readonly permissions: string
}

/** A stored key: its known permissions, in their canonical order. */
const keyOfRow = (row: KeyRow): ApiKey => ({
  apiKey: row.apiKey,
  secretKey: row.secretKey,
  permissions: ApiKeys.permissions.filter((p) => row.permissions.split(",").includes(p))
})

/** The rows before the page. */
const offsetOf = (page: Page): bigint => (BigInt(page.page) - 1n) * BigInt(page.limit)

// The read queries: the filters as SQL conditions, the complete listings (oldest first), the
// endpoints' pages (the histories newest first, the sub-accounts oldest first) and their query plans.

/** The read queries over `sql`. */
const queriesOf = (sql: SqlClient.SqlClient) => {
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

  const subAccountSelect = sql`SELECT name, note, created_at AS createdAt FROM sub_accounts`

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

  const subAccountWhere = (f: SubAccountFilter): Fragment =>
    sql.and(f.name === undefined ? [] : [sql`name = ${f.name}`])

  return {
    /** Every matching transfer, ascending (timestamp, then tranId numerically). */
    allTransfers: (f: TransferFilter) =>
      sql<TransferRow>`${transferSelect} WHERE ${transferWhere(f)} ORDER BY timestamp, tran_id`,
    /** Every matching deposit, ascending (insertTime, then insertion order). */
    allDeposits: (f: DepositFilter) =>
      sql<DepositRow>`${depositSelect} WHERE ${depositWhere(f)} ORDER BY insert_time, id`,
    /** One page of matching transfers, newest first. */
    transferPage: (f: TransferFilter, page: Page) =>
      sql<TransferRow>`${transferSelect} WHERE ${transferWhere(f)}
      ORDER BY timestamp DESC, tran_id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /** One page of matching deposits, newest first. */
    depositPage: (f: DepositFilter, page: Page) =>
      sql<DepositRow>`${depositSelect} WHERE ${depositWhere(f)}
      ORDER BY insert_time DESC, id DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /**
     * The ids of the pending transfers at or before `until`, oldest first. `'PENDING'` is written in
     * the statement, not bound, so that the partial index `transfers_pending` serves it.
     */
    pendingTransfers: (until: number) =>
      sql<{ readonly tranId: string }>`SELECT CAST(tran_id AS TEXT) AS tranId FROM transfers
      WHERE status = 'PENDING' AND timestamp <= ${until} ORDER BY timestamp, tran_id`,
    /** Every matching sub-account, by creation time, then name. */
    allSubAccounts: (f: SubAccountFilter) =>
      sql<SubAccountRow>`${subAccountSelect} WHERE ${subAccountWhere(f)} ORDER BY created_at, name`,
    /** One page of matching sub-accounts, by creation time, then name. */
    subAccountPage: (f: SubAccountFilter, page: Page) =>
      sql<SubAccountRow>`${subAccountSelect} WHERE ${subAccountWhere(f)}
      ORDER BY created_at, name LIMIT ${page.limit} OFFSET ${offsetOf(page)}`,
    /**
     * The accounts the stored transfers name, each created at the earliest transfer naming it: the
     * sub-accounts of a history stored without them.
     */
    subAccountsOfTransfers: sql<SubAccountRow>`
      SELECT name, '' AS note, min(timestamp) AS createdAt FROM (
        SELECT from_account AS name, timestamp FROM transfers WHERE from_account IS NOT NULL
        UNION ALL
        SELECT to_account AS name, timestamp FROM transfers WHERE to_account IS NOT NULL
      ) GROUP BY name ORDER BY createdAt, name`,
    /** `EXPLAIN QUERY PLAN` of a statement, one detail line per plan step. */
    explain: (statement: { readonly compile: () => readonly [string, ReadonlyArray<unknown>] }) => {
      const [text, params] = statement.compile()
      return sql.unsafe<{ readonly detail: string }>(`EXPLAIN QUERY PLAN ${text}`, params).pipe(
        Effect.map((rows) => rows.map((row) => row.detail)),
        Effect.orDie
      )
    }
  }
}

/**
 * Builds the store over the `SqlClient` in context, whose schema must already be migrated (`layer`
 * migrates it, then builds the store).
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Layer } from "effect"
 *
 * // A second store over the database that `Store.layer` migrated: both read the same rows.
 * const names = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const first = yield* Store.Store
 *     yield* first.insertSubAccounts([{ name: "desk@broker.test", note: "", createdAt: 0 }])
 *     const second = yield* Store.make
 *     return (yield* second.allSubAccounts()).map((s) => s.name)
 *   }).pipe(Effect.provide(Store.layer.pipe(Layer.provideMerge(SqliteClient.layer({ filename: ":memory:" })))))
 * )
 * assert.deepStrictEqual(names, ["desk@broker.test"])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<Service, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const queries = queriesOf(sql)

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
    settleTransfers: (settled) =>
      inBatches(settled, (batch) =>
        // One statement per status in the batch; an id that matched no transfer rolls everything back.
        Effect.forEach(
          [...new Set(batch.map((s) => s.status))],
          (status) =>
            Effect.gen(function*() {
              const ids = batch.filter((s) => s.status === status).map((s) => s.tranId)
              const updated = yield* Effect.suspend(() =>
                sql<{ readonly tranId: string }>`UPDATE transfers SET status = ${status}
                  WHERE tran_id IN ${sql.in(ids.map(tranIdColumn))}
                  RETURNING CAST(tran_id AS TEXT) AS tranId`
              )
              if (updated.length === new Set(ids).size) return
              const found = new Set(updated.map((row) => row.tranId))
              const missing = ids.find((id) => !found.has(String(tranIdColumn(id))))
              return yield* Effect.dieMessage(`no transfer with tranId ${missing}`)
            }),
          { discard: true }
        )),
    pendingTransfers: (until) =>
      queries.pendingTransfers(until).pipe(Effect.map((rows) => rows.map((r) => r.tranId)), Effect.orDie),
    updateDeposit: (key, change) => {
      const set = depositChangeColumns(change)
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
    insertSubAccounts: (rows) =>
      inBatches(
        rows,
        (batch) => sql`INSERT INTO sub_accounts ${sql.insert(batch.map(subAccountColumns))}`
      ),
    allTransfers: (filter = {}) => queries.allTransfers(filter).pipe(Effect.orDie),
    allDeposits: (filter = {}) => queries.allDeposits(filter).pipe(Effect.orDie),
    transferPage: (filter, page) => queries.transferPage(filter, page).pipe(Effect.orDie),
    depositPage: (filter, page) => queries.depositPage(filter, page).pipe(Effect.orDie),
    allSubAccounts: (filter = {}) => queries.allSubAccounts(filter).pipe(Effect.orDie),
    subAccountPage: (filter, page) => queries.subAccountPage(filter, page).pipe(Effect.orDie),
    subAccountsOfTransfers: queries.subAccountsOfTransfers.pipe(Effect.orDie),
    explainTransferPage: (filter, page) => queries.explain(queries.transferPage(filter, page)),
    explainDepositPage: (filter, page) => queries.explain(queries.depositPage(filter, page)),
    explainPendingTransfers: (until) => queries.explain(queries.pendingTransfers(until)),
    explainSubAccountPage: (filter, page) => queries.explain(queries.subAccountPage(filter, page)),
    counts: sql<Counts>`
      SELECT (SELECT count(*) FROM transfers) AS transfers, (SELECT count(*) FROM deposits) AS deposits`.pipe(
      Effect.map((rows) => rows[0]!),
      Effect.orDie
    ),
    putKeys: (keys) =>
      keys.length === 0
        ? Effect.void
        : sql`INSERT OR REPLACE INTO api_keys ${sql.insert(keys.map(keyColumns))}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
    findKey: (apiKey) =>
      sql<KeyRow>`
        SELECT api_key AS apiKey, secret_key AS secretKey, permissions FROM api_keys WHERE api_key = ${apiKey}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), keyOfRow)),
        Effect.orDie
      )
  }
})

/**
 * The store over the `SqlClient` in context, migrating the schema first.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { SqliteClient } from "@effect/sql-sqlite-node"
 * import { Effect, Layer } from "effect"
 *
 * const StoreLive = Store.layer.pipe(Layer.provide(SqliteClient.layer({ filename: ":memory:" })))
 * const counts = await Effect.runPromise(
 *   Seed.seed({ seed: 1, transfers: 10, deposits: 5 }).pipe(
 *     Effect.zipRight(Effect.flatMap(Store.Store, (store) => store.counts)),
 *     Effect.provide(StoreLive)
 *   )
 * )
 * assert.deepStrictEqual(counts, { transfers: 10, deposits: 5 })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Store, MigrationError | SqlError, SqlClient.SqlClient> = Layer.effect(
  Store,
  Effect.zipRight(Migrations.run, make)
)

/**
 * The columns of a transfer's details, as SQL column definitions: the fields that the service's
 * database and the command line's sync database (`@broker-history/cli`) both keep as received, NOT
 * NULL. Amounts are TEXT, exact as sent. Part of migrations already applied: it never changes (a new
 * column is a new migration).
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 *
 * assert.ok(Store.transferDetailColumns.includes("amount TEXT NOT NULL"))
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const transferDetailColumns: string = Migrations.transferDetailColumns

/**
 * The SQLite driver (`@effect/sql-sqlite-node` over better-sqlite3) could not be loaded: it is an
 * optional dependency, compiled on install, and did not build or was left out.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 *
 * const error = new Store.SqliteDriverMissing({ reason: "Cannot find package 'better-sqlite3'" })
 * assert.ok(error.message.startsWith("the SQLite driver is not installed (Cannot find package 'better-sqlite3')"))
 * assert.ok(error.message.endsWith("reinstall where Python 3, make and a C++ compiler are available"))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class SqliteDriverMissing extends Data.TaggedError("SqliteDriverMissing")<{ readonly reason: string }> {
  override get message(): string {
    return `the SQLite driver is not installed (${this.reason}): @effect/sql-sqlite-node and better-sqlite3 are ` +
      "optional dependencies, compiled on install; reinstall where Python 3, make and a C++ compiler are available"
  }
}

/**
 * The SQLite driver's module, loaded on first use, so that importing this package loads no native code
 * until a database is opened.
 *
 * @example
 * ```ts
 * import { Store } from "@broker-history/server"
 * import { SqlClient } from "@effect/sql"
 * import { Effect } from "effect"
 *
 * const one = await Effect.runPromise(
 *   Effect.flatMap(Store.sqliteDriver, (SqliteClient) =>
 *     Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly one: number }>`SELECT 1 AS one`).pipe(
 *       Effect.provide(SqliteClient.layer({ filename: ":memory:" }))
 *     ))
 * )
 * assert.deepStrictEqual(one, [{ one: 1 }])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const sqliteDriver: Effect.Effect<typeof SqliteClient, SqliteDriverMissing> = Effect.tryPromise({
  try: () => import("@effect/sql-sqlite-node/SqliteClient"),
  catch: (cause) => new SqliteDriverMissing({ reason: String((cause as Error)?.message ?? cause).split("\n")[0] })
})

/**
 * The store in a SQLite database: a file path (created and migrated when new) or `":memory:"`.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * const file = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "store-")), "history.sqlite")
 * await Effect.runPromise(Seed.seed({ seed: 1, transfers: 100, deposits: 10 }).pipe(Effect.provide(Store.layerSqlite(file))))
 * // Opened again, the file keeps its history:
 * const counts = await Effect.runPromise(
 *   Effect.flatMap(Store.Store, (store) => store.counts).pipe(Effect.provide(Store.layerSqlite(file)))
 * )
 * assert.deepStrictEqual(counts, { transfers: 100, deposits: 10 })
 * Fs.rmSync(Path.dirname(file), { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerSqlite = (
  filename: string
): Layer.Layer<Store, MigrationError | SqlError | ConfigError | SqliteDriverMissing> =>
  Layer.unwrapEffect(
    Effect.map(sqliteDriver, (SqliteClient) => layer.pipe(Layer.provide(SqliteClient.layer({ filename }))))
  )
