/**
 * The endpoint calls: one page of transfer or deposit history, validated before anything is sent.
 *
 * @since 0.1.0
 */
import type { DepositRecord as DepositRecordNs, TransferRecord as TransferRecordNs } from "@broker-history/domain"
import {
  DepositHistoryQuery,
  DepositRecord,
  Endpoint,
  TransferHistoryQuery,
  TransferRecord
} from "@broker-history/domain"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as BrokerConfig from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import { InvalidQuery } from "./BrokerError.js"
import * as BrokerHttpClient from "./BrokerHttpClient.js"
import * as ServerClock from "./ServerClock.js"
import * as Signer from "./Signer.js"

/**
 * The broker history service.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect } from "effect"
 * const program = Effect.gen(function*() {
 *   const history = yield* BrokerHistory.BrokerHistory
 *   const page = yield* history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })
 *   return page.length
 * })
 */
export class BrokerHistory extends Context.Tag("@broker-history/client/BrokerHistory")<BrokerHistory, {
  /**
   * One request to the transfer-history endpoint with exactly the parameters given (validated first:
   * a bad parameter fails with `InvalidQuery` and sends nothing).
   */
  readonly transferHistory: (
    query: TransferHistoryQuery.TransferHistoryQuery
  ) => Effect.Effect<ReadonlyArray<TransferRecordNs.TransferRecord>, BrokerError>
  /**
   * One request to the deposit-history endpoint with exactly the parameters given (validated first).
   */
  readonly depositHistory: (
    query: DepositHistoryQuery.DepositHistoryQuery
  ) => Effect.Effect<ReadonlyArray<DepositRecordNs.DepositRecord>, BrokerError>
}>() {}

/**
 * Records received, tagged with `endpoint`.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * import { Metric } from "effect"
 * const received = Metric.value(BrokerHistory.recordsReceived)
 */
export const recordsReceived = Metric.counter("broker_history_records_total", {
  description: "records received",
  incremental: true
})

const invalid = (endpoint: string) => (violation: { readonly parameter: string; readonly rule: string }) =>
  new InvalidQuery({ endpoint, parameter: violation.parameter, rule: violation.rule })

/**
 * Builds the service over `BrokerHttpClient`.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * const make = BrokerHistory.make
 */
export const make = Effect.gen(function*() {
  const http = yield* BrokerHttpClient.BrokerHttpClient
  const transfersReceived = Metric.tagged(recordsReceived, "endpoint", Endpoint.transferHistory.name)
  const depositsReceived = Metric.tagged(recordsReceived, "endpoint", Endpoint.depositHistory.name)

  const transferHistory = (query: TransferHistoryQuery.TransferHistoryQuery) =>
    Effect.suspend(() => {
      const valid = Either.mapLeft(TransferHistoryQuery.validate(query), invalid(Endpoint.transferHistory.name))
      if (Either.isLeft(valid)) return Effect.fail(valid.left)
      return http.get(Endpoint.transferHistory, TransferHistoryQuery.toParams(valid.right), TransferRecord.TransferPage)
        .pipe(Effect.tap((page) => Metric.incrementBy(transfersReceived, page.length)))
    })

  const depositHistory = (query: DepositHistoryQuery.DepositHistoryQuery) =>
    Effect.suspend(() => {
      const valid = Either.mapLeft(DepositHistoryQuery.validate(query), invalid(Endpoint.depositHistory.name))
      if (Either.isLeft(valid)) return Effect.fail(valid.left)
      return http.get(Endpoint.depositHistory, DepositHistoryQuery.toParams(valid.right), DepositRecord.DepositPage)
        .pipe(Effect.tap((page) => Metric.incrementBy(depositsReceived, page.length)))
    })

  return BrokerHistory.of({ transferHistory, depositHistory })
})

/**
 * The service over a `BrokerHttpClient`.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * const HistoryLive = BrokerHistory.layer // needs BrokerHttpClient
 */
export const layer: Layer.Layer<BrokerHistory, never, BrokerHttpClient.BrokerHttpClient> = Layer.effect(
  BrokerHistory,
  make
)

/**
 * Everything from a `BrokerConfig` layer except the transport: signer (HMAC-SHA256), server clock,
 * request pipeline and the service. Provide an `HttpClient` (undici, fetch, or a mock in tests).
 *
 * @example
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { FetchHttpClient } from "@effect/platform"
 * import { Layer, Redacted } from "effect"
 * const HistoryLive = BrokerHistory.layerWith(
 *   BrokerConfig.layer({ apiKey: Redacted.make("k"), secretKey: Redacted.make("s") })
 * ).pipe(Layer.provide(FetchHttpClient.layer))
 */
export const layerWith = <E, R>(
  config: Layer.Layer<BrokerConfig.BrokerConfig, E, R>
): Layer.Layer<BrokerHistory, E, R | HttpClient.HttpClient> =>
  layer.pipe(
    Layer.provide(BrokerHttpClient.layer),
    Layer.provide(Layer.mergeAll(Signer.layerHmacSha256, ServerClock.layer)),
    Layer.provide(config)
  )

/**
 * The service from options over Node's undici transport.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * import { Redacted } from "effect"
 * const HistoryLive = BrokerHistory.layerOptions({ apiKey: Redacted.make("k"), secretKey: Redacted.make("s") })
 */
export const layerOptions = (
  options: BrokerConfig.Options
): Layer.Layer<BrokerHistory, ConfigError.ConfigError> =>
  layerWith(BrokerConfig.layer(options)).pipe(Layer.provide(NodeHttpClient.layerUndici))

/**
 * The service wired entirely from the environment (`BROKER_*` variables) over Node's undici.
 *
 * @example
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect } from "effect"
 * declare const program: Effect.Effect<void, never, BrokerHistory.BrokerHistory>
 * program.pipe(Effect.provide(BrokerHistory.layerConfig))
 */
export const layerConfig: Layer.Layer<BrokerHistory, ConfigError.ConfigError> = layerWith(BrokerConfig.layerConfig)
  .pipe(Layer.provide(NodeHttpClient.layerUndici))
