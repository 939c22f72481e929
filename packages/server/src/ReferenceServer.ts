/**
 * The reference service: both history endpoints, the broker's sub-account list, `/api/v3/time` and
 * `/api/v3/ping` over HTTP, with API keys, signature and timestamp checks, a per-key rate limit and
 * fault injection, reading the SQLite store. Its layer listens while its scope is open.
 *
 * @since 0.1.0
 */
import { Endpoint } from "@broker-history/domain"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Runtime from "effect/Runtime"
import type { ApiKey } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import type { FaultOptions } from "./Faults.js"
import * as Faults from "./Faults.js"
import * as Accounts from "./internal/Accounts.js"
import * as App from "./internal/http/App.js"
import * as Listener from "./internal/http/Listener.js"
import * as Routes from "./internal/http/Routes.js"
import * as Limit from "./internal/limit/RateLimit.js"
import * as Settlement from "./internal/PendingSettlement.js"
import * as HistoryQuery from "./internal/request/HistoryQuery.js"
import * as Seed from "./Seed.js"
import * as Store from "./Store.js"

/**
 * How to run the server; every field is optional:
 * - `host` `"127.0.0.1"`, `port` `0` (ephemeral), `database` `":memory:"` (or a SQLite file path);
 * - `keys`: the accepted API keys (default `[ApiKeys.demo]`);
 * - `seed`: seed the database at start when it holds no records and no sub-accounts (default: start
 *   empty), with the server's futures spelling;
 * - `futuresAccountType`: how the service spells the futures account type, `FUTURES` (default) or
 *   `FUTURE`: the seed's records carry it and the transfer endpoint accepts `SPOT` and it, nothing else;
 * - `rateLimit`: per API key, counted by arrival time (`RateLimit`; default 500 per 10 s, in any
 *   sliding window; `shape: "fixed"` counts per window aligned on the epoch, `"tokenBucket"` takes a
 *   token from a bucket of `limit` refilled over the window);
 * - `maxWindow`: longest `endTime - startTime` (`MaxWindow`; default transfers unlimited, deposits
 *   10 days);
 * - `faults`: fault injection (default off);
 * - `logRequests`: one log line per request: method, path (never the query string), status, duration
 *   (from the request's arrival to its answer);
 * - `masterAccount`: the name answered for the master account (default `defaultMasterAccount`);
 * - `pendingSettlement`: pending transfers settle `after` their time, as `SUCCESS` or, for a
 *   `failedShare` of them, `FAILED` (`PendingSettlement`; default: they stay pending).
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const options: ReferenceServer.Options = { seed: { seed: 42, transfers: 200, deposits: 50, subAccounts: 3 } }
 * const { counts, subAccounts } = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     const listed = yield* server.store.allSubAccounts()
 *     return { counts: yield* server.store.counts, subAccounts: listed.map((s) => s.name) }
 *   }).pipe(Effect.provide(ReferenceServer.layer(options)))
 * )
 * assert.deepStrictEqual(counts, { transfers: 200, deposits: 50 })
 * assert.deepStrictEqual(subAccounts, ["sub001@broker.test", "sub002@broker.test", "sub003@broker.test"])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly database?: string | undefined
  readonly keys?: ReadonlyArray<ApiKey> | undefined
  readonly seed?: Omit<Seed.SeedOptions, "futuresAccountType"> | undefined
  /** @since 0.2.0 */
  readonly futuresAccountType?: FuturesAccountType | undefined
  readonly rateLimit?: RateLimit | undefined
  readonly maxWindow?: MaxWindow | undefined
  readonly faults?: FaultOptions | undefined
  readonly logRequests?: boolean | undefined
  readonly masterAccount?: string | undefined
  /** @since 0.2.0 */
  readonly pendingSettlement?: PendingSettlement | undefined
}

/**
 * The per-API-key request budget: `limit` requests per `window`, counted by arrival time as `shape`
 * says (default `sliding`). A refused request is answered 429 with `Retry-After` and does not use the
 * budget; a request checked after later ones counts where it arrived (docs/wire-contract.md,
 * "Ordering, windows and limits").
 *
 * @example
 * ```ts
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Endpoint, QueryString } from "@broker-history/domain"
 * import * as NodeSignature from "@broker-history/domain/NodeSignature"
 * import { Effect } from "effect"
 *
 * // One token, back after 10 seconds: the second request at once is refused until then.
 * const rateLimit: ReferenceServer.RateLimit = { limit: 1, window: "10 seconds", shape: "tokenBucket" }
 * const answers = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     const deposits = Effect.promise(() => {
 *       const query = QueryString.make([["timestamp", String(Date.now())]])
 *       const signed = QueryString.withSignature(query, NodeSignature.hmacSha256Hex(ApiKeys.demo.secretKey, query))
 *       return fetch(`${server.baseUrl}${Endpoint.depositHistory.path}?${signed}`, {
 *         headers: { [Endpoint.apiKeyHeader]: ApiKeys.demo.apiKey }
 *       }).then((response) => [response.status, response.headers.get("retry-after")])
 *     })
 *     return [yield* deposits, yield* deposits]
 *   }).pipe(Effect.provide(ReferenceServer.layer({ rateLimit })))
 * )
 * assert.deepStrictEqual(answers, [[200, null], [429, "10"]])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface RateLimit {
  readonly limit: number
  readonly window: Duration.DurationInput
  /** How requests are counted against `limit` (default `sliding`). */
  readonly shape?: RateLimitShape | undefined
}

/**
 * How a rate limit counts: `sliding` (at most `limit` in any window), `fixed` (at most `limit` per
 * window aligned on the epoch: up to twice that may pass around a boundary) or `tokenBucket` (a burst
 * of `limit`, then `limit` per window, refilled continuously).
 *
 * @example
 * ```ts
 * import type { ReferenceServer } from "@broker-history/server"
 *
 * const shape: ReferenceServer.RateLimitShape = "fixed"
 * const options: ReferenceServer.Options = { rateLimit: { limit: 100, window: "1 minute", shape } }
 * assert.strictEqual(options.rateLimit?.shape, "fixed")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type RateLimitShape = "sliding" | "fixed" | "tokenBucket"

/**
 * The longest `endTime - startTime` each history endpoint accepts; `undefined` means no maximum. A
 * longer window is refused with 33333, and with a maximum a transfer query without `startTime` reads
 * that long back from its `endTime` (or now).
 *
 * @example
 * ```ts
 * import type { ReferenceServer } from "@broker-history/server"
 *
 * // Like an exchange that caps a transfer query at 30 days (deposits keep their default, 10 days):
 * const maxWindow: ReferenceServer.MaxWindow = { transfers: "30 days" }
 * const options: ReferenceServer.Options = { maxWindow }
 * assert.strictEqual(options.maxWindow?.deposits, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface MaxWindow {
  readonly transfers?: Duration.DurationInput | undefined
  readonly deposits?: Duration.DurationInput | undefined
}

/**
 * How the service spells the futures account type: `FUTURES` (the exchange's parameter table, the
 * default) or `FUTURE` (its broker example). The seed writes its records with it, and the transfer
 * endpoint accepts `SPOT` and it, nothing else.
 *
 * @example
 * ```ts
 * import { ReferenceServer, Seed } from "@broker-history/server"
 *
 * const futures: ReferenceServer.FuturesAccountType = "FUTURE"
 * const rows = Seed.transfers({ seed: 1, transfers: 100, deposits: 0, futuresAccountType: futures })
 * assert.ok(rows.some((t) => t.toAccountType === "FUTURE") && rows.every((t) => t.toAccountType !== "FUTURES"))
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type FuturesAccountType = "FUTURES" | "FUTURE"

/**
 * How pending transfers settle, as on the exchange, where a transfer's status moves on: a stored
 * `PENDING` transfer whose time is `after` (a duration, `0` for at once) or longer ago is answered,
 * and stored, as `FAILED` for a `failedShare` of them (0 to 1, default 0; drawn from the `tranId`,
 * so a restarted service settles each the same way), else `SUCCESS`. Only the status changes. The
 * transfer endpoint settles what is due as of each request's arrival, before reading its page.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect, Layer } from "effect"
 *
 * const pendingSettlement: ReferenceServer.PendingSettlement = { after: "1 minute", failedShare: 2 }
 * const error = await Effect.runPromise(
 *   Effect.flip(Layer.build(ReferenceServer.layer({ pendingSettlement }))).pipe(Effect.scoped)
 * )
 * assert.strictEqual(error.reason, "Options")
 * assert.strictEqual(error.message, "invalid options: pendingSettlement.failedShare must be a probability from 0 to 1, got 2")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface PendingSettlement {
  readonly after: Duration.DurationInput
  readonly failedShare?: number | undefined
}

/**
 * The name the service answers for the master account unless `Options.masterAccount` says otherwise;
 * the store keeps the master account as `null`.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 *
 * assert.strictEqual(ReferenceServer.defaultMasterAccount, "master@broker.test")
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const defaultMasterAccount: string = Accounts.masterAccount

/**
 * What the server has answered: requests received, answers by HTTP status (injected 500/429 and
 * truncated answers included), and injected faults by kind.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const stats: ReferenceServer.Stats = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     for (const path of ["/api/v3/ping", "/api/v3/time", "/api/v3/nowhere"]) {
 *       const response = yield* Effect.promise(() => fetch(server.baseUrl + path))
 *       yield* Effect.promise(() => response.text())
 *     }
 *     return yield* server.stats
 *   }).pipe(Effect.provide(ReferenceServer.layer()))
 * )
 * assert.deepStrictEqual(stats, { requests: 3, byStatus: { 200: 2, 404: 1 }, faults: {} })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  readonly requests: number
  readonly byStatus: Record<number, number>
  readonly faults: Record<string, number>
}

/**
 * A running server: its address, the store it reads (change the history and the sub-accounts while
 * clients read them), its fault switches and its counters.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const server: ReferenceServer.Service = yield* ReferenceServer.ReferenceServer
 *   assert.match(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
 *   yield* server.setFaults({ serverError: 1 })
 *   const response = yield* Effect.promise(() => fetch(`${server.baseUrl}/api/v3/ping`))
 *   assert.deepStrictEqual([response.status, yield* Effect.promise(() => response.json())], [
 *     500,
 *     { code: 500, msg: "Internal error" }
 *   ])
 *   return yield* server.stats
 * })
 * const stats = await Effect.runPromise(program.pipe(Effect.provide(ReferenceServer.layer())))
 * assert.deepStrictEqual(stats.faults, { serverError: 1 })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** `http://host:port`, without a trailing slash. */
  readonly baseUrl: string
  readonly port: number
  /**
   * The store the server reads: insert or update records while clients read. The sub-accounts
   * `GET /api/v3/broker/sub-account/list` answers are `store.allSubAccounts()`.
   */
  readonly store: Store.Service
  /**
   * Creates a sub-account while the server runs (`note` default `""`, `createdAt` default now, in
   * Unix ms); the list answers it from then on, and transfers naming it can be inserted through the
   * store. Fails with `SubAccountRefused` for a name already taken, an empty or overlong name or
   * note, or a `createdAt` that is not a time.
   */
  readonly createSubAccount: (
    subAccount: NewSubAccount
  ) => Effect.Effect<Store.SubAccountRow, SubAccountRefused>
  /** Replaces the fault settings (and restarts their generator from the new seed). */
  readonly setFaults: (faults: FaultOptions) => Effect.Effect<void>
  /** A snapshot of the counters. */
  readonly stats: Effect.Effect<Stats>
}

/**
 * A sub-account to create while the server runs: its `name`, its `note` (default `""`) and its
 * creation time `createdAt` (Unix ms, default now).
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const desk: ReferenceServer.NewSubAccount = { name: "desk@broker.test", note: "trading desk" }
 * const listed = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     const created = yield* server.createSubAccount(desk)
 *     assert.ok(created.createdAt <= Date.now())
 *     return yield* server.store.allSubAccounts()
 *   }).pipe(Effect.provide(ReferenceServer.layer()))
 * )
 * assert.deepStrictEqual(listed.map((s) => [s.name, s.note]), [["desk@broker.test", "trading desk"]])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface NewSubAccount {
  readonly name: string
  readonly note?: string | undefined
  readonly createdAt?: number | undefined
}

/**
 * The longest sub-account name and note `createSubAccount` accepts, in characters.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 *
 * assert.deepStrictEqual(ReferenceServer.subAccountTextLimits, { name: 64, note: 200 })
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const subAccountTextLimits = { name: 64, note: 200 } as const

/**
 * `createSubAccount` refused a sub-account: its name is taken (`Taken`), its name or note is empty,
 * too long or holds control characters (`Name`, `Note`), or its `createdAt` is not a Unix ms time
 * (`CreatedAt`); the message says which and what to give instead.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const error = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const server = yield* ReferenceServer.ReferenceServer
 *     yield* server.createSubAccount({ name: "desk@broker.test", createdAt: 1700000000000 })
 *     return yield* Effect.flip(server.createSubAccount({ name: "desk@broker.test" }))
 *   }).pipe(Effect.provide(ReferenceServer.layer()))
 * )
 * assert.strictEqual(error.reason, "Taken")
 * assert.strictEqual(
 *   error.message,
 *   "sub-account desk@broker.test exists already (created at 2023-11-14T22:13:20.000Z): choose another name"
 * )
 * ```
 *
 * @since 0.2.0
 * @category errors
 */
export class SubAccountRefused extends Data.TaggedError("SubAccountRefused")<{
  readonly reason: "Taken" | "Name" | "Note" | "CreatedAt"
  readonly name: string
  /** The existing sub-account's creation time (`Taken`), or the refused `createdAt` (`CreatedAt`). */
  readonly createdAt?: number | undefined
}> {
  override get message(): string {
    const shown = JSON.stringify(this.name.length > 80 ? `${this.name.slice(0, 80)}…` : this.name)
    switch (this.reason) {
      case "Taken":
        return `sub-account ${this.name} exists already (created at ${
          new Date(this.createdAt ?? 0).toISOString()
        }): choose another name`
      case "Name":
        return `a sub-account name must be 1 to ${subAccountTextLimits.name} characters without control ` +
          `characters or surrounding spaces (a name the transfer queries can send), got ${shown}`
      case "Note":
        return `the note of sub-account ${shown} must be at most ${subAccountTextLimits.note} characters ` +
          "without control characters"
      case "CreatedAt":
        return `createdAt of sub-account ${shown} must be a Unix ms time (an integer from 0), got ${this.createdAt}`
    }
  }
}

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/

// The checks of `createSubAccount`, value in, value out: the row to store, or why not.
const newSubAccountRow = (
  input: NewSubAccount,
  now: number
): Store.SubAccountRow | SubAccountRefused => {
  const { name } = input
  if (
    name.length === 0 || name.length > subAccountTextLimits.name || controlCharacters.test(name) || name.trim() !== name
  ) {
    return new SubAccountRefused({ reason: "Name", name })
  }
  const note = input.note ?? ""
  if (note.length > subAccountTextLimits.note || controlCharacters.test(note)) {
    return new SubAccountRefused({ reason: "Note", name })
  }
  const createdAt = input.createdAt ?? now
  if (!Number.isSafeInteger(createdAt) || createdAt < 0) {
    return new SubAccountRefused({ reason: "CreatedAt", name, createdAt })
  }
  return { name, note, createdAt }
}

/**
 * The running reference server, provided by `layer`.
 *
 * @example
 * ```ts
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Endpoint, QueryString } from "@broker-history/domain"
 * import * as NodeSignature from "@broker-history/domain/NodeSignature"
 * import { Effect } from "effect"
 *
 * // A signed request with the demo key, as a client sends it: the master account's own transfers.
 * const transfers = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const query = QueryString.make([["fromAccountType", "SPOT"], ["toAccountType", "SPOT"], [
 *     "timestamp",
 *     String(Date.now())
 *   ]])
 *   const signed = QueryString.withSignature(query, NodeSignature.hmacSha256Hex(ApiKeys.demo.secretKey, query))
 *   const response = yield* Effect.promise(() =>
 *     fetch(`${server.baseUrl}${Endpoint.transferHistory.path}?${signed}`, {
 *       headers: { [Endpoint.apiKeyHeader]: ApiKeys.demo.apiKey }
 *     })
 *   )
 *   return yield* Effect.promise(() => response.json() as Promise<ReadonlyArray<{ readonly fromAccount: string }>>)
 * })
 * const page = await Effect.runPromise(
 *   transfers.pipe(Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 1000, deposits: 0 } })))
 * )
 * assert.ok(page.length > 0 && page.every((t) => t.fromAccount === "master@broker.test"))
 * ```
 *
 * @since 0.1.0
 * @category services
 */
export class ReferenceServer
  extends Context.Tag("@broker-history/server/ReferenceServer")<ReferenceServer, Service>()
{}

/**
 * The server could not start: an option is invalid (`Options`: the message names it and what it must
 * be), the database could not be opened or migrated, or the address could not be bound; the message
 * names the cause (the port is in use, the address is not this machine's, …) and what to do about it.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect, Layer } from "effect"
 *
 * // A second server on the port of the first:
 * const message = await Effect.runPromise(
 *   Effect.gen(function*() {
 *     const first = yield* ReferenceServer.ReferenceServer
 *     const error = yield* Effect.flip(Layer.build(ReferenceServer.layer({ port: first.port })))
 *     assert.strictEqual(error.reason, "Listen")
 *     return error.message
 *   }).pipe(Effect.provide(ReferenceServer.layer()), Effect.scoped)
 * )
 * assert.match(message, /^cannot listen on 127\.0\.0\.1:\d+: the address is already in use \(EADDRINUSE\)/)
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class StartError extends Data.TaggedError("ReferenceServerStartError")<{
  readonly reason: "Database" | "Listen" | "Options"
  readonly cause: unknown
  readonly address?: string | undefined
}> {
  override get message(): string {
    if (this.reason === "Options") return `invalid options: ${String(this.cause)}`
    if (this.reason === "Database") return `cannot open the database: ${innermostMessage(this.cause)}`
    const where = this.address === undefined ? "" : ` on ${this.address}`
    return `cannot listen${where}: ${listenProblem(this.cause)}`
  }
}

// The platform wraps Node's error (ServeError, whose own message is empty): the detail sits at the
// end of the `cause` chain.
const causeChain = (cause: unknown): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  for (let at = cause; at !== undefined && at !== null && chain.length < 10; at = (at as { cause?: unknown }).cause) {
    chain.push(at)
    if (typeof at !== "object") break
  }
  return chain
}

/** The last non-empty message along the `cause` chain, else the cause as text. */
const innermostMessage = (cause: unknown): string => {
  const messages = causeChain(cause).map((c) => c instanceof Error ? c.message : typeof c === "object" ? "" : String(c))
    .filter((m) => m !== "")
  return messages.at(-1) ?? String(cause)
}

/** Why a socket could not listen (the usual Node error codes in words), and which flag to change. */
const listenProblem = (cause: unknown): string => {
  const code = causeChain(cause).map((c) => (c as { code?: unknown } | null)?.code).find((c) => typeof c === "string")
  switch (code) {
    case "EADDRINUSE":
      return "the address is already in use (EADDRINUSE); choose another --port or stop the process using it"
    case "EACCES":
      return "permission denied (EACCES); ports below 1024 need privileges: choose another --port"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's (EADDRNOTAVAIL); choose another --host, such as 127.0.0.1"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host name does not resolve (${code}); choose another --host, such as 127.0.0.1`
    default:
      return innermostMessage(cause)
  }
}

/**
 * The path of `GET /api/v3/broker/sub-account/list`, the exchange's broker endpoint that lists
 * sub-accounts: signed like the history endpoints (any key holding a history permission may call it),
 * with parameters `subAccount` (exact name), `page` (from 1) and `limit` (default 10, at most 200),
 * answering `{"code":"0","message":"","data":[{"subAccount":"sub001@broker.test","note":"",
 * "timestamp":"<ms>"}, …]}` by creation time, then name.
 *
 * @example
 * ```ts
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Endpoint, QueryString } from "@broker-history/domain"
 * import * as NodeSignature from "@broker-history/domain/NodeSignature"
 * import { Effect } from "effect"
 *
 * const secondPage = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const query = QueryString.make([["page", "2"], ["limit", "2"], ["timestamp", String(Date.now())]])
 *   const signed = QueryString.withSignature(query, NodeSignature.hmacSha256Hex(ApiKeys.demo.secretKey, query))
 *   const response = yield* Effect.promise(() =>
 *     fetch(`${server.baseUrl}${ReferenceServer.subAccountListPath}?${signed}`, {
 *       headers: { [Endpoint.apiKeyHeader]: ApiKeys.demo.apiKey }
 *     })
 *   )
 *   return yield* Effect.promise(() =>
 *     response.json() as Promise<{ readonly data: ReadonlyArray<{ readonly subAccount: string; readonly timestamp: string }> }>
 *   )
 * })
 * const end = 1700000000000
 * const { data } = await Effect.runPromise(
 *   secondPage.pipe(Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 100, deposits: 0, end, years: 1 } })))
 * )
 * assert.deepStrictEqual(data.map((s) => s.subAccount), ["sub003@broker.test", "sub004@broker.test"])
 * assert.deepStrictEqual(data.map((s) => s.timestamp), [String(end - 365 * 86_400_000), String(end - 365 * 86_400_000)])
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const subAccountListPath: string = Endpoint.subAccountList.path

/** The keys a server accepts: the given ones, or the published demo key. */
const acceptedKeys = (options: Options): ReadonlyArray<ApiKey> => options.keys ?? [ApiKeys.demo]

/**
 * The history a server starts with: the accepted keys stored, and the seed (with the server's futures
 * spelling) written into an empty database (no transfers, deposits or sub-accounts). A history kept
 * in a database file keeps its sub-accounts; one stored without them (written before they were
 * stored, or by inserting transfers alone) gets one per account its transfers name, created at the
 * earliest transfer naming it.
 */
const prepareHistory = (store: Store.Service, options: Options): Effect.Effect<void> =>
  Effect.gen(function*() {
    yield* store.putKeys(acceptedKeys(options))
    const counts = yield* store.counts
    const hasSubAccounts = (yield* store.subAccountPage({}, { page: 1, limit: 1 })).length > 0
    // A database file that already holds a history keeps it: seeding again would duplicate ids.
    if (options.seed !== undefined && counts.transfers === 0 && counts.deposits === 0 && !hasSubAccounts) {
      return yield* Seed.seedStore(store, { ...options.seed, futuresAccountType: options.futuresAccountType })
    }
    if (!hasSubAccounts && counts.transfers > 0) {
      yield* store.insertSubAccounts(yield* store.subAccountsOfTransfers)
    }
  })

const make = (options: Options) =>
  Effect.gen(function*() {
    const settlementProblem = options.pendingSettlement === undefined
      ? undefined
      : Settlement.problem(options.pendingSettlement)
    if (settlementProblem !== undefined) {
      return yield* Effect.fail(new StartError({ reason: "Options", cause: settlementProblem }))
    }
    const store = yield* Store.Store
    yield* prepareHistory(store, options)
    const arrivals = Listener.makeArrivals()
    const counters = App.makeCounters()
    const injector = Faults.makeInjector(options.faults ?? {})
    const answer = yield* Routes.make({
      store,
      limiter: Limit.make(options.rateLimit ?? Limit.defaults),
      maxWindow: {
        transfers: options.maxWindow?.transfers,
        deposits: options.maxWindow?.deposits ?? HistoryQuery.defaultMaxWindow.deposits
      },
      masterAccount: options.masterAccount ?? Accounts.masterAccount,
      accountTypes: Accounts.accepted(options.futuresAccountType),
      pendingSettlement: options.pendingSettlement,
      arrivedAt: (request) => arrivals.of(request).at
    })
    const logRequests = options.logRequests === true
    const app = App.make(answer, { injector, counters, arrivals, logRequests })

    const runtime = yield* Effect.runtime<never>()
    const listenHost = options.host ?? "127.0.0.1"
    const listenPort = options.port ?? 0
    const address = yield* Listener.serve({
      host: listenHost,
      port: listenPort,
      app,
      arrivals,
      onConnect: (request) => {
        counters.request()
        counters.status(405)
        if (logRequests) {
          Runtime.runFork(runtime)(Effect.logInfo(App.requestLine("CONNECT", request.url ?? "", 405, 0)))
        }
      }
    }).pipe(Effect.mapError((cause) =>
      new StartError({
        reason: "Listen",
        cause,
        address: `${listenHost.includes(":") ? `[${listenHost}]` : listenHost}:${listenPort}`
      })
    ))
    if (address._tag !== "TcpAddress") return yield* Effect.die("the reference server listens on TCP only")
    const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname

    return ReferenceServer.of({
      baseUrl: `http://${host}:${address.port}`,
      port: address.port,
      store,
      createSubAccount: (input) =>
        Effect.gen(function*() {
          const row = newSubAccountRow(input, Date.now())
          if (row instanceof SubAccountRefused) return yield* Effect.fail(row)
          const [taken] = yield* store.allSubAccounts({ name: row.name })
          if (taken !== undefined) {
            return yield* Effect.fail(
              new SubAccountRefused({ reason: "Taken", name: row.name, createdAt: taken.createdAt })
            )
          }
          yield* store.insertSubAccounts([row])
          return row
        }),
      setFaults: (faults) => Effect.sync(() => injector.set(faults)),
      stats: Effect.sync(counters.snapshot)
    })
  })

/**
 * Starts the server (database, keys, optional seed, listening socket) for the lifetime of the layer's
 * scope; closing the scope ends every open connection, hung ones included.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect } from "effect"
 *
 * const serverTime = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   const response = yield* Effect.promise(() => fetch(`${server.baseUrl}/api/v3/time`))
 *   return yield* Effect.promise(() => response.json() as Promise<{ readonly serverTime: number }>)
 * })
 * const before = Date.now()
 * const { serverTime: time } = await Effect.runPromise(serverTime.pipe(Effect.provide(ReferenceServer.layer())))
 * assert.ok(time >= before && time <= Date.now())
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<ReferenceServer, StartError> =>
  Layer.scoped(ReferenceServer, make(options)).pipe(
    Layer.provide(
      Store.layerSqlite(options.database ?? ":memory:").pipe(
        // better-sqlite3 throws when it cannot open the file: a defect of the layer, reported as a start error.
        Layer.catchAllCause((cause) => Layer.fail(new StartError({ reason: "Database", cause: Cause.squash(cause) })))
      )
    )
  )

/**
 * The service's logger: one plain line per entry (`time LEVEL message`) on stderr, meant to be read
 * and grepped by people; `main.ts` and the CLI's `serve` log with it.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Effect, Logger } from "effect"
 *
 * const written: Array<string> = []
 * const stderrWrite = process.stderr.write
 * process.stderr.write = ((line: string) => written.push(line) > 0) as typeof process.stderr.write
 * try {
 *   Effect.runSync(
 *     Effect.logInfo("GET /api/v3/ping 200 1ms").pipe(
 *       Effect.provide(Logger.replace(Logger.defaultLogger, ReferenceServer.lineLogger))
 *     )
 *   )
 * } finally {
 *   process.stderr.write = stderrWrite
 * }
 * assert.match(written[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO GET \/api\/v3\/ping 200 1ms\n$/)
 * ```
 *
 * @since 0.1.0
 * @category logging
 */
export const lineLogger: Logger.Logger<unknown, void> = Logger.make(({ date, logLevel, message }) => {
  const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
  process.stderr.write(`${date.toISOString()} ${logLevel.label} ${text}\n`)
})

/** A few names in full, more as the first and the last: the log line stays one readable line. */
const compactList = (names: ReadonlyArray<string>): string =>
  names.length === 0
    ? "none"
    : `${names.length <= 3 ? names.join(", ") : `${names[0]} … ${names[names.length - 1]}`} (${names.length})`

/**
 * Starts the service, logs one line (address, seeded counts, API keys, the sub-accounts it lists) and
 * serves until interrupted: the body of `main.ts` and of the CLI's `serve` command.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@broker-history/server"
 * import { Deferred, Effect, Fiber, Logger } from "effect"
 *
 * const ping = Effect.gen(function*() {
 *   const listening = yield* Deferred.make<string>()
 *   const logger = Logger.make(({ message }) => Deferred.unsafeDone(listening, Effect.succeed(String(message))))
 *   const serving = yield* Effect.fork(
 *     ReferenceServer.serveForever({ port: 0 }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
 *   )
 *   const line = yield* Deferred.await(listening) // "listening on http://127.0.0.1:<port> (0 transfers, …"
 *   const response = yield* Effect.promise(() => fetch(`${line.split(" ")[2]}/api/v3/ping`))
 *   const body = yield* Effect.promise(() => response.text())
 *   yield* Fiber.interrupt(serving)
 *   return body
 * })
 * assert.strictEqual(await Effect.runPromise(ping), "{}")
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const serveForever = (options: Options = {}): Effect.Effect<never, StartError> =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer
    const counts = yield* server.store.counts
    yield* Effect.logInfo(
      `listening on ${server.baseUrl} (${counts.transfers} transfers, ${counts.deposits} deposits; API keys: ${
        acceptedKeys(options).map((k) => k.apiKey).join(", ")
      }; sub-accounts: ${compactList((yield* server.store.allSubAccounts()).map((s) => s.name))})`
    )
    return yield* Effect.never
  }).pipe(Effect.provide(layer(options)))
