/**
 * A service on 127.0.0.1 (port 0) that answers signed requests without checking them, from a script of
 * the query's parameters: for the tests of what the client and the command do when a service ignores
 * its query (the window, `page`) or stops paging. The time endpoint answers the local time. Every
 * answer is counted.
 *
 * @since 0.2.0
 */
import { Effect } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

/**
 * The running service: its origin and the history requests it answered.
 *
 * @example
 * import type { Misbehaving } from "@broker-history/testing/Misbehaving"
 * const url = (m: Misbehaving) => m.origin + "/api/v3/time"
 */
export interface Misbehaving {
  readonly origin: string
  /** History requests answered so far (the time endpoint not counted). */
  readonly requests: () => number
}

/**
 * The service, closed with the scope. `answer` gives the JSON body (status 200) of each history request
 * from its query parameters; past `maxRequests` every request is refused with 400 `{code,msg}`, so a
 * client that would loop ends with an `ApiError` instead.
 *
 * @example
 * import { misbehavingServer } from "@broker-history/testing/Misbehaving"
 * const empty = misbehavingServer(() => [])
 */
export const misbehavingServer = (answer: (params: URLSearchParams) => unknown, maxRequests = 1_000) =>
  Effect.acquireRelease(
    Effect.async<{ readonly service: Misbehaving; readonly server: Http.Server }>((resume) => {
      let requests = 0
      const server = Http.createServer((request, response) => {
        const url = new URL(request.url ?? "/", "http://127.0.0.1")
        const json = (status: number, body: unknown) =>
          response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
        if (url.pathname === "/api/v3/time") return json(200, { serverTime: Date.now() })
        if (++requests > maxRequests) return json(400, { code: 33333, msg: `more than ${maxRequests} requests` })
        json(200, answer(url.searchParams))
      })
      server.listen(0, "127.0.0.1", () => {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resume(Effect.succeed({ service: { origin, requests: () => requests }, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ service }) => service))

/**
 * A transfer as the exchange sends it: master → `toAccount`, SPOT → FUTURES.
 *
 * @example
 * import { transfer } from "@broker-history/testing/Misbehaving"
 * const first = transfer(1, 1_700_000_000_000)
 */
export const transfer = (tranId: number, timestamp: number, toAccount = "sub001@broker.test") => ({
  tranId: String(tranId),
  clientTranId: null,
  fromAccount: "master@broker.test",
  toAccount,
  asset: "USDT",
  amount: "1.00000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp
})

/**
 * Page `page` of `limit` records of `rows` (newest first, as the reference service sends them).
 *
 * @example
 * import { pageOf } from "@broker-history/testing/Misbehaving"
 * const second = pageOf([1, 2, 3], new URLSearchParams("page=2&limit=2")) // [3]
 */
export const pageOf = <A>(rows: ReadonlyArray<A>, params: URLSearchParams): ReadonlyArray<A> => {
  const page = Number(params.get("page") ?? 1)
  const limit = Number(params.get("limit") ?? 500)
  return rows.slice((page - 1) * limit, page * limit)
}
