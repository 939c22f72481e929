// A transfer service on 127.0.0.1 (port 0) that stops paging a crowded millisecond: it answers signed
// requests without checking them, honours the window, the accounts and the account types, and answers
// every page past `servedPages` with an empty page. Deposits: none. The time endpoint answers the local time.
import * as Http from "node:http"
import type { AddressInfo } from "node:net"

export const master = "master@broker.test"

export interface Row {
  readonly tranId: string
  readonly timestamp: number
  /** The sub-account the master sent it to. */
  readonly toAccount: string
}

/** The service, started; `close` stops it (every connection dropped). */
export const cappedService = async (rows: ReadonlyArray<Row>, servedPages: number) => {
  const server = Http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const p = url.searchParams
    const json = (body: unknown) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body))
    if (url.pathname === "/api/v3/time") return json({ serverTime: Date.now() })
    if (url.pathname !== "/api/v3/broker/sub-account/universalTransfer") return json([])
    const page = Number(p.get("page") ?? 1)
    const limit = Number(p.get("limit") ?? 500)
    const start = Number(p.get("startTime") ?? 0)
    const end = Number(p.get("endTime") ?? Number.MAX_SAFE_INTEGER)
    // Master → sub, SPOT → FUTURES only, newest first.
    const pair = !p.has("fromAccount") && p.get("fromAccountType") === "SPOT" && p.get("toAccountType") === "FUTURES"
    const matching = !pair || page > servedPages ? [] : rows
      .filter((r) => r.toAccount === p.get("toAccount") && r.timestamp >= start && r.timestamp <= end)
      .sort((a, b) => b.timestamp - a.timestamp || Number(b.tranId) - Number(a.tranId))
    json(
      matching.slice((page - 1) * limit, page * limit).map((r) => ({
        tranId: r.tranId,
        clientTranId: null,
        fromAccount: master,
        toAccount: r.toAccount,
        asset: "USDT",
        amount: "1.00000000",
        fromAccountType: "SPOT",
        toAccountType: "FUTURES",
        fromSymbol: "",
        toSymbol: "",
        status: "SUCCESS",
        timestamp: r.timestamp
      }))
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
