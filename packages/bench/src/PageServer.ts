/**
 * The page server of the throughput and memory benchmarks: a minimal `node:http` server, run in a
 * separate process, that answers the transfer-history endpoint from a precomputed dataset and
 * verifies nothing, so that what is measured is the client.
 *
 * The dataset holds `pages × 500` realistic transfer records (`PageRecords`), its JSON built once
 * into one buffer (`PageDataset`): any window's page is a contiguous byte range of it, sent between
 * `[` and `]` without copying. `startTime`/`endTime`/`page`/`limit` are answered like the reference
 * service (inclusive window, newest first, offset pages); every other parameter is ignored. This
 * module is the process shell: the request handler, the listening server, and the child process that
 * runs it (`PageServerMain`). The dataset's modules are re-exported here.
 *
 * @since 0.1.0
 */
import * as ChildProcess from "node:child_process"
import * as Http from "node:http"
import * as Path from "node:path"
import * as Readline from "node:readline"
import { fileURLToPath } from "node:url"
import type { Dataset } from "./PageDataset.js"
import { pageRange, pageSize, range } from "./PageDataset.js"
import type { Shape } from "./PageRecords.js"

export { type Dataset, makeDataset, pageRange, pageSize, pageWindow, range } from "./PageDataset.js"
export { defaultShape, type Kind, kinds, record, type Shape } from "./PageRecords.js"

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
