// The complete transfer history of one account pair on Effect 4, as a lazy stream in ascending time order.
//   BROKER_API_KEY=… BROKER_SECRET_KEY=… npx tsx examples-effect4/src/fullHistory.ts
import { BrokerHistory } from "@broker-history/client-effect4"
import { Console, Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const count = yield* history.transfers({
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    toAccount: "sub1@example.com", // omitted account = the master account
    since: "2024-01-01T00:00:00Z", // `until` defaults to the server's now, pinned at start
    concurrency: 4 // fetch up to 4 windows ahead; output order is unchanged
  }).pipe(
    Stream.tap((t) => Console.log(`${new Date(t.timestamp).toISOString()} ${t.tranId} ${t.amount} ${t.asset}`)),
    Stream.runCount
  )
  yield* Console.log(`${count} transfers`)
})

program.pipe(Effect.provide(BrokerHistory.layerConfig()), Effect.runPromise)
