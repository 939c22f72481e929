// `BrokerHistory.layerConfig()`, the ready layer, on every runtime, on both lines: undici on Node,
// fetch where Node's undici is not usable (Bun, Deno); `layerUndici` there fails at once saying what
// to use. Bun and Deno are told apart by `process.versions`, which these tests set for their
// duration (the consumer stage runs the same layer on the real Bun and Deno).
import { afterAll, describe, expect, it } from "vitest"
import type { Settings } from "../src/Line.js"
import { layerFailure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Service } from "../src/ReferenceService.js"
import { clientSettings, spotToFutures, withReferenceService } from "../src/ReferenceService.js"

/** Runs `use` as if on `runtime` (`process.versions.bun` or `.deno` set), restoring it after. */
const asIf = async <A>(runtime: "bun" | "deno", use: () => Promise<A>): Promise<A> => {
  Object.defineProperty(process.versions, runtime, { value: "1.0.0", configurable: true })
  try {
    return await use()
  } finally {
    delete (process.versions as Record<string, string | undefined>)[runtime]
  }
}

// `globalThis.fetch`, counting its calls, for the whole file: Effect 4's `FetchHttpClient.Fetch`
// reads `globalThis.fetch` once (a reference's default, cached), so a wrapper installed later would
// not be called.
let fetches = 0
const originalFetch = globalThis.fetch
globalThis.fetch = (...args: Parameters<typeof fetch>) => {
  fetches++
  return originalFetch(...args)
}
afterAll(() => {
  globalThis.fetch = originalFetch
})

/** `use`'s result, and how many times it called `fetch`. */
const countingFetch = async <A>(use: () => Promise<A>) => {
  const before = fetches
  const result = await use()
  return { result, calls: fetches - before }
}

const withServer = <A>(use: (server: Service) => Promise<A>) =>
  withReferenceService(
    { host: "127.0.0.1", port: 0, logRequests: false, seed: { seed: 3, transfers: 400, deposits: 0 } },
    use
  )

describe.each(Lines.all)("BrokerHistory.layerConfig on every runtime ($name)", (line) => {
  /** Every transfer SPOT → FUTURES of the seeded history, on the line built from `settings`. */
  const transfersThrough = (settings: Settings) =>
    line.withClient(settings, async (client) => success(await client.transfers({ ...spotToFutures.query, since: 0 })))

  it("on Node (undici) and as if on Bun and Deno (fetch) it reads the same whole history, once each, ascending", () =>
    withServer(async (server) => {
      const settings = clientSettings(server, { layerConfig: { BROKER_PROXY: "none" } })
      const { calls: nodeFetches, result: onNode } = await countingFetch(() => transfersThrough(settings))
      const { calls: bunFetches, result: onBun } = await countingFetch(() =>
        asIf("bun", () => transfersThrough(settings))
      )
      const { calls: denoFetches, result: onDeno } = await countingFetch(() =>
        asIf("deno", () => transfersThrough(settings))
      )
      // Node's own undici on Node, no fetch; fetch for every request elsewhere.
      expect(nodeFetches).toBe(0)
      expect(bunFetches).toBeGreaterThan(1)
      expect(denoFetches).toBe(bunFetches)
      expect(onNode.length).toBeGreaterThan(10)
      expect(new Set(onNode.map((t) => t.tranId)).size).toBe(onNode.length)
      expect(onNode.every((t, i) => i === 0 || onNode[i - 1]!.timestamp <= t.timestamp)).toBe(true)
      expect(onBun).toEqual(onNode)
      expect(onDeno).toEqual(onNode)
    }))

  it("as if on Bun, layerUndici fails at once saying what to use; nothing is sent", () =>
    withServer(async (server) => {
      const text = await asIf("bun", () => layerFailure(line, clientSettings(server, { transport: "undici" })))
      expect(text).toContain("BrokerHistory.layerUndici needs Node's undici, and this is Bun")
      expect(text).toContain("BrokerHistory.layerConfig()")
      expect((await server.stats()).requests).toBe(0)
    }))

  it("as if on Deno, a proxy in BROKER_PROXY is refused at once (only the Node transport uses it)", () =>
    withServer(async (server) => {
      const text = await asIf(
        "deno",
        () => layerFailure(line, clientSettings(server, { layerConfig: { BROKER_PROXY: "http://127.0.0.1:3128" } }))
      )
      expect(text).toContain("BROKER_PROXY names a proxy, which only the Node transport can use, and this is Deno")
      expect((await server.stats()).requests).toBe(0)
    }))
})
