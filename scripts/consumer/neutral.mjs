// Consumer check (a'): the runtime-neutral path of a line's installed client (the project's line.mjs:
// the Effect 3 or the Effect 4 line). Imports only the line's client and domain, effect and its
// FetchHttpClient, builds `BrokerHistory.layer` over `FetchHttpClient.layer` and reads one page from
// the reference service at BROKER_BASE_URL (started beforehand by run.sh in another process). Run
// with `node --import ./record-loads-register.mjs neutral.mjs`, which fails the run if any Node-only
// module was loaded. This file itself imports nothing from Node.
import { Effect, Layer, Redacted } from "effect"
import { BrokerConfig, BrokerHistory, FetchHttpClient, line, TransferRecord } from "./line.mjs"

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
    `neutral (${line}): one transferHistory page over fetch: ${page.length} records, ${sorted[0].timestamp}..${
      sorted.at(-1).timestamp
    }`
  )
} catch (error) {
  console.error(`neutral (${line}): FAILED: ${error?.stack ?? error}`)
  process.exitCode = 1
}
