// The whole broker: list its sub-accounts, plan the transfer streams that cover them (master↔sub and
// the master's own, every ordered pair of account types), and read each from its sub-account's creation.
//   BROKER_API_KEY=… BROKER_SECRET_KEY=… npx tsx examples/src/wholeBroker.ts
import { BrokerHistory, TransferPlan } from "@broker-history/client"
import { Console, Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  // Every page of the list (200 a page), each sub-account once, with its creation time when the service gives one.
  const listed = yield* Stream.runCollect(history.subAccounts())
  const planned = TransferPlan.ofSubAccounts(listed, ["SPOT", "FUTURE"])
  const since = Date.parse("2025-01-01T00:00:00Z")
  yield* Console.log(`${listed.length} sub-accounts: ${planned.length} transfer streams`)
  // One stream at a time here; `followTransfers` follows them all with one schedule.
  const counts = yield* Effect.forEach(
    planned,
    ({ key, query, startsAt }) =>
      history.transfers({ ...query, since: Math.max(since, startsAt ?? since) }).pipe(
        Stream.runCount,
        Effect.map((count) => [key, count] as const)
      )
  )
  for (const [key, count] of counts) if (count > 0) yield* Console.log(`${key}: ${count}`)
})

program.pipe(Effect.provide(BrokerHistory.layerConfig()), Effect.runPromise)
