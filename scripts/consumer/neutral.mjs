// Consumer check (a'): the runtime-neutral path of the installed client. Imports only the
// client, the domain, effect and @effect/platform, builds `BrokerHistory.layer` over
// `FetchHttpClient.layer` and reads one page from the reference service at BROKER_BASE_URL
// (started beforehand by run.sh in another process). Run with
// `node --import ./record-loads-register.mjs neutral.mjs`, which fails the run if any Node-only
// module was loaded. This file itself imports nothing from Node.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { TransferRecord } from "@broker-history/domain"
// The subpath, not the "@effect/platform" barrel: on Node the barrel also loads MsgPack, whose
// msgpackr dependency resolves to its Node entry (node:module, node:stream).
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Effect, Layer, Redacted } from "effect"

const live = BrokerHistory.layer.pipe(
  Layer.provide(BrokerConfig.layer({
    baseUrl: process.env.BROKER_BASE_URL,
    apiKey: Redacted.make(process.env.BROKER_API_KEY ?? ""),
    secretKey: Redacted.make(process.env.BROKER_SECRET_KEY ?? "")
  })),
  Layer.provide(FetchHttpClient.layer)
)

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  return yield* history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })
})

try {
  const page = await Effect.runPromise(Effect.provide(program, live))
  if (page.length === 0) throw new Error("transferHistory returned an empty page")
  const sorted = [...page].sort(TransferRecord.compare)
  console.log(
    `neutral: one transferHistory page over fetch: ${page.length} records, ${sorted[0].timestamp}..${
      sorted.at(-1).timestamp
    }`
  )
} catch (error) {
  console.error(`neutral: FAILED: ${error?.stack ?? error}`)
  process.exitCode = 1
}
