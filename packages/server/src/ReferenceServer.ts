/**
 * The reference service: both history endpoints, the broker's sub-account list, `/api/v3/time` and
 * `/api/v3/ping` over HTTP, with API keys, signature and timestamp checks, a per-key rate limit and
 * fault injection, reading the SQLite store. Its layer listens while its scope is open.
 *
 * @since 0.1.0
 */
import { Endpoint, ErrorBody } from "@broker-history/domain"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Accounts from "./Accounts.js"
import type { ApiKey } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import * as Authentication from "./Authentication.js"
import type { FaultOptions } from "./Faults.js"
import * as Faults from "./Faults.js"
import * as HistoryQuery from "./HistoryQuery.js"
import * as RateLimit from "./RateLimit.js"
import * as RawQuery from "./RawQuery.js"
import * as Seed from "./Seed.js"
import * as Store from "./Store.js"
import * as WireFormat from "./WireFormat.js"

/**
 * How to run the server; every field is optional:
 * - `host` `"127.0.0.1"`, `port` `0` (ephemeral), `database` `":memory:"` (or a SQLite file path);
 * - `keys`: the accepted API keys (default `[ApiKeys.demo]`);
 * - `seed`: seed the database at start when it holds no records (default: start empty);
 * - `rateLimit`: per API key, counted by arrival time (default 500 per 10 s);
 * - `maxWindow`: longest `endTime - startTime` (default transfers unlimited, deposits 10 days);
 * - `faults`: fault injection (default off);
 * - `logRequests`: one log line per request: method, path (never the query string), status, duration
 *   (from the request's arrival to its answer);
 * - `masterAccount`: the name answered for the master account (default `Accounts.masterAccount`).
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
 *     return { counts: yield* server.store.counts, subAccounts: server.subAccounts }
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
  readonly seed?: Seed.SeedOptions | undefined
  readonly rateLimit?: RateLimit.Settings | undefined
  readonly maxWindow?: HistoryQuery.MaxWindow | undefined
  readonly faults?: FaultOptions | undefined
  readonly logRequests?: boolean | undefined
  readonly masterAccount?: string | undefined
}

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
 * A running server: its address, the store it reads (change the history while clients read it), the
 * sub-accounts it lists, its fault switches and its counters.
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
  /** The store the server reads: insert or update records while clients read. */
  readonly store: Store.Service
  /**
   * The sub-accounts `GET /api/v3/broker/sub-account/list` answers, by name: the seed's names when
   * this start seeded the history, otherwise the sub-accounts the stored transfers name.
   */
  readonly subAccounts: ReadonlyArray<string>
  /** Replaces the fault settings (and restarts their generator from the new seed). */
  readonly setFaults: (faults: FaultOptions) => Effect.Effect<void>
  /** A snapshot of the counters. */
  readonly stats: Effect.Effect<Stats>
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
 * The server could not start: the database could not be opened or migrated, or the address could not
 * be bound; the message names the cause (the port is in use, the address is not this machine's, …) and
 * what to do about it.
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
  readonly reason: "Database" | "Listen"
  readonly cause: unknown
  readonly address?: string | undefined
}> {
  override get message(): string {
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

const innermostMessage = (cause: unknown): string => {
  const messages = causeChain(cause).map((c) => c instanceof Error ? c.message : typeof c === "object" ? "" : String(c))
    .filter((m) => m !== "")
  return messages.at(-1) ?? String(cause)
}

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
 * sub-accounts by name: signed like the history endpoints (any key holding a history permission may
 * call it), with parameters `subAccount` (exact name), `page` (from 1) and `limit` (default 10, at most
 * 200), answering `[{"subAccount": "sub001@broker.test", "note": "", "timestamp": <ms>}, …]`.
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
 *   return yield* Effect.promise(() => response.json() as Promise<ReadonlyArray<{ readonly subAccount: string }>>)
 * })
 * const page = await Effect.runPromise(
 *   secondPage.pipe(Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 100, deposits: 0 } })))
 * )
 * assert.deepStrictEqual(page.map((s) => s.subAccount), ["sub003@broker.test", "sub004@broker.test"])
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const subAccountListPath = "/api/v3/broker/sub-account/list"

const subAccountList = { defaultLimit: 10, maxLimit: 200 } as const
const positiveInteger = /^[1-9][0-9]{0,8}$/

// The list's parameters, checked as the history endpoints check theirs: decodable, known, not
// repeated, then each rule (33333 for any of them).
const readSubAccountQuery = (
  params: ReadonlyArray<RawQuery.Param>
): Either.Either<HistoryQuery.Read<{ readonly subAccount: string | undefined }>, ErrorBody.ErrorRow> => {
  const record: Record<string, string> = Object.create(null)
  for (const p of params) {
    if (p.name === undefined || p.value === undefined) {
      return Either.left(
        ErrorBody.Errors.invalidParameter(`${RawQuery.label(p.name ?? p.rawName)} is not valid percent-encoded UTF-8`)
      )
    }
    if (!["subAccount", "page", "limit"].includes(p.name)) {
      return Either.left(
        ErrorBody.Errors.invalidParameter(`${RawQuery.label(p.name)} is not a parameter of this endpoint`)
      )
    }
    if (p.name in record) return Either.left(ErrorBody.Errors.invalidParameter(`${p.name} is repeated`))
    record[p.name] = p.value
  }
  const page = record.page === undefined ? 1 : positiveInteger.test(record.page) ? Number(record.page) : NaN
  if (Number.isNaN(page)) return Either.left(ErrorBody.Errors.invalidParameter("page must be an integer >= 1"))
  const limit = record.limit === undefined
    ? subAccountList.defaultLimit
    : positiveInteger.test(record.limit)
    ? Number(record.limit)
    : NaN
  if (!(limit <= subAccountList.maxLimit)) {
    return Either.left(
      ErrorBody.Errors.invalidParameter(`limit must be an integer from 1 to ${subAccountList.maxLimit}`)
    )
  }
  const subAccount = record.subAccount === undefined || record.subAccount === "" ? undefined : record.subAccount
  return Either.right({ filter: { subAccount }, page: { page, limit }, matchesNothing: false })
}

// A few names in full, more as the first and the last: the log line stays one readable line.
const compactList = (names: ReadonlyArray<string>): string =>
  names.length === 0
    ? "none"
    : `${names.length <= 3 ? names.join(", ") : `${names[0]} … ${names[names.length - 1]}`} (${names.length})`

const jsonHeaders = { contentType: "application/json" } as const

const failure = (row: ErrorBody.ErrorRow, headers?: Record<string, string>) =>
  HttpServerResponse.text(JSON.stringify({ code: row.code, msg: row.msg }), {
    ...jsonHeaders,
    status: row.status,
    ...(headers === undefined ? {} : { headers })
  })

const success = (body: unknown) => HttpServerResponse.text(JSON.stringify(body), { ...jsonHeaders, status: 200 })

// Paths are logged, never query strings; control and non-ASCII characters are escaped so a hostile
// path cannot forge log lines.
const loggablePath = (url: string): string => {
  const path = RawQuery.pathOfUrl(url)
  const shown = path.length > 200 ? path.slice(0, 200) + "..." : path
  return shown.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))
}

// An answer written straight to a socket that Node hands over without a request (a request it
// cannot parse, a CONNECT): a `{code,msg}` body, then the connection is closed.
const rawAnswer = (row: ErrorBody.ErrorRow, reason: string, headers: string = "") => {
  const body = JSON.stringify({ code: row.code, msg: row.msg })
  return `HTTP/1.1 ${row.status} ${reason}\r\n${headers}Content-Type: application/json\r\nContent-Length: ${
    Buffer.byteLength(body)
  }\r\nConnection: close\r\n\r\n${body}`
}

const malformedRequest = rawAnswer(ErrorBody.Errors.invalidParameter("malformed HTTP request"), "Bad Request")

// Every route answers GET (and HEAD, its body left out); any other method on a route's path gets
// 405 with `Allow`, borrowing the HTTP status as its code as `WireFormat.notFound` does.
const allowedMethods = "GET, HEAD"
const methodNotAllowed = { status: 405, code: 405, msg: "Method not allowed: this endpoint answers GET." } as const
const connectRefused = rawAnswer(methodNotAllowed, "Method Not Allowed", `Allow: ${allowedMethods}\r\n`)

// Paths match exactly, as on the exchange: no second slash, no trailing slash, no other letter case.
const exactPaths = {
  ignoreDuplicateSlashes: false,
  ignoreTrailingSlash: false,
  caseSensitive: true
}

const getOnly = <E, R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(
    HttpServerRequest.HttpServerRequest,
    (request) =>
      request.method === "GET" || request.method === "HEAD"
        ? handler
        : Effect.succeed(failure(methodNotAllowed, { allow: allowedMethods }))
  )

/** The keys a server accepts: the given ones, or the published demo key. */
const acceptedKeys = (options: Options): ReadonlyArray<ApiKeys.ApiKey> => options.keys ?? [ApiKeys.demo]

const make = (options: Options) =>
  Effect.gen(function*() {
    const store = yield* Store.Store
    yield* store.putKeys(acceptedKeys(options))
    // A database file that already holds a history keeps it: seeding again would duplicate ids.
    let seeded = false
    if (options.seed !== undefined) {
      const counts = yield* store.counts
      if (counts.transfers === 0 && counts.deposits === 0) {
        yield* Seed.seed(options.seed)
        seeded = true
      }
    }
    // The seed draws from `Accounts.subAccountNames` (at least two); a history kept in a database file
    // is read back instead, since it may come from other seed options.
    const subAccounts = seeded
      ? Accounts.subAccountNames(Math.max(2, options.seed?.subAccounts ?? 40))
      : yield* Effect.map(store.allTransfers(), (rows) =>
        [...new Set(rows.flatMap((r) => [r.fromAccount, r.toAccount]).filter((a) => a !== null))].sort())
    // The reference service keeps no creation times: every sub-account is listed as of the start.
    const listedSince = Date.now()

    const masterAccount = options.masterAccount ?? Accounts.masterAccount
    const maxWindow: HistoryQuery.MaxWindow = {
      transfers: options.maxWindow?.transfers,
      deposits: options.maxWindow?.deposits ?? HistoryQuery.defaultMaxWindow.deposits
    }
    const limiter = RateLimit.make(options.rateLimit ?? RateLimit.defaults)
    const injector = Faults.makeInjector(options.faults ?? {})
    const counters = { requests: 0, byStatus: {} as Record<number, number>, faults: {} as Record<string, number> }
    const countStatus = (status: number) => {
      counters.byStatus[status] = (counters.byStatus[status] ?? 0) + 1
    }
    const countFault = (fault: string) => {
      counters.faults[fault] = (counters.faults[fault] ?? 0) + 1
    }

    // When each request arrived: Node's "request" event, before the handler's fiber and its key
    // lookup have begun.
    const arrivals = new WeakMap<Http.IncomingMessage, { readonly at: number; readonly clock: number }>()
    const arrivalOf = (request: HttpServerRequest.HttpServerRequest) =>
      arrivals.get(NodeHttpServerRequest.toIncomingMessage(request)) ?? { at: Date.now(), clock: performance.now() }

    const signed = <F>(
      endpoint: Endpoint.Endpoint | ((key: ApiKey) => Endpoint.Endpoint),
      read: (
        params: ReadonlyArray<RawQuery.Param>,
        now: number,
        maxWindow: HistoryQuery.MaxWindow
      ) => Either.Either<HistoryQuery.Read<F>, ErrorBody.ErrorRow>,
      fetch: (filter: F, page: Store.Page) => Effect.Effect<ReadonlyArray<unknown>>
    ) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const apiKey = request.headers[Endpoint.apiKeyHeader.toLowerCase()]
        const key = apiKey === undefined || apiKey === "" ? Option.none() : yield* store.findKey(apiKey)
        if (Option.isNone(key)) {
          return failure(ErrorBody.Errors.invalidApiKey)
        }
        // The limit, the timestamp and the time window are checked as of the request's arrival, as
        // an exchange's gateway does: the key lookup before the check does not move it.
        const now = arrivalOf(request).at
        const budget = limiter.take(key.value.apiKey, now)
        if (!budget.allowed) {
          return failure(ErrorBody.Errors.tooManyRequests, { "retry-after": String(budget.retryAfterSeconds) })
        }
        const verified = Authentication.check({
          rawQuery: RawQuery.ofUrl(request.url),
          key: key.value,
          endpoint: typeof endpoint === "function" ? endpoint(key.value) : endpoint,
          now
        })
        if (Either.isLeft(verified)) {
          return failure(verified.left)
        }
        const query = read(verified.right.params, now, maxWindow)
        if (Either.isLeft(query)) {
          return failure(query.left)
        }
        const rows = query.right.matchesNothing ? [] : yield* fetch(query.right.filter, query.right.page)
        return success(rows)
      })

    // `all`: the route's path is matched first, then `getOnly` answers 405 to other methods.
    const router = HttpRouter.empty.pipe(
      HttpRouter.all(
        Endpoint.timePath,
        getOnly(Effect.sync(() =>
          success({ serverTime: Date.now() })
        ))
      ),
      HttpRouter.all(Endpoint.pingPath, getOnly(Effect.succeed(success({})))),
      HttpRouter.all(
        Endpoint.transferHistory.path as HttpRouter.PathInput,
        getOnly(signed(
          Endpoint.transferHistory,
          HistoryQuery.transfers,
          (filter, page) =>
            Effect.map(
              store.transferPage(filter, page),
              (rows) => rows.map((r) => WireFormat.transfer(r, masterAccount))
            )
        ))
      ),
      HttpRouter.all(
        Endpoint.depositHistory.path as HttpRouter.PathInput,
        getOnly(signed(
          Endpoint.depositHistory,
          HistoryQuery.deposits,
          (filter, page) => Effect.map(store.depositPage(filter, page), (rows) => rows.map(WireFormat.deposit))
        ))
      ),
      HttpRouter.all(
        subAccountListPath,
        getOnly(signed(
          // Authentication checks the permission of the endpoint it is given: the one the key holds.
          (key) => ApiKeys.allows(key, "SPOT_TRANSFER_READ") ? Endpoint.transferHistory : Endpoint.depositHistory,
          (params) => readSubAccountQuery(params),
          (filter, page) =>
            Effect.succeed(
              subAccounts
                .filter((name) => filter.subAccount === undefined || name === filter.subAccount)
                .slice((page.page - 1) * page.limit, page.page * page.limit)
                .map((subAccount) => ({ subAccount, note: "", timestamp: listedSince }))
            )
        ))
      )
    )
    const paths = new Set(Chunk.toReadonlyArray(router.routes).map((route) => route.path as string))
    const routed = yield* HttpRouter.toHttpApp(router).pipe(HttpRouter.withRouterConfig(exactPaths))

    const answer = routed.pipe(
      Effect.catchTag("RouteNotFound", (notFound) =>
        // A method the router does not know (QUERY, …) on a route's exact path is still a 405.
        Effect.succeed(
          paths.has(RawQuery.pathOfUrl(notFound.request.url))
            ? failure(methodNotAllowed, { allow: allowedMethods })
            : failure(WireFormat.notFound)
        )),
      // A defect never shows its cause to the client.
      Effect.catchAllDefect((defect) =>
        Effect.logError("request failed", defect).pipe(Effect.as(failure(ErrorBody.Errors.internal)))
      )
    )

    const app = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = arrivalOf(request).clock
      const log = (outcome: string | number) =>
        options.logRequests === true
          ? Effect.logInfo(
            `${request.method} ${loggablePath(request.url)} ${outcome} ${Math.round(performance.now() - started)}ms`
          )
          : Effect.void
      counters.requests++
      const fault = injector.next()
      const settings = injector.settings()
      if (fault !== undefined) countFault(fault)
      const latency = Duration.toMillis(settings.latency) > 0 ? Effect.sleep(settings.latency) : Effect.void
      // A fault that replaces the answer comes after the latency too.
      if (fault !== undefined && fault !== "truncate") yield* latency

      switch (fault) {
        case "serverError": {
          countStatus(500)
          yield* log(500)
          return failure(ErrorBody.Errors.internal)
        }
        case "rateLimited": {
          countStatus(429)
          yield* log(429)
          return failure(ErrorBody.Errors.tooManyRequests, { "retry-after": String(settings.retryAfterSeconds) })
        }
        case "drop": {
          yield* log("dropped")
          NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()
          // The platform interrupts this fiber when the connection closes.
          return yield* Effect.never
        }
        case "hang": {
          yield* log("hanging")
          return yield* Effect.never
        }
      }

      // The request is checked (signature, timestamp, rate limit) when it arrives, as an exchange's
      // gateway does; the latency delays the answer. (Delaying the request instead let the timer
      // jitter of a busy machine bunch requests up at the limiter: 429s a client could not avoid.)
      const response = yield* answer
      yield* latency
      countStatus(response.status)
      if (fault === "truncate" && response.body._tag === "Uint8Array") {
        const bytes = response.body.body
        const nodeResponse = NodeHttpServerRequest.toServerResponse(request)
        // The full Content-Length is announced, then the connection ends part-way through the body.
        nodeResponse.writeHead(response.status, { ...response.headers, connection: "close" })
        nodeResponse.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => nodeResponse.socket?.end())
        yield* log(`${response.status} truncated`)
        return yield* Effect.never
      }
      yield* log(response.status)
      return response
    }).pipe(Effect.withClock(Clock.make()))

    const runtime = yield* Effect.runtime<never>()
    const nodeServer = Http.createServer()
    // Registered before the platform's own listener: the first moment a request is seen whole.
    nodeServer.on("request", (incoming: Http.IncomingMessage) => {
      arrivals.set(incoming, { at: Date.now(), clock: performance.now() })
    })
    // Requests Node cannot even parse still get a `{code,msg}` body.
    nodeServer.on("clientError", (error: NodeJS.ErrnoException, socket: Net.Socket) => {
      if (error.code === "ECONNRESET" || !socket.writable) socket.destroy()
      else socket.end(malformedRequest)
    })
    // Node hands a CONNECT over as a socket, not a request; without this listener it closes the
    // connection with no answer at all. This service proxies nothing: a 405, then the socket closes.
    nodeServer.on("connect", (request: Http.IncomingMessage, socket: Net.Socket) => {
      counters.requests++
      countStatus(405)
      if (options.logRequests === true) {
        Runtime.runFork(runtime)(Effect.logInfo(`CONNECT ${loggablePath(request.url ?? "")} 405 0ms`))
      }
      socket.on("error", () => socket.destroy())
      if (socket.writable) socket.end(connectRefused)
      else socket.destroy()
    })
    const listenHost = options.host ?? "127.0.0.1"
    const listenPort = options.port ?? 0
    const listening = yield* Layer.build(
      NodeHttpServer.layer(() => nodeServer, { host: listenHost, port: listenPort })
    ).pipe(Effect.mapError((cause) =>
      new StartError({
        reason: "Listen",
        cause,
        address: `${listenHost.includes(":") ? `[${listenHost}]` : listenHost}:${listenPort}`
      })
    ))
    // Runs before the server's own close, which would otherwise wait for hung requests forever.
    yield* Effect.addFinalizer(() => Effect.sync(() => nodeServer.closeAllConnections()))
    yield* HttpServer.serveEffect(app).pipe(Effect.provide(listening))

    const address = Context.get(listening, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") return yield* Effect.die("the reference server listens on TCP only")
    const host = address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname

    return ReferenceServer.of({
      baseUrl: `http://${host}:${address.port}`,
      port: address.port,
      store,
      subAccounts,
      setFaults: (faults) => Effect.sync(() => injector.set(faults)),
      stats: Effect.sync(() => ({
        requests: counters.requests,
        byStatus: { ...counters.byStatus },
        faults: { ...counters.faults }
      }))
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
      }; sub-accounts: ${compactList(server.subAccounts)})`
    )
    return yield* Effect.never
  }).pipe(Effect.provide(layer(options)))
