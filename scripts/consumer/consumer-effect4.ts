// Consumer check (b), the Effect 4 line: consumer.ts's program in Effect 4 idioms, written against
// the INSTALLED @broker-history/client-effect4 and @broker-history/domain-effect4. run.sh
// type-checks it (tsc --noEmit, never run) under tsconfig.nodenext.json and tsconfig.bundler.json in
// the Effect 4 project: the layers, a page call, a stream, change elements with checkpoints, typed
// errors by tag, domain schemas; `Result` where Effect 3 has `Either`, `Config.ConfigError`, the
// `HttpClient` of `effect/http`.
import type { StreamOptions } from "@broker-history/client-effect4"
import { BrokerConfig, BrokerError, BrokerHistory, Checkpoint } from "@broker-history/client-effect4"
import { DepositRecord, TransferHistoryQuery, TransferRecord } from "@broker-history/domain-effect4"
import type { Config } from "effect"
import { Effect, Layer, Option, Redacted, Result, Schema, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import type * as HttpClient from "effect/http/HttpClient"

const config: Layer.Layer<BrokerConfig.BrokerConfig, Config.ConfigError> = BrokerConfig.layer({
  baseUrl: "http://127.0.0.1:8080",
  apiKey: Redacted.make("mx0vglDEMOKEY0000000000000000000"),
  secretKey: Redacted.make("45d0b3c26f2644f19bfb98b07741b2f5"),
  rateLimit: { limit: 500, interval: "1 second" },
  retry: { maxRetries: 2 }
})

// The layers' requirements as documented: the neutral one needs an effect/http HttpClient; the undici
// one fails with a ConfigError where undici cannot run, or when a proxy variable is malformed.
const neutral: Layer.Layer<BrokerHistory.BrokerHistory, never, BrokerConfig.BrokerConfig | HttpClient.HttpClient> =
  BrokerHistory.layer
const undici: Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig> =
  BrokerHistory.layerUndici
export const FetchLive = neutral.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
export const UndiciLive = undici.pipe(Layer.provide(config))
export const FromEnvironment: Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError> = BrokerHistory
  .layerConfig()

// One page; an authentication failure handled by its tag, every other error still typed.
export const firstPage: Effect.Effect<
  ReadonlyArray<TransferRecord.TransferRecord>,
  Exclude<BrokerError.BrokerError, BrokerError.AuthenticationError>,
  BrokerHistory.BrokerHistory
> = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const query: TransferHistoryQuery.TransferHistoryQuery = { fromAccountType: "SPOT", toAccountType: "FUTURES" }
  return yield* history.transferHistory({ ...query, limit: 100 })
}).pipe(
  Effect.catchTag("AuthenticationError", (error) => {
    const reason: "ApiKey" | "Signature" | "Permission" = error.reason
    return Effect.as(Effect.logError(`refused (${reason}): ${error.message}`), [])
  })
)

// A full-history stream over the documented options (Stream.runCollect gives an array on Effect 4).
const range: StreamOptions.TransferStreamQuery = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  toAccount: "sub001@broker.test",
  since: 0,
  until: new Date(),
  concurrency: 2
}
export const transferIds: Effect.Effect<ReadonlyArray<string>, BrokerError.BrokerError, BrokerHistory.BrokerHistory> =
  BrokerHistory.BrokerHistory.use((history) =>
    history.transfers(range).pipe(
      Stream.map(TransferRecord.key),
      Stream.runCollect
    )
  )

// Change elements carry a checkpoint to store; a stored one resumes the stream.
export const latestCheckpoint = (
  stored: string | undefined
): Effect.Effect<
  string | undefined,
  BrokerError.BrokerError | Checkpoint.CheckpointError,
  BrokerHistory.BrokerHistory
> =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const resume: Checkpoint.Checkpoint | undefined = stored === undefined
      ? undefined
      : yield* Effect.fromResult(Checkpoint.decode(stored))
    const changes: Stream.Stream<Checkpoint.Change<DepositRecord.DepositRecord>, BrokerError.BrokerError> = history
      .depositChanges({ coin: "USDT", resume })
    const last = yield* Stream.runLast(changes)
    return Option.isSome(last) ? Checkpoint.encode(last.value.checkpoint) : undefined
  })

// Domain schemas: decode a wire record, compare records, check a query without sending it.
export const decoded: Result.Result<DepositRecord.DepositRecord, Schema.SchemaError> = Schema.decodeUnknownResult(
  DepositRecord.DepositRecord
)({ amount: "1.5", coin: "USDT", status: 1, insertTime: 1_700_000_000_000 })
export const order: (a: TransferRecord.TransferRecord, b: TransferRecord.TransferRecord) => number =
  TransferRecord.compare
export const valid = TransferHistoryQuery.validate({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 501 })
export const rejected: boolean = Result.isFailure(valid)
export const retryable = (error: BrokerError.BrokerError): boolean => BrokerError.isRetryable(error)
