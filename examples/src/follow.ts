// A long-running process: follow the deposit history, apply new deposits and status changes, and
// keep a checkpoint so that a restart continues exactly where the last run stopped.
//   BROKER_API_KEY=… BROKER_SECRET_KEY=… CHECKPOINT_FILE=deposits.json npx tsx examples/src/follow.ts
import { BrokerHistory, Checkpoint } from "@broker-history/client"
import { DepositRecord } from "@broker-history/domain"
import { NodeRuntime } from "@effect/platform-node"
import { Chunk, Console, Effect, Stream } from "effect"
import * as fs from "node:fs"

const file = process.env.CHECKPOINT_FILE ?? "deposits.checkpoint.json"

const load = Effect.gen(function*() {
  if (!fs.existsSync(file)) return undefined
  // A damaged file fails with a CheckpointError saying what is wrong with it (delete it to start over).
  return yield* Checkpoint.decode(fs.readFileSync(file, "utf8"))
})

// Write-then-rename: a crash leaves the old checkpoint or the new one, never half of one.
const save = (checkpoint: Checkpoint.Checkpoint) =>
  Effect.sync(() => {
    fs.writeFileSync(`${file}.tmp`, Checkpoint.encode(checkpoint))
    fs.renameSync(`${file}.tmp`, file)
  })

const program = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const resume = yield* load
  yield* history.depositChanges({
    since: "2025-01-01T00:00:00Z", // used on the first run; later runs resume from the checkpoint
    resume,
    follow: { interval: "30 seconds", settlement: "2 days" }
  }).pipe(
    Stream.groupedWithin(500, "1 second"),
    Stream.runForEach((batch) =>
      Effect.gen(function*() {
        for (const { kind, record } of batch) {
          // Apply each change where it belongs (an upsert keyed by DepositRecord.key).
          yield* Console.log(
            `${kind} ${record.txId} ${record.amount} ${record.coin} ${DepositRecord.statusName(record.status)}`
          )
        }
        // Store the checkpoint after the batch is applied (in the same transaction, with a database).
        const last = Chunk.last(batch)
        if (last._tag === "Some") yield* save(last.value.checkpoint)
      })
    )
  )
})

// runMain interrupts the stream on SIGINT/SIGTERM: polling stops, the request in flight is aborted.
NodeRuntime.runMain(program.pipe(Effect.provide(BrokerHistory.layerConfig())))
