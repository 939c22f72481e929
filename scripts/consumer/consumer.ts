// Consumer check (b): a TypeScript program written against the INSTALLED packages' public types.
// run.sh type-checks it (tsc --noEmit, never run) under tsconfig.nodenext.json and
// tsconfig.bundler.json in the scratch project. Every line uses the API a user would: the layers,
// a page call, a stream, change elements with checkpoints, typed errors by tag, domain schemas.
import type { StreamOptions } from "@broker-history/client"
import { BrokerConfig, BrokerError, BrokerHistory, Checkpoint } from "@broker-history/client"
import { DepositRecord, TransferHistoryQuery, TransferRecord } from "@broker-history/domain"
import { FetchHttpClient } from "@effect/platform"
import type * as HttpClient from "@effect/platform/HttpClient"
import type { ConfigError, Either } from "effect"
import { Chunk, Effect, Layer, Redacted, Schema, Stream } from "effect"

const config: Layer.Layer<BrokerConfig.BrokerConfig, unknown> = BrokerConfig.layer({
  baseUrl: "http://127.0.0.1:8080",
  apiKey: Redacted.make("mx0vglDEMOKEY0000000000000000000"),
  secretKey: Redacted.make("45d0b3c26f2644f19bfb98b07741b2f5"),
  rateLimit: { limit: 500, interval: "1 second" },
  retry: { maxRetries: 2 }
})

// The layers' requirements as documented: the neutral one needs a platform HttpClient; the undici one
// reads the proxy variables when built, so a malformed one is a ConfigError.
const neutral: Layer.Layer<BrokerHistory.BrokerHistory, never, BrokerConfig.BrokerConfig | HttpClient.HttpClient> =
  BrokerHistory.layer
const undici: Layer.Layer<BrokerHistory.BrokerHistory, ConfigError.ConfigError, BrokerConfig.BrokerConfig> =
  BrokerHistory.layerUndici
export const FetchLive = neutral.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))
export const UndiciLive = undici.pipe(Layer.provide(config))
export const FromEnvironment = BrokerHistory.layerConfig()

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

// A full-history stream over the documented options.
const range: StreamOptions.TransferStreamQuery = {
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  toAccount: "sub001@broker.test",
  since: 0,
  until: new Date(),
  concurrency: 2
}
export const transferIds: Effect.Effect<ReadonlyArray<string>, BrokerError.BrokerError, BrokerHistory.BrokerHistory> =
  Effect.flatMap(
    BrokerHistory.BrokerHistory,
    (history) =>
      history.transfers(range).pipe(
        Stream.map(TransferRecord.key),
        Stream.runCollect,
        Effect.map(Chunk.toReadonlyArray)
      )
  )

// Change elements carry a checkpoint to store; a stored one resumes the stream.
export const latestCheckpoint = (
  stored: string | undefined
): Effect.Effect<string | undefined, BrokerError.BrokerError, BrokerHistory.BrokerHistory> =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    const resume: Checkpoint.Checkpoint | undefined = stored === undefined
      ? undefined
      : Schema.decodeUnknownSync(Checkpoint.Checkpoint)(JSON.parse(stored))
    const changes: Stream.Stream<Checkpoint.Change<DepositRecord.DepositRecord>, BrokerError.BrokerError> = history
      .depositChanges({ coin: "USDT", resume })
    const last = yield* Stream.runLast(changes)
    return last._tag === "Some" ? Checkpoint.encode(last.value.checkpoint) : undefined
  })

// Domain schemas: decode a wire record, compare records, check a query without sending it.
export const decoded: Either.Either<DepositRecord.DepositRecord, unknown> = Schema.decodeUnknownEither(
  DepositRecord.DepositRecord
)({ amount: "1.5", coin: "USDT", status: 1, insertTime: 1_700_000_000_000 })
export const order: (a: TransferRecord.TransferRecord, b: TransferRecord.TransferRecord) => number =
  TransferRecord.compare
export const valid = TransferHistoryQuery.validate({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 501 })
export const retryable = (error: BrokerError.BrokerError): boolean => BrokerError.isRetryable(error)
