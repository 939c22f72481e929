/**
 * The page server of the throughput and memory benchmarks: a minimal `node:http` server, run in a
 * separate process, that answers the transfer-history endpoint from a precomputed dataset and
 * verifies nothing, so that what is measured is the client.
 *
 * The dataset holds `pages × 500` realistic transfer records, one every `spacing` ms from `start`,
 * of one of two kinds: short ASCII records (about 300 bytes of JSON) or long ones with non-ASCII text
 * (a memo of CJK, accented Latin, Cyrillic and emoji over 200 characters in `clientTranId`, long
 * sub-account addresses; about 1 KB). Its JSON is built once, newest first (the reference service's order), into one buffer: any
 * window's page is then a contiguous byte range of it, sent between `[` and `]` without copying.
 * `startTime`/`endTime`/`page`/`limit` are answered like the reference service (inclusive window,
 * newest first, offset pages); every other parameter is ignored.
 *
 * @since 0.1.0
 */
// The module alone: the page server process loads nothing else of the reference service.
import * as Prng from "@broker-history/server/Prng"
import * as ChildProcess from "node:child_process"
import * as Http from "node:http"
import * as Path from "node:path"
import * as Readline from "node:readline"
import { fileURLToPath } from "node:url"

/** Records per page of the dataset (the endpoint's maximum `limit`). */
export const pageSize = 500

/**
 * The kinds of record the page server can serve: `short` (ASCII, about 300 bytes of JSON) or `long`
 * (non-ASCII memo and addresses, about 1 KB).
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * PageServer.kinds // ["short", "long"]
 */
export const kinds = ["short", "long"] as const

/**
 * A kind of record.
 *
 * @example
 * import type { PageServer } from "@broker-history/bench"
 * const kind: PageServer.Kind = "long"
 */
export type Kind = typeof kinds[number]

/**
 * The shape of the dataset: `pages × pageSize` records of `kind` (default `short`), the first at
 * `start`, one every `spacing` ms.
 *
 * @example
 * import type { PageServer } from "@broker-history/bench"
 * const shape: PageServer.Shape = { pages: 2000, start: Date.UTC(2025, 0, 1), spacing: 1000, kind: "long" }
 */
export interface Shape {
  readonly pages: number
  readonly start: number
  readonly spacing: number
  readonly kind?: Kind | undefined
}

/** The default shape: 2,000 pages (1,000,000 records), one record a second from 2025-01-01. */
export const defaultShape: Shape = { pages: 2000, start: Date.UTC(2025, 0, 1), spacing: 1000 }

const assets = ["USDT", "BTC", "ETH", "USDC", "SOL", "XRP", "DOGE"] as const
const statuses = ["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "PENDING"] as const

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

/** Deterministic 32-character client id for record `i` (the reference service's seeded generator). */
const clientId = (i: number): string => Prng.text(Prng.mulberry32(i + 1), base36, 32)

// Pieces of the long records' text: CJK, kana, Hangul, accented Latin, Cyrillic, emoji (some outside
// the Basic Multilingual Plane, so surrogate pairs in JavaScript strings and 4 bytes in UTF-8).
const memoWords = [
  "转账",
  "工资",
  "返佣",
  "月结",
  "手续费",
  "東京",
  "ソウル",
  "서울",
  "정산",
  "café",
  "Überweisung",
  "résumé",
  "перевод",
  "заметка",
  "ñandú",
  "façade",
  "💸",
  "🚀",
  "✅",
  "🧾",
  "€",
  "—",
  "·",
  " ",
  " ",
  " "
] as const
const accountWords = ["子账户", "运营", "做市", "trésorerie", "финансы", "チーム", "팀", "🏦", "α", "β"] as const

/** Pieces from `words` (seeded by `seed`) until the text is at least `length` characters long. */
const longText = (seed: number, words: ReadonlyArray<string>, length: number): string => {
  const next = Prng.mulberry32(seed)
  let out = ""
  while (out.length < length) out += Prng.pick(next, words)
  return out
}

const longMaster = "主账户-master-🏦-opérations-de-trésorerie-ＢＲＯＫＥＲ@经纪商.example.com"

/**
 * Record `i` of the dataset as the service sends it: realistic field sizes, about 300 bytes of ASCII
 * JSON; for `kind: "long"` a memo of over 200 non-ASCII characters in `clientTranId` and long
 * non-ASCII addresses in `fromAccount`/`toAccount` (seeded by `i`, about 1 KB).
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * PageServer.record(PageServer.defaultShape, 0).tranId // "11945860693"
 */
export const record = (shape: Shape, i: number) => {
  const short = shortRecord(shape, i)
  if (shape.kind !== "long") return short
  const sub = `${longText(2 * i + 1, accountWords, 40)}-${(i * 7) % 97}@子账户.经纪商.example.com`
  return {
    ...short,
    clientTranId: longText(2 * i + 2, memoWords, 220),
    fromAccount: i % 3 !== 0 ? longMaster : sub,
    toAccount: i % 3 !== 0 ? sub : longMaster
  }
}

const shortRecord = (shape: Shape, i: number) => {
  const sub = `sub-account-${(i * 7) % 97}@broker.example.com`
  const outward = i % 3 !== 0
  const whole = (i * 7919) % 100_000
  const frac = String((i * 104_729) % 100_000_000).padStart(8, "0")
  return {
    tranId: String(11_945_860_693 + i),
    clientTranId: i % 4 === 0 ? clientId(i) : null,
    fromAccount: outward ? "master@broker.example.com" : sub,
    toAccount: outward ? sub : "master@broker.example.com",
    asset: assets[i % assets.length],
    amount: `${whole}.${frac}`,
    fromAccountType: i % 2 === 0 ? "SPOT" : "FUTURES",
    toAccountType: i % 2 === 0 ? "FUTURES" : "SPOT",
    fromSymbol: i % 5 === 0 ? "BTCUSDT" : "",
    toSymbol: i % 5 === 0 ? "BTCUSDT" : "",
    status: statuses[i % statuses.length],
    timestamp: shape.start + i * shape.spacing
  }
}

/**
 * The precomputed dataset: one JSON buffer (newest first) and each record's byte range in it.
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * const data = PageServer.makeDataset({ pages: 2, start: 0, spacing: 1 })
 * data.count // 1000
 */
export interface Dataset {
  readonly shape: Shape
  readonly count: number
  readonly bytes: Buffer
  /** Byte offset of record i's first byte (ascending index). */
  readonly begin: Float64Array
  /** Byte offset just after record i's last byte. */
  readonly end: Float64Array
}

/** Builds the dataset (UTF-8; offsets are byte offsets). */
export const makeDataset = (shape: Shape): Dataset => {
  const count = shape.pages * pageSize
  const begin = new Float64Array(count)
  const end = new Float64Array(count)
  // Written straight into one buffer: a million records would come close to V8's string limit.
  let bytes = Buffer.allocUnsafe(Math.max(1024, count * (shape.kind === "long" ? 1100 : 320)))
  let offset = 0
  for (let i = count - 1; i >= 0; i--) {
    const json = JSON.stringify(record(shape, i))
    const length = Buffer.byteLength(json, "utf8")
    if (offset + length + 1 > bytes.length) {
      const bigger = Buffer.allocUnsafe(bytes.length * 2)
      bytes.copy(bigger, 0, 0, offset)
      bytes = bigger
    }
    if (i !== count - 1) offset += bytes.write(",", offset, "latin1")
    begin[i] = offset
    offset += bytes.write(json, offset, "utf8")
    end[i] = offset
  }
  return { shape, count, bytes: bytes.subarray(0, offset), begin, end }
}

/**
 * The ascending index range `[lo, hi]` of one page: records with `startTime <= t <= endTime`,
 * newest first, page `page` of `limit`; `undefined` when the page is empty.
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * PageServer.pageRange({ pages: 2, start: 0, spacing: 1 }, 0, 999, 1, 500) // [500, 999]
 */
export const pageRange = (
  shape: Shape,
  startTime: number,
  endTime: number,
  page: number,
  limit: number
): readonly [number, number] | undefined => {
  const count = shape.pages * pageSize
  const first = Math.max(0, Math.ceil((startTime - shape.start) / shape.spacing))
  const last = Math.min(count - 1, Math.floor((endTime - shape.start) / shape.spacing))
  if (last < first) return undefined
  const hi = last - (page - 1) * limit
  const lo = Math.max(first, hi - limit + 1)
  return hi < lo ? undefined : [lo, hi]
}

/**
 * The window of page `k` (0-based) of the dataset: its first and last record's timestamps.
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * PageServer.pageWindow({ pages: 2, start: 0, spacing: 1 }, 1) // [500, 999]
 */
export const pageWindow = (shape: Shape, k: number): readonly [number, number] => [
  shape.start + k * pageSize * shape.spacing,
  shape.start + ((k + 1) * pageSize - 1) * shape.spacing
]

/** The inclusive time range of the whole dataset. */
export const range = (shape: Shape): readonly [number, number] => [
  shape.start,
  shape.start + (shape.pages * pageSize - 1) * shape.spacing
]

const integer = (text: string | null, fallback: number): number => {
  if (text === null || text === "") return fallback
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : fallback
}

const open = Buffer.from("[")
const close = Buffer.from("]")
const emptyPage = Buffer.from("[]")

/** What the page server has seen, for the harness (requests, and how many carried a key and a signature). */
export interface Counts {
  requests: number
  signed: number
  records: number
}

/**
 * The request handler over a dataset. Unknown paths get 404; `GET /counts` answers the counters,
 * `POST /counts/reset` zeroes them.
 */
export const handler =
  (data: Dataset, counts: Counts, path: string) =>
  (request: Http.IncomingMessage, response: Http.ServerResponse): void => {
    const url = request.url ?? "/"
    const q = url.indexOf("?")
    const pathname = q === -1 ? url : url.slice(0, q)
    if (pathname === path) {
      counts.requests++
      if (request.headers["x-mexc-apikey"] !== undefined && url.includes("signature=")) counts.signed++
      const params = new URLSearchParams(q === -1 ? "" : url.slice(q + 1))
      const [first, last] = range(data.shape)
      const slice = pageRange(
        data.shape,
        integer(params.get("startTime"), first),
        integer(params.get("endTime"), last),
        Math.max(1, integer(params.get("page"), 1)),
        Math.min(pageSize, Math.max(1, integer(params.get("limit"), pageSize)))
      )
      if (slice === undefined) {
        response.writeHead(200, { "content-type": "application/json", "content-length": emptyPage.length })
        response.end(emptyPage)
        return
      }
      const [lo, hi] = slice
      counts.records += hi - lo + 1
      // Newest first: record hi starts the range, record lo ends it.
      const body = data.bytes.subarray(data.begin[hi]!, data.end[lo]!)
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length + 2 })
      response.cork()
      response.write(open)
      response.write(body)
      response.end(close)
      return
    }
    if (pathname === "/api/v3/time") {
      const body = JSON.stringify({ serverTime: Date.now() })
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
      response.end(body)
      return
    }
    if (pathname === "/counts") {
      if (request.method === "POST") {
        counts.requests = 0
        counts.signed = 0
        counts.records = 0
      }
      const body = JSON.stringify(counts)
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length })
      response.end(body)
      return
    }
    response.writeHead(404, { "content-type": "application/json" })
    response.end("{\"code\":404,\"msg\":\"Not found.\"}")
  }

/** The path served (the transfer-history endpoint). */
export const transferPath = "/api/v3/broker/sub-account/universalTransfer"

/**
 * Listens on 127.0.0.1 (ephemeral port) in this process; resolves with the server once listening.
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * const server = await PageServer.listen(PageServer.makeDataset({ pages: 2, start: 0, spacing: 1 }))
 */
export const listen = (data: Dataset): Promise<Http.Server> =>
  new Promise((resolve, reject) => {
    const server = Http.createServer(
      { keepAliveTimeout: 60_000 },
      handler(data, { requests: 0, signed: 0, records: 0 }, transferPath)
    )
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

/**
 * A page server running in a child process.
 *
 * @example
 * import type { PageServer } from "@broker-history/bench"
 * const use = async (server: PageServer.Running) => fetch(`${server.baseUrl}/counts`)
 */
export interface Running {
  readonly baseUrl: string
  readonly shape: Shape
  readonly pid: number
  /** The counters, and optionally zeroes them. */
  readonly counts: (reset?: boolean) => Promise<Counts>
  /** Kills the process (idempotent); resolves when it has exited. */
  readonly stop: () => Promise<void>
}

const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

/**
 * Starts the page server in a child process and waits until it listens. The child also exits when
 * this process's end of its stdin closes, so it never outlives the harness. Always `stop()` it
 * (in a `finally`).
 *
 * @example
 * import { PageServer } from "@broker-history/bench"
 * const server = await PageServer.spawn({ pages: 20, start: 0, spacing: 1000 })
 * try { console.log(server.baseUrl) } finally { await server.stop() }
 */
export const spawn = (shape: Shape, startTimeoutMillis = 60_000): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = ChildProcess.spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        Path.join(packageDir, "src", "PageServerMain.ts"),
        String(shape.pages),
        String(shape.start),
        String(shape.spacing),
        shape.kind ?? "short"
      ],
      { cwd: packageDir, stdio: ["pipe", "pipe", "inherit"] }
    )
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      await exited
    }
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`the page server did not start within ${startTimeoutMillis} ms`))
    }, startTimeoutMillis)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the page server exited before listening (${code ?? signal})`))
    })
    const lines = Readline.createInterface({ input: child.stdout! })
    lines.once("line", (line) => {
      clearTimeout(timer)
      const { port } = JSON.parse(line) as { port: number }
      const baseUrl = `http://127.0.0.1:${port}`
      resolve({
        baseUrl,
        shape,
        pid: child.pid!,
        counts: async (reset = false) => {
          const response = await fetch(`${baseUrl}/counts`, { method: reset ? "POST" : "GET" })
          return await response.json() as Counts
        },
        stop
      })
    })
  })
