// `BrokerHistory.layerConfig(config?)`, the ready layer, on every runtime: undici on Node, fetch where
// Node's undici is not usable (Bun, Deno); `layerUndici` there fails at once saying what to use.
// Bun and Deno are told apart by `process.versions`, which these tests set for their duration (the
// consumer stage runs the same layer on the real Bun and Deno).
import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
import { ApiKeys } from "@broker-history/server"
import { Cause, Config, ConfigProvider, Effect, Exit, Layer, Redacted, Stream } from "effect"
import { afterAll } from "vitest"
import { describe, expect, it } from "../support/EffectTest.js"
import * as ReferenceService from "../support/ReferenceService.js"

/** Node 22.19 or later: where Effect 4's `@effect/platform-node`, and so the undici transport, runs. */
const undiciRuns = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
  return major > 22 || major === 22 && minor >= 19
})()

/** Runs `use` as if on `runtime` (`process.versions.bun` or `.deno` set), restoring it after. */
const asIf = <A, E, R>(runtime: "bun" | "deno", use: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => Object.defineProperty(process.versions, runtime, { value: "1.0.0", configurable: true })),
    () => use,
    () => Effect.sync(() => delete (process.versions as Record<string, string | undefined>)[runtime])
  )

const withServer = <A, E>(use: (server: ReferenceService.Bridged) => Effect.Effect<A, E>) =>
  ReferenceService.start({
    host: "127.0.0.1",
    port: 0,
    logRequests: false,
    seed: { seed: 3, transfers: 400, deposits: 0 },
    rateLimit: { limit: 100_000, window: "1 second" }
  }).pipe(Effect.flatMap(use), Effect.scoped)

const optionsFor = (server: ReferenceService.Bridged): Config.Config<BrokerConfig.Options> =>
  Config.succeed({
    baseUrl: server.baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    rateLimit: { limit: 5000, interval: "1 second" }
  })

/** Every transfer SPOT → FUTURES of the seeded history, through `layer`. */
const transfersThrough = <E>(layer: Layer.Layer<BrokerHistory.BrokerHistory, E, never>) =>
  BrokerHistory.BrokerHistory.use((history) =>
    Stream.runCollect(history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", since: 0 }))
  ).pipe(Effect.provide(layer))

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

/** `use`, and how many times it called `fetch`. */
const countingFetch = <A, E, R>(use: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const before = fetches
    return Effect.map(use, (result) => ({ result, calls: fetches - before }))
  })

const noProxy = ConfigProvider.layer(ConfigProvider.fromEnv({ env: { BROKER_PROXY: "none" } }))

describe("BrokerHistory.layerConfig on every runtime", () => {
  it.live("on Node (undici from 22.19, fetch before) and as if on Bun and Deno (fetch) it reads the same whole history, once each, ascending", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const layer = BrokerHistory.layerConfig(optionsFor(server)).pipe(Layer.provide(noProxy))
        const { calls: nodeFetches, result: onNode } = yield* countingFetch(transfersThrough(layer))
        const { calls: bunFetches, result: onBun } = yield* countingFetch(asIf("bun", transfersThrough(layer)))
        const { calls: denoFetches, result: onDeno } = yield* countingFetch(asIf("deno", transfersThrough(layer)))
        // Node's own undici on Node where Effect 4's platform-node runs; fetch for every request elsewhere.
        expect(nodeFetches === 0).toBe(undiciRuns)
        expect(bunFetches).toBeGreaterThan(1)
        expect(denoFetches).toBe(bunFetches)
        expect(onNode.length).toBeGreaterThan(10)
        expect(new Set(onNode.map((t) => t.tranId)).size).toBe(onNode.length)
        expect(onNode.every((t, i) => i === 0 || onNode[i - 1]!.timestamp <= t.timestamp)).toBe(true)
        expect(onBun).toEqual(onNode)
        expect(onDeno).toEqual(onNode)
      })
    ))

  it.live("as if on Bun, layerUndici fails at once saying what to use; nothing is sent", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const exit = yield* asIf(
          "bun",
          Effect.exit(transfersThrough(
            BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layerConfig(optionsFor(server))))
          ))
        )
        expect(Exit.isFailure(exit)).toBe(true)
        const text = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
        expect(text).toContain("BrokerHistory.layerUndici needs Node's undici")
        expect(text).toContain("and this is Bun")
        expect(text).toContain("BrokerHistory.layerConfig()")
        expect((yield* server.stats).requests).toBe(0)
      })
    ))

  it.live("as if on Deno, a proxy in BROKER_PROXY is refused at once (only the Node transport uses it)", () =>
    withServer((server) =>
      Effect.gen(function*() {
        const layer = BrokerHistory.layerConfig(optionsFor(server)).pipe(
          Layer.provide(
            ConfigProvider.layer(ConfigProvider.fromEnv({ env: { BROKER_PROXY: "http://127.0.0.1:3128" } }))
          )
        )
        const exit = yield* asIf("deno", Effect.exit(transfersThrough(layer)))
        const text = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
        expect(text).toContain("BROKER_PROXY names a proxy, which only the Node transport can use, and this is Deno")
        expect((yield* server.stats).requests).toBe(0)
      })
    ))
})
