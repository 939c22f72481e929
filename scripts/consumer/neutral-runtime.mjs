// Consumer check (g): the installed client on Bun and Deno (also runs on Node). Reads one
// `transferHistory` page and the first 50 deposits of the last 60 days as a full-history stream from
// the reference service at BROKER_BASE_URL (run by run.sh under Node), twice: through
// `BrokerHistory.layer` over `FetchHttpClient.layer`, and through the README's ready layer,
// `BrokerHistory.layerConfig()` (the BROKER_* variables; fetch on Bun and Deno). Records coming back
// means the service accepted the WebCrypto HMAC signatures and fetch works on this runtime. Imports
// nothing from Node.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Chunk, Effect, Layer, Redacted, Stream } from "effect"

const runtime = globalThis.Bun !== undefined
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno !== undefined
  ? `deno ${globalThis.Deno.version.deno}`
  : `node ${globalThis.process.versions.node}`
const env = (name) => globalThis.Deno !== undefined ? globalThis.Deno.env.get(name) : globalThis.process.env[name]

const live = BrokerHistory.layer.pipe(
  Layer.provide(BrokerConfig.layer({
    baseUrl: env("BROKER_BASE_URL"),
    apiKey: Redacted.make(env("BROKER_API_KEY") ?? ""),
    secretKey: Redacted.make(env("BROKER_SECRET_KEY") ?? ""),
    retry: { maxRetries: 2 }
  })),
  Layer.provide(FetchHttpClient.layer)
)

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const page = yield* history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })
  const deposits = yield* Stream.runCollect(
    history.deposits({ since: Date.now() - 60 * 86_400_000 }).pipe(Stream.take(50))
  )
  return { page: page.length, deposits: Chunk.size(deposits) }
})

const fail = (message) => {
  console.error(`neutral-runtime (${runtime}): FAILED: ${message}`)
  if (globalThis.Deno !== undefined) globalThis.Deno.exit(1)
  globalThis.process.exit(1)
}

try {
  const { deposits, page } = await Effect.runPromise(Effect.provide(program, live))
  if (page === 0) fail("transferHistory returned an empty page")
  if (deposits === 0) fail("the deposits stream returned nothing for the last 60 days")
  const ready = await Effect.runPromise(Effect.provide(program, BrokerHistory.layerConfig()))
  if (ready.page !== page || ready.deposits !== deposits) {
    fail(
      `BrokerHistory.layerConfig() read ${ready.page} transfers and ${ready.deposits} deposits, the layer over fetch ${page} and ${deposits}`
    )
  }
  console.log(
    `neutral-runtime (${runtime}): OK: transferHistory page of ${page}, deposits stream took ${deposits}, the same through BrokerHistory.layerConfig()`
  )
} catch (error) {
  fail(error?.stack ?? String(error))
}
