import type { Answer, Seen } from "./MockService.js"

/** A transfer as the mock stores and sends it. */
export interface Row {
  tranId: string
  timestamp: number
  status: string
}

export type Ordering = "newest-first" | "oldest-first" | "shuffled"

/** A row as the service sends it for a query: with the query's accounts and account types. */
const wire = (r: Row, query: URLSearchParams) => ({
  tranId: r.tranId,
  fromAccount: query.get("fromAccount"),
  toAccount: query.get("toAccount") ?? "sub@x",
  clientTranId: null,
  asset: "USDT",
  amount: "1.00000000",
  fromAccountType: query.get("fromAccountType") ?? "SPOT",
  toAccountType: query.get("toAccountType") ?? "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: r.status,
  timestamp: r.timestamp
})

const byIdNumber = (a: Row, b: Row) => Number(a.tranId) - Number(b.tranId)

/**
 * A transfer-history service over `rows`: honours startTime/endTime (inclusive), page and limit,
 * in the given order, each record with the query's accounts and account types; optionally repeats a
 * record, adds one outside the window, or sends every record to "sub@x" whatever the query's
 * accounts, and runs a hook before each answer (live inserts).
 */
export const transferService = (
  rows: Array<Row>,
  options: {
    readonly ordering?: Ordering
    readonly maxWindow?: number
    readonly quirks?: { readonly repeat?: boolean; readonly outside?: boolean; readonly ignoresAccounts?: boolean }
    readonly beforeAnswer?: (seen: Seen) => void
  } = {}
) =>
(seen: Seen): Answer => {
  options.beforeAnswer?.(seen)
  const p = seen.params
  const start = p.has("startTime") ? Number(p.get("startTime")) : 0
  const end = p.has("endTime") ? Number(p.get("endTime")) : Number.MAX_SAFE_INTEGER
  const page = Number(p.get("page") ?? 1)
  const limit = Number(p.get("limit") ?? 500)
  if (options.maxWindow !== undefined && end - start > options.maxWindow) {
    return { status: 400, body: { code: 33333, msg: "Param is error: window too wide" } }
  }
  const matching = rows.filter((r) => r.timestamp >= start && r.timestamp <= end)
  const ordering = options.ordering ?? "newest-first"
  if (ordering === "oldest-first") matching.sort((a, b) => a.timestamp - b.timestamp || byIdNumber(a, b))
  else matching.sort((a, b) => b.timestamp - a.timestamp || byIdNumber(b, a))
  if (ordering === "shuffled") {
    // Deterministic per query, but unrelated to time: order by a hash of the id.
    const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_003, 7)
    matching.sort((a, b) => hash(a.tranId) - hash(b.tranId) || byIdNumber(a, b))
  }
  const query = options.quirks?.ignoresAccounts ? new URLSearchParams() : p
  const body: Array<unknown> = matching.slice((page - 1) * limit, page * limit).map((r) => wire(r, query))
  if (options.quirks?.repeat && body.length > 0 && body.length < limit) body.push(body[0])
  if (options.quirks?.outside && body.length < limit) {
    body.push(wire({ tranId: "999999", timestamp: end + 1, status: "SUCCESS" }, query))
  }
  return { status: 200, body }
}

/** The expected stream: unique rows within [since, until], ascending by time then numeric id. */
export const expected = (rows: ReadonlyArray<Row>, since: number, until: number): Array<string> =>
  rows.filter((r) => r.timestamp >= since && r.timestamp <= until)
    .sort((a, b) => a.timestamp - b.timestamp || a.tranId.length - b.tranId.length || (a.tranId < b.tranId ? -1 : 1))
    .map((r) => r.tranId)
