/**
 * The contenders of the throughput benchmark: each reads dataset pages `[from, to)` of the page
 * server and returns the records it read. A contender loads only what it uses (the raw loops load
 * neither Effect nor ccxt; an Effect 3 contender only the Effect 3 line, an Effect 4 one only the
 * Effect 4 line), since each runs in a process of its own (`ContenderMain.ts`). The page calls and the
 * stream are one code for both lines of the client, given the line's modules.
 *
 * @since 0.1.0
 */
import * as NodeSignature from "@broker-history/core/signing/NodeSignature"
import * as Undici from "undici"
import * as Against from "./Against.js"
import * as Effect4Line from "./Effect4Line.js"
import * as PageServer from "./PageServer.js"

/**
 * The contenders, in the order; the page calls and the stream of the Effect 3 line
 * (`@broker-history/client`), then of the Effect 4 line (`@broker-history/client-effect4`).
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.names[0] // "undici"
 */
export const names = ["undici", "fetch", "ccxt", "pageCalls", "stream", "pageCallsEffect4", "streamEffect4"] as const

/**
 * The Effect 3 contender each Effect 4 contender does the same work as.
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.effect4Of.streamEffect4 // "stream"
 */
export const effect4Of = { pageCallsEffect4: "pageCalls", streamEffect4: "stream" } as const

/**
 * The client contenders with the client of another revision (`--against`), measured only when one
 * is given.
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.againstNames[0] // "pageCallsAgainst"
 */
export const againstNames = ["pageCallsAgainst", "streamAgainst"] as const

/**
 * A contender's name.
 *
 * @example
 * import type { Contender } from "@broker-history/bench"
 * const n: Contender.Name = "stream"
 */
export type Name = typeof names[number]

/**
 * Any contender's name, the `--against` ones included.
 *
 * @example
 * import type { Contender } from "@broker-history/bench"
 * const n: Contender.AnyName = "streamAgainst"
 */
export type AnyName = Name | typeof againstNames[number]

/**
 * The current client's contender each `--against` contender is compared with.
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.againstOf.streamAgainst // "stream"
 */
export const againstOf = { pageCallsAgainst: "pageCalls", streamAgainst: "stream" } as const

/**
 * The contenders compared round by round (`Throughput.versus`): `name` over `against`, and what that
 * ratio is called in the tables. Each Effect 4 contender against its Effect 3 twin, and each current
 * contender against its `--against` twin.
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.pairs.map((p) => `${p.name}/${p.against}`) // ["pageCallsEffect4/pageCalls", …]
 */
export const pairs: ReadonlyArray<{ readonly name: Name; readonly against: AnyName; readonly ratio: string }> = [
  ...Object.entries(effect4Of).map(([name, of]) => ({ name: name as Name, against: of, ratio: "Effect 4/Effect 3" })),
  ...Object.entries(againstOf).map(([against, name]) => ({
    name,
    against: against as AnyName,
    ratio: "current/old"
  }))
]

/**
 * What each contender is, for the tables.
 *
 * @example
 * import { Contender } from "@broker-history/bench"
 * Contender.labels.undici // "raw undici.request + node:crypto + JSON.parse"
 */
export const labels: Record<AnyName, string> = {
  undici: "raw undici.request + node:crypto + JSON.parse",
  fetch: "raw fetch + node:crypto + JSON.parse",
  ccxt: "ccxt mexc brokerPrivateGetSubAccountUniversalTransfer",
  pageCalls: "BrokerHistory.transferHistory page calls, Effect 3 (layerUndici)",
  stream: "BrokerHistory.transfers stream, Effect 3 (layerUndici, concurrency 1)",
  pageCallsEffect4: "BrokerHistory.transferHistory page calls, Effect 4 (layerUndici)",
  streamEffect4: "BrokerHistory.transfers stream, Effect 4 (layerUndici, concurrency 1)",
  pageCallsAgainst: "BrokerHistory.transferHistory page calls, Effect 3 (layerUndici)",
  streamAgainst: "BrokerHistory.transfers stream, Effect 3 (layerUndici, concurrency 1)"
}

/**
 * Reads dataset pages `[from, to)` and resolves with the records read.
 *
 * @example
 * import type { Contender } from "@broker-history/bench"
 * const twice = (read: Contender.Reader) => read(0, 1).then((n) => n * 2)
 */
export type Reader = (from: number, to: number) => Promise<number>

/**
 * A contender ready to read, and how to release what it holds.
 *
 * @example
 * import type { Contender } from "@broker-history/bench"
 * const once = async (c: Contender.Contender) => { try { return await c.read(0, 1) } finally { await c.close() } }
 */
export interface Contender {
  readonly read: Reader
  readonly close: () => Promise<void>
}

// The page server verifies nothing; any key does. Not the server's `ApiKeys.demo`: importing the server
// package would load a second `effect` into the processes of the `--against` and Effect 4 contenders
// (its modules share global state with the client's copy, which made the same client ~8 % slower there).
const key = { apiKey: "mx0vglBENCHKEY000000000000000000", secretKey: "0123456789abcdef0123456789abcdef" } as const
const filters = "fromAccountType=SPOT&toAccountType=FUTURES"

/** The query the raw loops send for dataset page `k`: the same parameters, in the same order, as the client. */
const rawQuery = (shape: PageServer.Shape, k: number): string => {
  const [startTime, endTime] = PageServer.pageWindow(shape, k)
  const query =
    `${filters}&startTime=${startTime}&endTime=${endTime}&page=1&limit=${PageServer.pageSize}&timestamp=${Date.now()}`
  return `${query}&signature=${NodeSignature.hmacSha256Hex(key.secretKey, query)}`
}

const rawHeaders = { "X-MEXC-APIKEY": key.apiKey, "content-type": "application/json", accept: "application/json" }

/** Dataset page `k` as the query ccxt and the page calls send. */
const pageQuery = (shape: PageServer.Shape, k: number) => {
  const [startTime, endTime] = PageServer.pageWindow(shape, k)
  return {
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    startTime,
    endTime,
    page: 1,
    limit: PageServer.pageSize
  } as const
}

const undici = (baseUrl: string, shape: PageServer.Shape): Contender => {
  const url = baseUrl + PageServer.transferPath + "?"
  const dispatcher = new Undici.Agent({ keepAliveTimeout: 60_000 })
  return {
    read: async (from, to) => {
      let records = 0
      for (let k = from; k < to; k++) {
        const response = await Undici.request(url + rawQuery(shape, k), { headers: rawHeaders, dispatcher })
        const body = JSON.parse(await response.body.text()) as ReadonlyArray<unknown>
        if (response.statusCode !== 200) throw new Error(`undici: status ${response.statusCode}`)
        records += body.length
      }
      return records
    },
    close: () => dispatcher.close()
  }
}

const fetchLoop = (baseUrl: string, shape: PageServer.Shape): Contender => {
  const url = baseUrl + PageServer.transferPath + "?"
  return {
    read: async (from, to) => {
      let records = 0
      for (let k = from; k < to; k++) {
        const response = await fetch(url + rawQuery(shape, k), { headers: rawHeaders })
        const body = JSON.parse(await response.text()) as ReadonlyArray<unknown>
        if (response.status !== 200) throw new Error(`fetch: status ${response.status}`)
        records += body.length
      }
      return records
    },
    close: async () => {}
  }
}

const ccxtLoop = async (baseUrl: string, shape: PageServer.Shape): Promise<Contender> => {
  const { default: ccxt } = await import("ccxt")
  const exchange = new ccxt.mexc({ apiKey: key.apiKey, secret: key.secretKey, enableRateLimit: false }) // The implicit broker methods build `urls.api.broker.private + "/" + path`.
  ;(exchange.urls as any).api.broker.private = baseUrl + "/api/v3/broker"
  return {
    read: async (from, to) => {
      let records = 0
      for (let k = from; k < to; k++) {
        const body = await exchange.brokerPrivateGetSubAccountUniversalTransfer(pageQuery(shape, k))
        records += (body as ReadonlyArray<unknown>).length
      }
      return records
    },
    close: async () => {}
  }
}

/**
 * The page calls or the stream of the client `modules` hold (either line: the calls below have the
 * same names and shapes on Effect 3 and Effect 4).
 */
const client = async (
  baseUrl: string,
  shape: PageServer.Shape,
  mode: "pageCalls" | "stream",
  modules: Promise<Against.Modules>
): Promise<Contender> => {
  const { BrokerConfig, BrokerHistory, Effect, Layer, ManagedRuntime, Redacted, Stream } = await modules
  const runtime = ManagedRuntime.make(BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl,
    apiKey: Redacted.make(key.apiKey),
    secretKey: Redacted.make(key.secretKey),
    // The budget never binds here: the service is local and the point is the client's own cost.
    rateLimit: { limit: 10_000, interval: "1 millis" }
  }))))
  // A service's tag is an effect on Effect 3 only; `yield*` takes it on both.
  const history = await runtime.runPromise(Effect.gen(function*() {
    return yield* BrokerHistory.BrokerHistory
  }))
  const pageCalls: Reader = (from, to) =>
    runtime.runPromise(Effect.gen(function*() {
      let records = 0
      for (let k = from; k < to; k++) {
        const page = yield* history.transferHistory(pageQuery(shape, k))
        records += page.length
      }
      return records
    }))
  // One stream over the time range of pages [from, to): it plans its own windows.
  const stream: Reader = (from, to) =>
    runtime.runPromise(
      history.transfers({
        fromAccountType: "SPOT",
        toAccountType: "FUTURES",
        since: PageServer.pageWindow(shape, from)[0],
        until: PageServer.pageWindow(shape, to - 1)[1]
      }).pipe(Stream.runCount)
    )
  return { read: mode === "pageCalls" ? pageCalls : stream, close: () => runtime.dispose() }
}

/**
 * The contender `name` reading from the page server at `baseUrl`, which serves `shape`; the
 * `--against` contenders load the client of the prepared copy `against`.
 *
 * @example
 * import { Contender, PageServer } from "@broker-history/bench"
 * const server = await PageServer.spawn({ pages: 2, start: 0, spacing: 1000 })
 * const raw = await Contender.make("undici", server.baseUrl, server.shape)
 */
export const make = (
  name: AnyName,
  baseUrl: string,
  shape: PageServer.Shape,
  against?: Against.Copy | undefined
): Promise<Contender> => {
  switch (name) {
    case "undici":
      return Promise.resolve(undici(baseUrl, shape))
    case "fetch":
      return Promise.resolve(fetchLoop(baseUrl, shape))
    case "ccxt":
      return ccxtLoop(baseUrl, shape)
    case "pageCalls":
    case "stream":
      return client(baseUrl, shape, name, Against.load(undefined))
    case "pageCallsEffect4":
    case "streamEffect4":
      return client(baseUrl, shape, effect4Of[name], Effect4Line.load())
    case "pageCallsAgainst":
    case "streamAgainst":
      if (against === undefined) return Promise.reject(new Error(`${name} needs a revision to measure (--against)`))
      return client(baseUrl, shape, againstOf[name], Against.load(against))
  }
}
