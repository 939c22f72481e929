// One page of each history on Effect 4, with typed error handling. Against the bundled reference service:
//   BROKER_BASE_URL=http://127.0.0.1:8080 BROKER_API_KEY=… BROKER_SECRET_KEY=… npx tsx examples-effect4/src/pages.ts
import { BrokerHistory } from "@broker-history/client-effect4"
import { DepositRecord } from "@broker-history/domain-effect4"
import { Console, Effect } from "effect"

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory

  const transfers = yield* history.transferHistory({
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    startTime: Date.parse("2026-01-01T00:00:00Z"),
    endTime: Date.parse("2026-02-01T00:00:00Z"),
    limit: 500
  })
  for (const t of transfers) {
    yield* Console.log(`${new Date(t.timestamp).toISOString()} ${t.tranId} ${t.amount} ${t.asset} ${t.status}`)
  }

  const deposits = yield* history.depositHistory({ coin: "USDT", limit: 1000 })
  for (const d of deposits) {
    yield* Console.log(`${d.txId} ${d.amount} ${d.coin} ${DepositRecord.statusName(d.status)}`)
  }
}).pipe(
  Effect.catchTags({
    InvalidQuery: (e) => Console.error(`fix the query: ${e.message}`),
    AuthenticationError: (e) => Console.error(`credentials: ${e.message}`),
    RateLimited: (e) => Console.error(`slow down: retry after ${e.retryAfterMillis} ms`)
  })
)

// Everything from BROKER_* environment variables: undici on Node, fetch on Bun and Deno.
program.pipe(Effect.provide(BrokerHistory.layerConfig()), Effect.runPromise)
