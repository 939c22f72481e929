// A transfer service on 127.0.0.1 (port 0) that stops paging a crowded millisecond: the workspace's
// scripted service (`@broker-history/testing/Misbehaving`) honouring the window, the accounts and the
// account types, and answering every page past `servedPages` with an empty page. Deposits: none.
import { misbehavingServer, pageOf, transfer } from "@broker-history/testing/Misbehaving"
import { Effect, Exit, Scope } from "effect"

export const master = "master@broker.test"

export interface Row {
  readonly tranId: string
  readonly timestamp: number
  /** The sub-account the master sent it to. */
  readonly toAccount: string
}

/** The service, started; `close` stops it (every connection dropped). */
export const cappedService = async (rows: ReadonlyArray<Row>, servedPages: number) => {
  const scope = Effect.runSync(Scope.make())
  const service = await Effect.runPromise(
    Scope.extend(
      misbehavingServer((p) => {
        const start = Number(p.get("startTime") ?? 0)
        const end = Number(p.get("endTime") ?? Number.MAX_SAFE_INTEGER)
        // Master → sub, SPOT → FUTURES only, newest first.
        const pair = !p.has("fromAccount") && p.get("fromAccountType") === "SPOT" &&
          p.get("toAccountType") === "FUTURES"
        if (!pair || Number(p.get("page") ?? 1) > servedPages) return []
        const matching = rows
          .filter((r) => r.toAccount === p.get("toAccount") && r.timestamp >= start && r.timestamp <= end)
          .sort((a, b) => b.timestamp - a.timestamp || Number(b.tranId) - Number(a.tranId))
        return pageOf(matching, p).map((r) => transfer(Number(r.tranId), r.timestamp, r.toAccount))
      }, Number.POSITIVE_INFINITY),
      scope
    )
  )
  return { baseUrl: service.origin, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
