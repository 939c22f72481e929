/**
 * The service's routes: `/api/v3/time`, `/api/v3/ping`, both history endpoints and the sub-account
 * list, each signed one checked (key, rate limit, signature and timestamp, parameters) before the
 * store is read; any other path is a 404, any other method a 405, and a defect a bare 500.
 *
 * @internal
 */
import { Endpoint, ErrorBody } from "@broker-history/domain"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { ApiKey } from "../../ApiKeys.js"
import * as ApiKeys from "../../ApiKeys.js"
import type * as Store from "../../Store.js"
import type * as RateLimit from "../limit/RateLimit.js"
import * as PendingSettlement from "../PendingSettlement.js"
import * as Authentication from "../request/Authentication.js"
import * as HistoryQuery from "../request/HistoryQuery.js"
import * as RawQuery from "../request/RawQuery.js"
import { allowedMethods, failure, methodNotAllowed, success } from "./Answers.js"
import * as WireFormat from "./WireFormat.js"

/** What the routes read: the store, the limiter and the query rules. */
export interface Context {
  readonly store: Store.Service
  readonly limiter: RateLimit.Limiter
  readonly maxWindow: HistoryQuery.MaxWindow
  readonly masterAccount: string
  /** The account types the transfer endpoint accepts (`Accounts.accepted`). */
  readonly accountTypes: ReadonlyArray<string>
  /** How pending transfers settle; `undefined`: they stay pending. */
  readonly pendingSettlement: PendingSettlement.Settlement | undefined
  /** When a request arrived, in wall-clock milliseconds. */
  readonly arrivedAt: (request: HttpServerRequest.HttpServerRequest) => number
}

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

/** The answer to every request: the routes, their 404 and 405, and a 500 for a defect. */
export const make = (context: Context) =>
  Effect.gen(function*() {
    const { limiter, maxWindow, pendingSettlement, store } = context

    const signed = <F>(
      endpoint: Endpoint.Endpoint | ((key: ApiKey) => Endpoint.Endpoint),
      read: (
        params: ReadonlyArray<RawQuery.Param>,
        now: number,
        maxWindow: HistoryQuery.MaxWindow
      ) => Either.Either<HistoryQuery.Read<F>, ErrorBody.ErrorRow>,
      answer: (query: HistoryQuery.Read<F>, now: number) => Effect.Effect<unknown>
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
        const now = context.arrivedAt(request)
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
        return success(yield* answer(query.right, now))
      })

    // A history page: its records in their wire shape, or `[]` when the filter can match nothing.
    const records = <F, R>(
      page: (filter: F, page: Store.Page) => Effect.Effect<ReadonlyArray<R>>,
      wire: (row: R) => unknown
    ) =>
    (query: HistoryQuery.Read<F>): Effect.Effect<ReadonlyArray<unknown>> =>
      query.matchesNothing ? Effect.succeed([]) : Effect.map(page(query.filter, query.page), (rows) => rows.map(wire))

    // `all`: the route's path is matched first, then `getOnly` answers 405 to other methods.
    const router = HttpRouter.empty.pipe(
      HttpRouter.all(
        Endpoint.timePath,
        getOnly(Effect.sync(() => success({ serverTime: Date.now() })))
      ),
      HttpRouter.all(Endpoint.pingPath, getOnly(Effect.succeed(success({})))),
      HttpRouter.all(
        Endpoint.transferHistory.path as HttpRouter.PathInput,
        getOnly(signed(
          Endpoint.transferHistory,
          HistoryQuery.transfersAccepting(context.accountTypes),
          (query, now) => {
            const page = records(store.transferPage, (r) => WireFormat.transfer(r, context.masterAccount))(query)
            // What is due settles as of the request's arrival, before its page is read.
            return pendingSettlement === undefined
              ? page
              : Effect.zipRight(PendingSettlement.settleDue(store, pendingSettlement, now), page)
          }
        ))
      ),
      HttpRouter.all(
        Endpoint.depositHistory.path as HttpRouter.PathInput,
        getOnly(signed(Endpoint.depositHistory, HistoryQuery.deposits, records(store.depositPage, WireFormat.deposit)))
      ),
      HttpRouter.all(
        Endpoint.subAccountList.path as HttpRouter.PathInput,
        getOnly(signed(
          // Either history permission may list (the exchange asks for one this service does not know):
          // Authentication checks the permission of the endpoint it is given, so give one the key holds.
          (key) => ApiKeys.allows(key, "SPOT_TRANSFER_READ") ? Endpoint.subAccountList : Endpoint.depositHistory,
          HistoryQuery.subAccounts,
          (query) => Effect.map(store.subAccountPage(query.filter, query.page), WireFormat.subAccountList)
        ))
      )
    )
    const paths = new Set(Chunk.toReadonlyArray(router.routes).map((route) => route.path as string))
    const routed = yield* HttpRouter.toHttpApp(router).pipe(HttpRouter.withRouterConfig(exactPaths))

    return routed.pipe(
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
  })
