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
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as BrokerConfig from "./BrokerConfig.js"
import type { BrokerError } from "./BrokerError.js"
import { InvalidQuery } from "./BrokerError.js"
import * as BrokerHttpClient from "./BrokerHttpClient.js"
import * as Checkpoint from "./Checkpoint.js"
import * as FullHistory from "./FullHistory.js"
import * as ServerClock from "./ServerClock.js"
import * as Signer from "./Signer.js"

/**
 * Follow mode: after reaching `until`, poll every `interval` for new records, re-reading the last
 * `settlement` (default 1 day) so that late records and records whose status changed are seen.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect, Stream } from "effect"
 *
 * const follow: BrokerHistory.FollowOptions = { interval: "30 seconds", settlement: "2 days" }
 * const liveDeposits = Stream.unwrap(
 *   Effect.map(BrokerHistory.BrokerHistory, (history) => history.depositChanges({ coin: "USDT", follow }))
 * )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface FollowOptions {
  readonly interval: Duration.DurationInput
  readonly settlement?: Duration.DurationInput | undefined
}

/**
 * Range and reading options shared by both full-history streams.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect, Stream } from "effect"
 *
 * const firstQuarter: BrokerHistory.StreamOptions = {
 *   since: "2025-01-01T00:00:00Z",
 *   until: "2025-03-31T23:59:59.999Z",
 *   concurrency: 4
 * }
 * const transfers = Stream.unwrap(
 *   Effect.map(
 *     BrokerHistory.BrokerHistory,
 *     (history) => history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...firstQuarter })
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface StreamOptions {
  /** Start of the range (inclusive): any `DateTime.DateTime.Input` (Date, ISO text, Unix ms). Default: `until` − 365 days. */
  readonly since?: DateTime.DateTime.Input | undefined
  /** End of the range (inclusive), pinned once at start. Default: the server's now. */
  readonly until?: DateTime.DateTime.Input | undefined
  /** Continue after a checkpoint from `transferChanges` / `depositChanges` (ignores `since` before it). */
  readonly resume?: Checkpoint.Checkpoint | undefined
  /** Page size: default and maximum is the endpoint's maximum (500 transfers, 1000 deposits). */
  readonly limit?: number | undefined
  /** Windows fetched ahead concurrently (1..16, default 1 = strictly lazy); output order is kept. */
  readonly concurrency?: number | undefined
}

/**
 * The options of a change stream: the range options, and `follow` to keep it running.
 *
 * @example
 * ```ts
 * import { BrokerHistory, Checkpoint } from "@broker-history/client"
 * import { Effect, Either, Stream } from "effect"
 *
 * const stored = Either.getOrThrow(Checkpoint.decode(`{"time":1735689600000,"ids":["42"]}`))
 * const options: BrokerHistory.ChangeOptions = { resume: stored, follow: { interval: "1 minute" } }
 * const changes = Stream.unwrap(
 *   Effect.map(
 *     BrokerHistory.BrokerHistory,
 *     (history) => history.transferChanges({ fromAccountType: "SPOT", toAccountType: "FUTURES", ...options })
 *   )
 * )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface ChangeOptions extends StreamOptions {
  /** Never end: after reaching `until`, keep polling for new records and updates. */
  readonly follow?: FollowOptions | undefined
}

/**
 * A full-history transfer query: the filters of `TransferHistoryQuery` plus the range options.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect, Stream } from "effect"
 *
 * const query: BrokerHistory.TransferStreamQuery = {
 *   fromAccountType: "SPOT",
 *   toAccountType: "SPOT",
 *   toAccount: "sub@test.com",
 *   since: "2024-01-01"
 * }
 * const count = Effect.flatMap(BrokerHistory.BrokerHistory, (history) => Stream.runCount(history.transfers(query)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface TransferStreamQuery extends StreamOptions {
  readonly fromAccountType: TransferHistoryQuery.TransferHistoryQuery["fromAccountType"]
  readonly toAccountType: TransferHistoryQuery.TransferHistoryQuery["toAccountType"]
  readonly fromAccount?: string | undefined
  readonly toAccount?: string | undefined
  readonly clientTranId?: string | undefined
}

/**
 * A full-history deposit query: `coin` / `status` filters plus the range options.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect, Stream } from "effect"
 *
 * const query: BrokerHistory.DepositStreamQuery = { coin: "USDT", status: "5", since: Date.now() - 30 * 86_400_000 }
 * const credited = Effect.flatMap(BrokerHistory.BrokerHistory, (history) => Stream.runCollect(history.deposits(query)))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface DepositStreamQuery extends StreamOptions {
  readonly coin?: string | undefined
  readonly status?: string | undefined
}

/**
 * The lookback used when `since` is not given.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(BrokerHistory.defaultLookback), 365)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultLookback: Duration.Duration = Duration.days(365)

/**
 * The settlement window used when `follow.settlement` is not given.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Duration } from "effect"
 *
 * assert.strictEqual(Duration.toDays(BrokerHistory.defaultSettlement), 1)
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultSettlement: Duration.Duration = Duration.days(1)

/**
 * The broker history service:
 *
 * - `transferHistory` / `depositHistory`: one request with exactly the parameters given, validated
 *   first (a bad parameter fails with `InvalidQuery` and nothing is sent).
 * - `transfers` / `deposits`: the complete history of the range as a lazy stream: every record once,
 *   ascending by time (ties by id), in bounded memory. It ends at `until`.
 * - `transferChanges` / `depositChanges`: the same, each record with `kind` and the checkpoint to
 *   resume after it; with `follow` it never ends and also emits updates of records already seen.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
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
 * @since 0.1.0
 * @category services
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
  /**
   * The complete transfer history of the range as a lazy stream: every record once, ascending by
   * time (ties by id), in bounded memory. It ends at `until`; `transferChanges` can follow.
   */
  readonly transfers: (
    query: TransferStreamQuery
  ) => Stream.Stream<TransferRecordNs.TransferRecord, BrokerError>
  /**
   * As `transfers`, each record with `kind` and the checkpoint to resume after it; with `follow`
   * it never ends and also emits updates of records already seen.
   */
  readonly transferChanges: (
    query: TransferStreamQuery & ChangeOptions
  ) => Stream.Stream<Checkpoint.Change<TransferRecordNs.TransferRecord>, BrokerError>
  /** The complete deposit history of the range as a lazy stream (see `transfers`). */
  readonly deposits: (
    query: DepositStreamQuery
  ) => Stream.Stream<DepositRecordNs.DepositRecord, BrokerError>
  /** As `deposits`, each record with `kind` and the checkpoint to resume after it (see `transferChanges`). */
  readonly depositChanges: (
    query: DepositStreamQuery & ChangeOptions
  ) => Stream.Stream<Checkpoint.Change<DepositRecordNs.DepositRecord>, BrokerError>
}>() {}

/**
 * Records received, tagged with `endpoint`.
 *
 * @example
 * ```ts
 * import { BrokerHistory } from "@broker-history/client"
 * import { Effect, Metric } from "effect"
 *
 * const depositsReceived = Metric.value(Metric.tagged(BrokerHistory.recordsReceived, "endpoint", "depositHistory"))
 * const { count } = Effect.runSync(depositsReceived)
 * assert.strictEqual(typeof count, "number")
 * ```
 *
 * @since 0.1.0
 * @category metrics
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
 * ```ts
 * import { BrokerHistory, BrokerHttpClient, ServerClock, Signer } from "@broker-history/client"
 * import { Layer } from "effect"
 *
 * // As `BrokerHistory.layer`, with a clock trusted as it is (no server-time requests).
 * const HistoryWithLocalClock = Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
 *   Layer.provide(BrokerHttpClient.layer),
 *   Layer.provide(Layer.mergeAll(Signer.layerHmacSha256, ServerClock.layerFixed(0)))
 * )
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const http = yield* BrokerHttpClient.BrokerHttpClient
  const config = yield* BrokerConfig.BrokerConfig
  const clock = yield* ServerClock.ServerClock

  /** One page: validated first (nothing sent when invalid), then one request. */
  const pageOf = <Q, A>(history: HistoryKind<Q, A>) => {
    const received = Metric.tagged(recordsReceived, "endpoint", history.endpoint.name)
    return (query: Q) =>
      Effect.suspend(() => {
        const valid = Either.mapLeft(history.validate(query), invalid(history.endpoint.name))
        if (Either.isLeft(valid)) return Effect.fail(valid.left)
        return http.get(history.endpoint, history.toParams(valid.right), history.page).pipe(
          Effect.tap((page) => Metric.incrementBy(received, page.length))
        )
      })
  }

  /**
   * A full-history stream: options validated first, then the walk of `FullHistory`, as changes (with
   * checkpoints) or, for plain records without `follow`, the records alone.
   */
  const historyOf = <Q, A>(history: HistoryKind<Q, A>, maxWindow: Duration.Duration | undefined) => {
    const received = Metric.tagged(recordsReceived, "endpoint", history.endpoint.name)
    const maxWindowMillis = maxWindow === undefined ? undefined : Duration.toMillis(maxWindow)
    const optionsFor = (query: ChangeOptions, options: ReadonlySet<string>) =>
      Effect.gen(function*() {
        const filters = yield* validateFilters(
          history.endpoint.name,
          query,
          history.filters,
          options,
          history.validate
        )
        const range = yield* resolveRange(history.endpoint, query, maxWindowMillis, clock)
        return {
          ...range,
          fetch: (startTime: number, endTime: number, page: number, limit: number) =>
            http.get(history.endpoint, history.toParams({ ...filters, startTime, endTime, page, limit }), history.page)
              .pipe(Effect.tap((records) => Metric.incrementBy(received, records.length))),
          time: history.time,
          key: history.key,
          compare: history.compare,
          fingerprint: history.fingerprint
        } satisfies FullHistory.Options<A>
      })
    return {
      changes: (query: ChangeOptions): Stream.Stream<Checkpoint.Change<A>, BrokerError> =>
        Stream.unwrap(Effect.map(optionsFor(query, changeOptionNames), FullHistory.changes)),
      records: (query: StreamOptions): Stream.Stream<A, BrokerError> =>
        Stream.unwrap(Effect.map(optionsFor(query, streamOptionNames), FullHistory.records))
    }
  }

  const transferHistories = historyOf(transferKind, config.maxWindow.transfers)
  const depositHistories = historyOf(depositKind, config.maxWindow.deposits)

  return BrokerHistory.of({
    transferHistory: pageOf(transferKind),
    depositHistory: pageOf(depositKind),
    transferChanges: transferHistories.changes,
    depositChanges: depositHistories.changes,
    transfers: transferHistories.records,
    deposits: depositHistories.records
  })
})

/** What differs between the two histories: endpoint, filters, wire parameters and record kind. */
interface HistoryKind<Q, A> {
  readonly endpoint: Endpoint.Endpoint
  readonly filters: ReadonlyArray<string>
  readonly validate: (input: unknown) => Either.Either<Q, { readonly parameter: string; readonly rule: string }>
  readonly toParams: (query: Q) => Array<readonly [string, string]>
  readonly page: Schema.Schema<ReadonlyArray<A>, any>
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly compare: (a: A, b: A) => number
  /** What a change of an emitted record is (follow mode). */
  readonly fingerprint: (record: A) => string
}

const transferKind: HistoryKind<TransferHistoryQuery.TransferHistoryQuery, TransferRecordNs.TransferRecord> = {
  endpoint: Endpoint.transferHistory,
  filters: ["fromAccountType", "toAccountType", "fromAccount", "toAccount", "clientTranId"],
  validate: TransferHistoryQuery.validate,
  toParams: TransferHistoryQuery.toParams,
  page: TransferRecord.TransferPage,
  time: (r) => r.timestamp,
  key: TransferRecord.key,
  compare: TransferRecord.compare,
  fingerprint: (r) => r.status
}

const depositKind: HistoryKind<DepositHistoryQuery.DepositHistoryQuery, DepositRecordNs.DepositRecord> = {
  endpoint: Endpoint.depositHistory,
  filters: ["coin", "status"],
  validate: DepositHistoryQuery.validate,
  toParams: DepositHistoryQuery.toParams,
  page: DepositRecord.DepositPage,
  time: (r) => r.insertTime,
  key: DepositRecord.key,
  compare: DepositRecord.compare,
  fingerprint: (r) => r.status + "|" + r.confirmTimes + "|" + r.unlockConfirm + "|" + r.amount
}

const streamOptionNames: ReadonlySet<string> = new Set(["since", "until", "resume", "limit", "concurrency"])
const changeOptionNames: ReadonlySet<string> = new Set([...streamOptionNames, "follow"])

/** The filters of a stream query, checked by the page query's rules; unknown options are errors. */
const validateFilters = <Q>(
  endpoint: string,
  query: object,
  names: ReadonlyArray<string>,
  optionNames: ReadonlySet<string>,
  validate: (input: unknown) => Either.Either<Q, { readonly parameter: string; readonly rule: string }>
) =>
  Effect.suspend(() => {
    if (typeof query !== "object" || query === null) {
      return Effect.fail(new InvalidQuery({ endpoint, parameter: "query", rule: "must be an object of options" }))
    }
    const filters: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(query)) {
      if (names.includes(name)) {
        if (value !== undefined) filters[name] = value
      } else if (!optionNames.has(name)) {
        return Effect.fail(
          new InvalidQuery({
            endpoint,
            parameter: name,
            rule: name === "follow"
              ? "is an option of the change streams: use transferChanges / depositChanges to follow"
              : "is not an option of this stream"
          })
        )
      }
    }
    return Either.match(validate(filters), {
      onLeft: (v) => Effect.fail(invalid(endpoint)(v)),
      onRight: Effect.succeed
    })
  })

const decodeCheckpoint = Schema.decodeUnknownEither(Checkpoint.Checkpoint)

const toMillis = (endpoint: string, parameter: string, input: DateTime.DateTime.Input) => {
  const dt = typeof input === "number" && !Number.isSafeInteger(input) ? undefined : DateTime.make(input)
  if (dt === undefined || dt._tag === "None") {
    return Effect.fail(
      new InvalidQuery({ endpoint, parameter, rule: "must be a date-time (Date, ISO text, DateTime or Unix ms)" })
    )
  }
  const ms = DateTime.toEpochMillis(dt.value)
  return ms < 0
    ? Effect.fail(new InvalidQuery({ endpoint, parameter, rule: "must not be before 1970-01-01" }))
    : Effect.succeed(ms)
}

/** The stream's range and reading options, with defaults; `until` is pinned here, once. */
const resolveRange = (
  endpoint: Endpoint.Endpoint,
  query: ChangeOptions,
  maxWindow: number | undefined,
  clock: ServerClock.ServerClock["Type"]
) =>
  Effect.gen(function*() {
    const fail = (parameter: string, rule: string) =>
      Effect.fail(new InvalidQuery({ endpoint: endpoint.name, parameter, rule }))
    const limit = query.limit ?? endpoint.maxLimit
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > endpoint.maxLimit) {
      return yield* fail("limit", `must be an integer from 1 to ${endpoint.maxLimit}`)
    }
    const concurrency = query.concurrency ?? 1
    if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 16) {
      return yield* fail("concurrency", "must be an integer from 1 to 16")
    }
    let resume: Checkpoint.Checkpoint | undefined
    if (query.resume !== undefined) {
      const decoded = decodeCheckpoint(query.resume)
      if (Either.isLeft(decoded)) {
        return yield* fail("resume", "must be a checkpoint { time, ids } from a change stream")
      }
      resume = decoded.right
    }
    let follow: FullHistory.Options<unknown>["follow"]
    if (query.follow !== undefined) {
      const interval = Duration.decodeUnknown(query.follow.interval)
      if (interval._tag === "None" || !Duration.isFinite(interval.value) || Duration.toMillis(interval.value) <= 0) {
        return yield* fail("follow.interval", "must be a positive, finite duration")
      }
      const settlement = Duration.decodeUnknown(query.follow.settlement ?? defaultSettlement)
      if (settlement._tag === "None" || !Duration.isFinite(settlement.value)) {
        return yield* fail("follow.settlement", "must be a finite duration")
      }
      follow = {
        interval: interval.value,
        settlement: Duration.toMillis(settlement.value),
        now: clock.serverNow
      }
    }
    const untilInput = query.until
    const since0 = query.since === undefined ? undefined : yield* toMillis(endpoint.name, "since", query.since)
    const until0 = untilInput === undefined ? undefined : yield* toMillis(endpoint.name, "until", untilInput)
    if (since0 !== undefined && until0 !== undefined && since0 > until0) {
      return yield* fail("since", "must not be after until")
    }
    // Validated everything first: only now may a request (the server's time) be made.
    const until = until0 ?? (yield* clock.serverNow)
    // Resuming without `since` continues from the checkpoint, however old: the default lookback
    // must never open a gap between a stored checkpoint and the records after it.
    const since = since0 ??
      (resume !== undefined ? resume.time : Math.max(0, until - Duration.toMillis(defaultLookback)))
    if (since > until) return yield* fail("since", "must not be after until (the server's now)")
    return { since, until, limit, concurrency, maxWindow, resume, follow }
  })

/**
 * The service over any platform `HttpClient` (`FetchHttpClient.layer`, `NodeHttpClient.layerUndici`,
 * a mock): the request pipeline, WebCrypto HMAC-SHA256 signing and the server clock included. Runs
 * on any runtime with WebCrypto and `fetch`.
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { FetchHttpClient, HttpClient, HttpClientResponse } from "@effect/platform"
 * import { Effect, Layer, Redacted } from "effect"
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
 * const page = await BrokerHistory.BrokerHistory.pipe(
 *   Effect.flatMap((history) => history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES" })),
 *   Effect.provide(HistoryTest),
 *   Effect.runPromise
 * )
 * assert.deepStrictEqual(page, [])
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<BrokerHistory, never, BrokerConfig.BrokerConfig | HttpClient.HttpClient> = Layer
  .effect(BrokerHistory, make).pipe(
    Layer.provide(BrokerHttpClient.layer),
    Layer.provide(Layer.mergeAll(Signer.layerHmacSha256, ServerClock.layer))
  )

/**
 * The service over Node's undici with its own connection pool (closed with the layer): the fastest
 * transport on Node, with `node:crypto` signing (`NodeTransport.layer`, loaded when the layer is
 * built, so importing this module loads nothing Node-only).
 *
 * @example
 * ```ts
 * import { BrokerConfig, BrokerHistory } from "@broker-history/client"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const HistoryLive = BrokerHistory.layerUndici.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }))
 * )
 * // A query that breaks a rule fails before anything is sent:
 * const error = await BrokerHistory.BrokerHistory.pipe(
 *   Effect.flatMap((history) => history.depositHistory({ coin: "USDT", limit: 5000 })),
 *   Effect.flip,
 *   Effect.provide(HistoryLive),
 *   Effect.runPromise
 * )
 * assert.strictEqual(
 *   error.message,
 *   "Invalid depositHistory query: limit must be an integer from 1 to 1000. Nothing was sent; fix limit."
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerUndici: Layer.Layer<BrokerHistory, never, BrokerConfig.BrokerConfig> = Layer.unwrapEffect(
  Effect.map(
    Effect.tryPromise({
      try: () => import("./NodeTransport.js"),
      catch: (cause) =>
        new Error(
          `BrokerHistory.layerUndici could not load the Node transport (${
            String((cause as Error | undefined)?.message ?? cause).split("\n")[0]
          }): it needs Node and @effect/platform-node; elsewhere use BrokerHistory.layer with FetchHttpClient.layer`,
          { cause }
        )
    }).pipe(Effect.orDie),
    (node) => node.layer
  )
)

/**
 * The service wired entirely from the environment (`BROKER_*` variables, see `BrokerConfig.config`)
 * over Node's undici (`layerUndici`): the one-line set-up.
 *
 * @example
 * ```ts
 * import { BrokerError, BrokerHistory } from "@broker-history/client"
 * import { ConfigError, Console, Effect, Stream } from "effect"
 *
 * const program = Effect.flatMap(
 *   BrokerHistory.BrokerHistory,
 *   (history) =>
 *     history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES" }).pipe(Stream.runForEach(Console.log))
 * )
 * // Everything provided: what is left to handle is a configuration error or a broker error.
 * const main: Effect.Effect<void, BrokerError.BrokerError | ConfigError.ConfigError> = program.pipe(
 *   Effect.provide(BrokerHistory.layerConfig)
 * )
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: Layer.Layer<BrokerHistory, ConfigError.ConfigError> = layerUndici.pipe(
  Layer.provide(BrokerConfig.layerConfig())
)
