/**
 * Deterministic, realistic histories: from a seed, the sub-accounts with their creation times, and
 * transfers and deposits across those sub-accounts (and the master account), assets, networks, every
 * status, every account-type pair, spread over years, with timestamp ties, client ids, memos and
 * address tags.
 *
 * @since 0.1.0
 */
import * as Prng from "@broker-history/core/random/Prng"
import * as Effect from "effect/Effect"
import * as Accounts from "./internal/Accounts.js"
import * as Store from "./Store.js"
import type { DepositRow, SubAccountRow, TransferRow } from "./Store.js"

/**
 * What to generate: `transfers` and `deposits` from `seed`, ending at `end` (Unix ms, default now),
 * spanning `years` (default 2) across `subAccounts` sub-accounts (default 40, at least 2).
 *
 * `staggeredSubAccounts` (default `false`): without it every sub-account is created at the start of
 * the history; with it the first two are, and sub-account `i` (from 0) is created `(i - 1) / n` of
 * the span later, so the sub-accounts appear one after another over the history and no transfer names
 * a sub-account before its creation. Without it the transfers and deposits are exactly those of the
 * same options without the field.
 *
 * `futuresAccountType` (default `FUTURES`): how the records spell the futures account type,
 * `FUTURES` or `FUTURE`; with `FUTURE` the records are those of `FUTURES` with that one word
 * changed.
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * const options: Seed.SeedOptions = { seed: 42, transfers: 500, deposits: 0, end: 1700000000000, years: 1 }
 * const rows = Seed.transfers(options)
 * assert.ok(rows.every((t) => t.timestamp > 1700000000000 - 366 * 86_400_000 && t.timestamp <= 1700000000000))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface SeedOptions {
  readonly seed: number
  readonly transfers: number
  readonly deposits: number
  readonly end?: number | undefined
  readonly years?: number | undefined
  readonly subAccounts?: number | undefined
  /** @since 0.2.0 */
  readonly staggeredSubAccounts?: boolean | undefined
  /** @since 0.2.0 */
  readonly futuresAccountType?: "FUTURES" | "FUTURE" | undefined
}

const yearMillis = 365 * 24 * 60 * 60 * 1000

// Every (from, to) pair of the account types, SPOT first.
const typePairsOf = (futures: Accounts.Futures): ReadonlyArray<readonly [string, string]> => {
  const accountTypes = Accounts.accepted(futures)
  return accountTypes.flatMap((from) => accountTypes.map((to) => [from, to] as const))
}
const routes = ["masterToSub", "subToMaster", "subToSub", "masterToMaster"] as const

interface Asset {
  readonly name: string
  readonly decimals: number
  readonly maxWhole: number
}

const assets: ReadonlyArray<Asset> = [
  { name: "USDT", decimals: 8, maxWhole: 50_000 },
  { name: "USDC", decimals: 6, maxWhole: 20_000 },
  { name: "BTC", decimals: 8, maxWhole: 3 },
  { name: "ETH", decimals: 8, maxWhole: 40 },
  { name: "MX", decimals: 2, maxWhole: 10_000 },
  { name: "SOL", decimals: 4, maxWhole: 500 },
  { name: "TRX", decimals: 0, maxWhole: 1_000_000 },
  { name: "DOGE", decimals: 3, maxWhole: 100_000 }
]

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
const hex = "0123456789abcdef"
const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// Amounts are built as text so they stay exact and keep trailing zeros ("0.10000000").
const amount = (next: Prng.Prng, decimals: number, maxWhole: number): string => {
  const small = next() < 0.2
  const whole = small ? 0 : Prng.int(next, 0, maxWhole)
  if (decimals === 0) return String(Math.max(whole, 1))
  const shown = next() < 0.7 ? decimals : Prng.int(next, 1, decimals)
  let fraction = Prng.text(next, "0123456789", shown)
  if (whole === 0 && /^0*$/.test(fraction)) fraction = fraction.slice(0, -1) + "1"
  // Some amounts are round with trailing zeros, as exchanges print them.
  if (next() < 0.25) fraction = fraction.slice(0, 1).padEnd(shown, "0")
  return `${whole}.${fraction}`
}

// The span of a history: from `start` to `end`, both Unix ms.
const spanOf = (options: SeedOptions, end: number) => ({
  start: end - Math.round((options.years ?? 2) * yearMillis),
  end
})

// Ascending times over the span with deliberate ties: after each time, a run of records sometimes
// shares the same millisecond.
const times = (
  next: Prng.Prng,
  count: number,
  span: { readonly start: number; readonly end: number }
): Array<number> => {
  const { end, start } = span
  const out: Array<number> = []
  while (out.length < count) {
    const t = Prng.int(next, start, end)
    const run = next() < 0.05 ? Prng.int(next, 2, 8) : 1
    for (let i = 0; i < run && out.length < count; i++) out.push(t)
  }
  return out.sort((a, b) => a - b)
}

/**
 * The names of the first `count` seeded sub-accounts: `sub001@broker.test`, `sub002@broker.test`, ….
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * assert.deepStrictEqual(Seed.subAccountNames(2), ["sub001@broker.test", "sub002@broker.test"])
 * assert.strictEqual(Seed.subAccountNames(40).at(-1), "sub040@broker.test")
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const subAccountNames = (count: number): ReadonlyArray<string> =>
  Array.from({ length: count }, (_, i) => `sub${String(i + 1).padStart(3, "0")}@broker.test`)

/**
 * The sub-accounts of the seeded history (`subAccountNames`, at least two), in creation
 * order, each with an empty note: all created at the history's start, or, with
 * `staggeredSubAccounts`, one after another over the span (see `SeedOptions`).
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * const day = 86_400_000
 * const end = 1700000000000
 * const start = end - 365 * day
 * assert.deepStrictEqual(Seed.subAccounts({ seed: 1, transfers: 0, deposits: 0, end, years: 1, subAccounts: 2 }), [
 *   { name: "sub001@broker.test", note: "", createdAt: start },
 *   { name: "sub002@broker.test", note: "", createdAt: start }
 * ])
 * const staggered = Seed.subAccounts({ seed: 1, transfers: 0, deposits: 0, end, years: 1, subAccounts: 5, staggeredSubAccounts: true })
 * assert.deepStrictEqual(staggered.map((s) => (s.createdAt - start) / day), [0, 0, 73, 146, 219])
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const subAccounts = (options: SeedOptions): ReadonlyArray<SubAccountRow> => {
  const { end, start } = spanOf(options, options.end ?? Date.now())
  const names = subAccountNames(Math.max(2, options.subAccounts ?? 40))
  return names.map((name, i) => ({
    name,
    note: "",
    createdAt: options.staggeredSubAccounts === true
      ? start + Math.floor((end - start) * Math.max(0, i - 1) / names.length)
      : start
  }))
}

/**
 * Generates `options.transfers` transfers ascending by time, deterministically from the seed: the
 * first 16 cover every route (master→sub, sub→master, sub→sub, master→master) with every account-type
 * pair, the first three every status, and ids cross from 10 to 11 digits early with a tie at the crossing.
 * A transfer names only sub-accounts created at or before its time (`subAccounts(options)`).
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * const options = { seed: 1, transfers: 1000, deposits: 0, end: 1700000000000 }
 * const rows = Seed.transfers(options)
 * assert.strictEqual(rows.length, 1000)
 * assert.deepStrictEqual(Seed.transfers(options), rows) // the same seed gives the same history
 * assert.deepStrictEqual(rows.slice(0, 3).map((t) => t.status), ["SUCCESS", "FAILED", "PENDING"])
 * assert.ok(rows.every((t, i) => i === 0 || rows[i - 1].timestamp <= t.timestamp))
 * assert.ok(rows.some((t) => t.tranId.length === 10) && rows.some((t) => t.tranId.length === 11))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const transfers = (options: SeedOptions): ReadonlyArray<TransferRow> => {
  const next = Prng.mulberry32(options.seed ^ 0x7a5f3c1d)
  const end = options.end ?? Date.now()
  const accounts = subAccounts({ ...options, end })
  const subs = accounts.map((s) => s.name)
  const stamps = times(next, options.transfers, spanOf(options, end))
  const futures = options.futuresAccountType ?? Accounts.defaultFutures
  const typePairs = typePairsOf(futures)
  // The sub-accounts created by the current transfer's time: the first `created` (at least two).
  let created = 0
  const rows: Array<TransferRow> = []
  let id = 9_999_999_000
  for (let i = 0; i < stamps.length; i++) {
    const previousId = id
    id += Prng.int(next, 1, 3)
    let timestamp = stamps[i]!
    // Force a tie across the 10 → 11 digit boundary: text order and numeric order disagree there.
    if (previousId < 10_000_000_000 && id >= 10_000_000_000 && i > 0) timestamp = rows[i - 1]!.timestamp
    const route = i < 16 ? routes[i % 4]! : Prng.pick(next, routes)
    const [fromAccountType, toAccountType] = i < 16 ? typePairs[Math.floor(i / 4)]! : Prng.pick(next, typePairs)
    while (created < accounts.length && accounts[created]!.createdAt <= timestamp) created++
    // One draw per pick whatever `created` is; with every sub-account created, as `Prng.pick` over all.
    const fromIndex = Math.floor(next() * created)
    let toIndex = Math.floor(next() * created)
    if (toIndex === fromIndex) toIndex = (fromIndex + 1) % created
    const from = subs[fromIndex]!
    const to = subs[toIndex]!
    const asset = Prng.pick(next, assets)
    const roll = next()
    const status = i < 3
      ? ["SUCCESS", "FAILED", "PENDING"][i]!
      : roll < 0.85
      ? "SUCCESS"
      : roll < 0.93
      ? "FAILED"
      : "PENDING"
    rows.push({
      tranId: String(id),
      clientTranId: next() < 0.3 ? Prng.text(next, alphanumeric, 32) : null,
      fromAccount: route === "subToMaster" || route === "subToSub" ? from : null,
      toAccount: route === "masterToSub" ? to : route === "subToSub" ? to : null,
      asset: asset.name,
      amount: amount(next, asset.decimals, asset.maxWhole),
      fromAccountType,
      toAccountType,
      fromSymbol: fromAccountType === futures && next() < 0.2 ? `${asset.name}_USDT` : "",
      toSymbol: toAccountType === futures && next() < 0.2 ? `${asset.name}_USDT` : "",
      status,
      timestamp
    })
  }
  return rows
}

interface Network {
  readonly coin: string
  readonly network: string
  readonly unlockConfirm: number
  readonly address: (next: Prng.Prng) => string
  readonly memo: boolean
  readonly decimals: number
  readonly maxWhole: number
}

const evm = (next: Prng.Prng) => "0x" + Prng.text(next, hex, 40)
const tron = (next: Prng.Prng) => "T" + Prng.text(next, base58, 33)

const networks: ReadonlyArray<Network> = [
  { coin: "USDT", network: "TRC20", unlockConfirm: 20, address: tron, memo: false, decimals: 8, maxWhole: 50_000 },
  { coin: "USDT", network: "ERC20", unlockConfirm: 64, address: evm, memo: false, decimals: 8, maxWhole: 50_000 },
  { coin: "USDT", network: "BEP20(BSC)", unlockConfirm: 15, address: evm, memo: false, decimals: 8, maxWhole: 50_000 },
  { coin: "USDC", network: "ERC20", unlockConfirm: 64, address: evm, memo: false, decimals: 6, maxWhole: 20_000 },
  {
    coin: "BTC",
    network: "BTC",
    unlockConfirm: 2,
    address: (next) => "bc1q" + Prng.text(next, "023456789acdefghjklmnpqrstuvwxyz", 38),
    memo: false,
    decimals: 8,
    maxWhole: 3
  },
  { coin: "ETH", network: "ERC20", unlockConfirm: 64, address: evm, memo: false, decimals: 8, maxWhole: 40 },
  { coin: "ETH", network: "ARBITRUM", unlockConfirm: 120, address: evm, memo: false, decimals: 8, maxWhole: 40 },
  {
    coin: "XRP",
    network: "XRP",
    unlockConfirm: 1,
    address: (next) => "r" + Prng.text(next, base58, 33),
    memo: true,
    decimals: 6,
    maxWhole: 100_000
  },
  {
    coin: "EOS",
    network: "EOS",
    unlockConfirm: 1,
    address: () => "mexcdeposits",
    memo: true,
    decimals: 4,
    maxWhole: 10_000
  },
  { coin: "TRX", network: "TRC20", unlockConfirm: 20, address: tron, memo: false, decimals: 0, maxWhole: 1_000_000 }
]

// MEXC's codes 1..12; most deposits settle as SUCCESS (5) or COMPLETED (12).
const settledStatus = (next: Prng.Prng): number => {
  const roll = next()
  if (roll < 0.6) return 5
  if (roll < 0.8) return 12
  return Prng.int(next, 1, 12)
}

/**
 * Generates `options.deposits` deposits ascending by insert time, deterministically from the seed: the
 * first 12 carry every status code, memo networks (XRP, EOS) carry a memo that is also the address tag
 * and the address suffix, and a few transactions carry several outputs (same `txId`, other address).
 *
 * @example
 * ```ts
 * import { Seed } from "@broker-history/server"
 *
 * const rows = Seed.deposits({ seed: 1, transfers: 0, deposits: 500, end: 1700000000000 })
 * assert.deepStrictEqual(rows.slice(0, 12).map((d) => d.status), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
 * const withMemo = rows.find((d) => d.memo !== null)
 * assert.ok(withMemo !== undefined && withMemo.addressTag === withMemo.memo && withMemo.address.endsWith(`:${withMemo.memo}`))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const deposits = (options: SeedOptions): ReadonlyArray<DepositRow> => {
  const next = Prng.mulberry32(options.seed ^ 0x1f2e3d4c)
  const stamps = times(next, options.deposits, spanOf(options, options.end ?? Date.now()))
  const rows: Array<DepositRow> = []
  for (let i = 0; i < stamps.length; i++) {
    const previous = rows[i - 1]
    const previousNetwork = previous && networks.find((n) => n.coin === previous.coin && n.network === previous.network)
    // Several outputs of one transaction only on networks with random addresses, so identities stay unique.
    const sameTransaction = previousNetwork !== undefined && !previousNetwork.memo && next() < 0.02
    const net = sameTransaction ? previousNetwork : i < networks.length ? networks[i]! : Prng.pick(next, networks)
    const status = i < 12 ? i + 1 : settledStatus(next)
    const settled = status === 5 || status === 12 || status === 9
    const memo = net.memo ? String(Prng.int(next, 100_000, 999_999_999)) : null
    const base = net.address(next)
    rows.push({
      amount: amount(next, net.decimals, net.maxWhole),
      coin: net.coin,
      network: net.network,
      status,
      address: memo === null ? base : `${base}:${memo}`,
      addressTag: memo,
      // The index in the id keeps every identity unique whatever the generator draws.
      txId: sameTransaction
        ? previous!.txId
        : (net.address === evm ? "0x" : "") + Prng.text(next, hex, 52) + i.toString(16).padStart(12, "0"),
      unlockConfirm: String(net.unlockConfirm),
      confirmTimes: String(settled ? net.unlockConfirm : Prng.int(next, 0, net.unlockConfirm)),
      insertTime: stamps[i]!,
      memo
    })
  }
  return rows
}

/**
 * Inserts `subAccounts(options)`, `transfers(options)` and `deposits(options)` into a store, in
 * batches inside transactions, with one `end` for all three.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const counts = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const store = yield* Store.Store
 *     yield* Seed.seedStore(store, { seed: 7, transfers: 2000, deposits: 300 })
 *     return yield* store.counts
 *   }).pipe(Effect.provide(Store.layerSqlite(":memory:")))
 * )
 * assert.deepStrictEqual(counts, { transfers: 2000, deposits: 300 })
 * ```
 *
 * @since 0.1.0
 * @category seeding
 */
export const seedStore = (store: Store.Service, options: SeedOptions): Effect.Effect<void> =>
  Effect.gen(function*() {
    // Pin `end` once so the sub-accounts, transfers and deposits share the same "now".
    const pinned = { ...options, end: options.end ?? Date.now() }
    yield* store.insertSubAccounts(subAccounts(pinned))
    yield* store.insertTransfers(transfers(pinned))
    yield* store.insertDeposits(deposits(pinned))
  })

/**
 * Seeds the `Store` in context, as `seedStore` does.
 *
 * @example
 * ```ts
 * import { Seed, Store } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const fromMaster = await Effect.runPromise(
 *   Seed.seed({ seed: 42, transfers: 1000, deposits: 0, subAccounts: 5 }).pipe(
 *     Effect.zipRight(Effect.flatMap(Store.Store, (store) => store.allTransfers({ fromAccount: null }))),
 *     Effect.provide(Store.layerSqlite(":memory:"))
 *   )
 * )
 * assert.ok(fromMaster.length > 0 && fromMaster.every((t) => t.fromAccount === null))
 * ```
 *
 * @since 0.1.0
 * @category seeding
 */
export const seed = (options: SeedOptions): Effect.Effect<void, never, Store.Store> =>
  Effect.flatMap(Store.Store, (store) => seedStore(store, options))
