/**
 * The endpoint calls: one page of transfer or deposit history, validated before anything is sent,
 * and the full-history streams over them (their options are in `StreamOptions`).
 *
 * @since 0.2.0
 */
import type {
  DepositHistoryQuery,
  DepositRecord,
  TransferHistoryQuery,
  TransferRecord
} from "@broker-history/domain-effect4"
import type { SubAccount, SubAccountListQuery } from "@broker-history/domain-effect4"
import type * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type * as Metric from "effect/Metric"
import type * as Stream from "effect/Stream"
import * as BrokerConfig from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import * as BrokerHttpClient from "./BrokerHttpClient.js"
import type * as Checkpoint from "./Checkpoint.js"
import type * as FollowScheduler from "./FollowScheduler.js"
import * as HttpProxy from "./HttpProxy.js"
import * as Service from "./internal/history/Service.js"
import * as Metrics from "./internal/line/Metrics.js"
import * as SettingsCheck from "./internal/line/SettingsCheck.js"
import * as Runtime from "./internal/Runtime.js"
import * as ServerClock from "./ServerClock.js"
import * as Signer from "./Signer.js"
import type { ChangeOptions, DepositStreamQuery, SubAccountOptions, TransferStreamQuery } from "./StreamOptions.js"

/**
 * A full-history stream of one endpoint (`BrokerHistory.transfers`, `BrokerHistory.deposits`): its
 * records of the range asked for, every one once, ascending by time.
 *
 * @example
 * ```ts
 * import type { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import type { TransferRecord } from "@broker-history/domain-effect4"
 * import { Stream } from "effect"
 *
 * const none: BrokerHistory.Records<StreamOptions.TransferStreamQuery, TransferRecord.TransferRecord> = () => Stream.empty
 * assert.strictEqual(typeof none, "function")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Records<Q, A> = (query: Q) => Stream.Stream<A, BrokerError>

/**
 * A full-history stream of changes of one endpoint (`BrokerHistory.transferChanges`,
 * `BrokerHistory.depositChanges`): each record with its kind and the checkpoint to resume after it.
 *
 * @example
 * ```ts
 * import type { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import type { DepositRecord } from "@broker-history/domain-effect4"
 * import { Stream } from "effect"
 *
 * const none: BrokerHistory.Changes<StreamOptions.DepositStreamQuery, DepositRecord.DepositRecord> = () => Stream.empty
 * assert.strictEqual(typeof none, "function")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Changes<Q, A> = (query: Q & ChangeOptions) => Stream.Stream<Checkpoint.Change<A>, BrokerError>

/**
 * Many change streams of one endpoint followed together (`BrokerHistory.followTransfers`,
 * `BrokerHistory.followDeposits`): one merged stream, each change tagged with its stream's id `K`.
 *
 * @example
 * ```ts
 * import type { BrokerHistory, StreamOptions } from "@broker-history/client-effect4"
 * import type { TransferRecord } from "@broker-history/domain-effect4"
 * import { Stream } from "effect"
 *
 * const none: BrokerHistory.Follow<StreamOptions.TransferStreamQuery, TransferRecord.TransferRecord> = () => Stream.empty
 * assert.strictEqual(typeof none, "function")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Follow<Q, A> = <K>(
  streams: Iterable<FollowScheduler.Query<K, Q>>,
  options?: FollowScheduler.FollowOptions
) => Stream.Stream<FollowScheduler.Change<K, A>, BrokerError>

/**
 * Whether the layer's service is answering, for a supervisor (a health endpoint, an alert): when a
 * request of this layer last succeeded and, during an outage, since when it lasts and what failed.
 * Every request of the layer counts, page calls and streams alike. An outage starts when a request
 * fails after its retries with a transient error (5xx, 429/418, transport, damaged body) and ends
 * with the next success; permanent failures (a bad key, a bad query) do not count.
 *
 * @example
 * ```ts
 * import type { BrokerHistory } from "@broker-history/client-effect4"
 *
 * const healthy = (a: BrokerHistory.Availability, now: number) =>
 *   a.unavailableSince === undefined || now - a.unavailableSince < 5 * 60_000
 * assert.strictEqual(healthy({ lastSuccess: 1_000, unavailableSince: undefined, lastFailure: undefined }, 2_000), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Availability {
  /** When a request of this layer was last answered successfully (Unix ms); `undefined` before the first. */
  readonly lastSuccess: number | undefined
  /** When the current outage started (Unix ms): the first transient failure since the last success. */
  readonly unavailableSince: number | undefined
  /** The one-line message of the failure that started the current outage. */
  readonly lastFailure: string | undefined
}

/**
 * The broker history service:
 *
 * - `transferHistory` / `depositHistory`: one request with exactly the parameters given, validated
 *   first (a bad parameter fails with `InvalidQuery` and nothing is sent).
 * - `transfers` / `deposits`: the complete history of the range as a lazy stream: every record once,
 *   ascending by time (ties by id), in bounded memory. It ends at `until`.
 * - `transferChanges` / `depositChanges`: the same, each record with `kind` and the checkpoint to
 *   resume after it; with `follow` it never ends and also emits updates of records already seen.
 * - `followTransfers` / `followDeposits`: many change streams followed on the layer's one budget.
 * - `subAccountList`: one page of the broker's sub-account list, validated first; `subAccounts`: the
 *   whole list as a lazy stream, each sub-account once (what `TransferPlan` plans streams from).
 * - `availability`: whether the service is answering this layer's requests (for a supervisor).
 * - `incomplete`: how many crowded milliseconds this layer's streams went on without all their
 *   records (`onIncomplete: "warn"`).
 *
 * A following stream rides out transient failures: a request that failed after its retries is tried
 * again, backing off up to `retry.followMaxDelay`, until the service answers; only a permanent
 * failure ends it. Each outage is logged once when it starts and once when it ends, per layer.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client-effect4"
 * import { Console, Effect, Stream } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const history = yield* BrokerHistory.BrokerHistory
 *   // One page, exactly as asked:
 *   const page = yield* history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })
 *   yield* Console.log(`${page.length} transfers on the first page`)
 *   // The whole range, every record once, in time order:
 *   yield* history.deposits({ coin: "USDT", since: "2025-01-01" }).pipe(
 *     Stream.runForEach((deposit) => Console.log(deposit.insertTime, deposit.amount, deposit.status))
 *   )
 * })
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class BrokerHistory extends Context.Service<BrokerHistory, {
  /**
   * One request to the transfer-history endpoint with exactly the parameters given (validated first:
   * a bad parameter fails with `InvalidQuery` and sends nothing).
   */
  readonly transferHistory: (
    query: TransferHistoryQuery.TransferHistoryQuery
  ) => Effect.Effect<ReadonlyArray<TransferRecord.TransferRecord>, BrokerError>
  /**
   * One request to the deposit-history endpoint with exactly the parameters given (validated first).
   */
  readonly depositHistory: (
    query: DepositHistoryQuery.DepositHistoryQuery
  ) => Effect.Effect<ReadonlyArray<DepositRecord.DepositRecord>, BrokerError>
  /**
   * The complete transfer history of the range as a lazy stream: every record once, ascending by
   * time (ties by id), in bounded memory. It ends at `until`; `transferChanges` can follow.
   */
  readonly transfers: Records<TransferStreamQuery, TransferRecord.TransferRecord>
  /**
   * As `transfers`, each record with `kind` and the checkpoint to resume after it; with `follow`
   * it never ends (transient failures are ridden out) and also emits updates of records already seen.
   */
  readonly transferChanges: Changes<TransferStreamQuery, TransferRecord.TransferRecord>
  /** The complete deposit history of the range as a lazy stream (see `transfers`). */
  readonly deposits: Records<DepositStreamQuery, DepositRecord.DepositRecord>
  /** As `deposits`, each record with `kind` and the checkpoint to resume after it (see `transferChanges`). */
  readonly depositChanges: Changes<DepositStreamQuery, DepositRecord.DepositRecord>
  /**
   * Follows many transfer streams on the layer's one budget (`FollowScheduler`): one merged stream
   * of changes, each tagged with its stream's id and that stream's checkpoint; busy streams are
   * polled more often than quiet ones, which back off to `maxInterval`. Never ends: transient
   * failures are ridden out, a permanent one ends it.
   */
  readonly followTransfers: Follow<TransferStreamQuery, TransferRecord.TransferRecord>
  /** Follows many deposit streams on the layer's one budget (see `followTransfers`). */
  readonly followDeposits: Follow<DepositStreamQuery, DepositRecord.DepositRecord>
  /**
   * One request to the broker's sub-account list with exactly the parameters given (validated first:
   * a bad parameter fails with `InvalidQuery` and sends nothing); `{}` is the service's first page of 10.
   */
  readonly subAccountList: (
    query?: SubAccountListQuery.SubAccountListQuery
  ) => Effect.Effect<ReadonlyArray<SubAccount.SubAccount>, BrokerError>
  /**
   * The broker's whole sub-account list as a lazy stream: pages of 200 (the most the service allows)
   * until the first short page, each sub-account once in the service's order. It keeps the names read
   * and one page: a list longer than `maxSubAccounts` (default 100,000), or one that does not end,
   * fails with `SubAccountListTooLong`.
   */
  readonly subAccounts: (options?: SubAccountOptions) => Stream.Stream<SubAccount.SubAccount, BrokerError>
  /**
   * Whether the service is answering this layer's requests now: the last success and the current
   * outage, if any (see `Availability`).
   */
  readonly availability: Effect.Effect<Availability>
  /**
   * How many crowded milliseconds this layer's streams went on without all their records so far
   * (`onIncomplete: "warn"`; each also logged and counted in `incompleteMilliseconds`): 0 when every
   * stream read every record it was asked for.
   */
  readonly incomplete: Effect.Effect<number>
}>()("@broker-history/client-effect4/BrokerHistory") {}

/**
 * Records received, tagged with `endpoint`.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client-effect4"
 * import { Effect, Metric } from "effect"
 *
 * const depositsReceived = Metric.value(Metric.withAttributes(BrokerHistory.recordsReceived, { endpoint: "depositHistory" }))
 * const { count } = Effect.runSync(depositsReceived)
 * assert.strictEqual(typeof count, "number")
 * ```
 *
 * @since 0.2.0
 * @category metrics
 */
export const recordsReceived: Metric.Counter<number> = Metrics.recordsReceived

/**
 * Crowded milliseconds a stream went on without all their records (`onIncomplete: "warn"`: the
 * service did not page through them), tagged with `endpoint`.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client-effect4"
 * import { Effect, Metric } from "effect"
 *
 * const transfers = Metric.value(
 *   Metric.withAttributes(BrokerHistory.incompleteMilliseconds, { endpoint: "transferHistory" })
 * )
 * assert.strictEqual(Effect.runSync(transfers).count, 0)
 * ```
 *
 * @since 0.2.0
 * @category metrics
 */
export const incompleteMilliseconds: Metric.Counter<number> = Metrics.incompleteMilliseconds

/**
 * Builds the service over `BrokerHttpClient`.
 *
 * @example
 * ```ts
 * import { BrokerHistory, BrokerHttpClient, ServerClock, Signer } from "@broker-history/client-effect4"
 * import { Layer } from "effect"
 *
 * // As `BrokerHistory.layer`, with the local clock trusted for "now" (no server-time request for it).
 * const HistoryWithLocalClock = Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
 *   Layer.provide(ServerClock.layerFixed(0)),
 *   Layer.provide(BrokerHttpClient.layer),
 *   Layer.provide(Signer.layerHmacSha256)
 * )
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const make: Effect.Effect<
  BrokerHistory["Service"],
  never,
  BrokerHttpClient.BrokerHttpClient | BrokerConfig.BrokerConfig | ServerClock.ServerClock
> = Effect.gen(function*() {
  const http = yield* BrokerHttpClient.BrokerHttpClient
  const config = yield* BrokerConfig.BrokerConfig
  const clock = yield* ServerClock.ServerClock
  return BrokerHistory.of(Service.make(http, config, clock))
})

/**
 * The service over any platform `HttpClient` (`FetchHttpClient.layer`,
 * `NodeTransport.layerPlatformHttpClient`, a mock): the request pipeline, WebCrypto HMAC-SHA256 signing and the server clock included. Runs
 * on any runtime with WebCrypto and `fetch`.
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
 * import { Effect, Layer, Redacted } from "effect"
 * import { FetchHttpClient, HttpClient, HttpClientResponse } from "effect/http"
 *
 * const ConfigLive = BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") })
 * const HistoryLive = BrokerHistory.layer.pipe(Layer.provide(ConfigLive), Layer.provide(FetchHttpClient.layer))
 *
 * // The same service over a stand-in that answers every request with an empty page:
 * const NoRecords = Layer.succeed(
 *   HttpClient.HttpClient,
 *   HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("[]"))))
 * )
 * const HistoryTest = BrokerHistory.layer.pipe(Layer.provide(ConfigLive), Layer.provide(NoRecords))
 * const page = await BrokerHistory.BrokerHistory.use((history) =>
 *   history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES" })
 * ).pipe(Effect.provide(HistoryTest), Effect.runPromise)
 * assert.deepStrictEqual(page, [])
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layer: Layer.Layer<BrokerHistory, never, BrokerConfig.BrokerConfig | HttpClient.HttpClient> = Layer
  .effect(BrokerHistory, make).pipe(
    Layer.provide(BrokerHttpClient.layer),
    Layer.provide(Signer.layerHmacSha256)
  )

/**
 * The service over Node's undici with its own connection pool (closed with the layer): the fastest
 * transport on Node, with `node:crypto` signing (loaded when the layer is built, so importing this
 * module loads nothing Node-only). Requests go through the proxy the environment names
 * (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`); `NodeTransport.layerProxy` takes another. Built on
 * another runtime (Bun, Deno, a browser) it fails at once with a `ConfigError` saying what to use.
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const HistoryLive = BrokerHistory.layerUndici.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }))
 * )
 * // A query that breaks a rule fails before anything is sent:
 * const error = await BrokerHistory.BrokerHistory.use((history) => history.depositHistory({ coin: "USDT", limit: 5000 }))
 *   .pipe(Effect.provide(HistoryLive), Effect.flip, Effect.runPromise)
 * assert.strictEqual(
 *   error.message,
 *   "Invalid depositHistory query: limit must be an integer from 1 to 1000. Nothing was sent; fix limit."
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerUndici: Layer.Layer<BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig> = Layer
  .unwrap(Effect.suspend(() =>
    Runtime.onNode()
      ? Effect.map(nodeClient, (node) => layerOver(node.layerProxy(HttpProxy.environment, process.env)))
      : Effect.fail(SettingsCheck.configError(Runtime.undiciElsewhere()))
  ))

/** The service over the client and server clock that `client` gives (the Node transport's). */
const layerOver = <E, R>(
  client: Layer.Layer<BrokerHttpClient.BrokerHttpClient | ServerClock.ServerClock, E, R>
): Layer.Layer<BrokerHistory, E, R | BrokerConfig.BrokerConfig> =>
  Layer.effect(BrokerHistory, make).pipe(Layer.provide(client))

/** The client over undici (`NodeTransport`'s), loaded on first use (`layerUndici`, `layerConfig` on Node). */
const nodeClient = Effect.tryPromise({
  try: () => import("./internal/request/NodeClient.js"),
  catch: (cause) => Runtime.transportNotLoaded(cause, "")
}).pipe(Effect.orDie)

// fetch must not follow a redirect: it would carry the key header wherever `Location` points
// (docs/architecture.md, "Redirects").
const fetchTransport = (
  proxy: HttpProxy.HttpProxy
): Layer.Layer<BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig> =>
  proxy._tag === "Url"
    ? Layer.unwrap(Effect.fail(SettingsCheck.configError(Runtime.proxyElsewhere(HttpProxy.env.proxy))))
    : layer.pipe(
      Layer.provide(FetchHttpClient.layer),
      Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "manual" }))
    )

/**
 * The service with everything provided, settings from `config` (by default `BrokerConfig.config`: the
 * `BROKER_*` variables; or your own `Config`s, as `BrokerConfig.layerConfig` takes them) and the proxy
 * from `BROKER_PROXY` (see `HttpProxy.config`). On Node it runs over undici (as `layerUndici`); on
 * Bun, Deno and other runtimes over `fetch`, never following redirects. The one-line set-up.
 *
 * @example
 * ```ts
 * import { BrokerError, BrokerHistory } from "@broker-history/client-effect4"
 * import { Config, Console, Effect, Stream } from "effect"
 *
 * const program = BrokerHistory.BrokerHistory.use((history) =>
 *   history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES" }).pipe(Stream.runForEach(Console.log))
 * )
 * // Everything provided: what is left to handle is a configuration error or a broker error.
 * const main: Effect.Effect<void, BrokerError.BrokerError | Config.ConfigError> = program.pipe(
 *   Effect.provide(BrokerHistory.layerConfig())
 * )
 * // The same with the credentials from your own variables.
 * const mine = program.pipe(
 *   Effect.provide(BrokerHistory.layerConfig({ apiKey: Config.Redacted("MEXC_KEY"), secretKey: Config.Redacted("MEXC_SECRET") }))
 * )
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerConfig = (
  config: Config.Wrap<BrokerConfig.Options> = BrokerConfig.config
): Layer.Layer<BrokerHistory, Config.ConfigError> =>
  Layer.unwrap(Effect.flatMap(HttpProxy.config, (proxy) =>
    Runtime.onNode()
      ? Effect.map(nodeClient, (node) => layerOver(node.layerProxy(proxy, process.env)))
      : Effect.succeed(fetchTransport(proxy)))).pipe(Layer.provide(BrokerConfig.layerConfig(config)))
