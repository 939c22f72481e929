/**
 * What each follower of the staleness part runs against: the reference service's flags (the keys and
 * the limit in the exchange's shape), a client per key on the bench's budget with its requests
 * counted, the warm-up, and the follow that records when each record was first seen.
 *
 * @since 0.2.0
 */
import { BrokerConfig, BrokerHistory, BrokerHttpClient } from "@broker-history/client"
import type { FollowScheduler } from "@broker-history/client"
import * as NodeTransport from "@broker-history/client/NodeTransport"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as CountingTransport from "./CountingTransport.js"
import * as FollowStreams from "./FollowStreams.js"
import type { StreamSpec } from "./FollowStreams.js"
import type { Label, Options } from "./StalenessModel.js"
import type * as StalenessStats from "./StalenessStats.js"

const keyOf = (label: Label | "warmup") => {
  const name = label.replace("-", "")
  return { apiKey: `mx0vglSTALE${name}`, secretKey: `stale-secret-${name}` }
}

/**
 * The service's limit in the exchange's shape, a count per 10 s window per key (docs/wire-contract.md),
 * at the bench's rate: `rate` × 10 per 10 s (simulated), the window compressed by `scale`.
 *
 * @example
 * import * as StalenessFollowers from "@broker-history/bench/StalenessFollowers"
 * declare const options: Parameters<typeof StalenessFollowers.serviceLimit>[0]
 * const perWindow = StalenessFollowers.serviceLimit(options).limit
 */
export const serviceLimit = (options: Options) => ({ limit: options.rate * 10, windowMillis: 10_000 / options.scale })

/**
 * The reference service's flags: `database`, the keys of `label` and of the warm-up each allowed
 * `serviceLimit`, a line per request.
 *
 * @example
 * import * as StalenessFollowers from "@broker-history/bench/StalenessFollowers"
 * declare const options: Parameters<typeof StalenessFollowers.serviceFlags>[1]
 * const flags = StalenessFollowers.serviceFlags("stale.db", options, "adaptive")
 */
export const serviceFlags = (database: string, options: Options, label: Label): ReadonlyArray<string> => [
  ...Object.entries({
    database,
    transfers: 0,
    deposits: 0,
    "rate-limit": serviceLimit(options).limit,
    "rate-window-ms": serviceLimit(options).windowMillis
  }).flatMap(([flag, value]) => [`--${flag}`, String(value)]),
  "--log",
  ...[label, "warmup" as const].flatMap((name) => {
    const k = keyOf(name)
    return ["--key", `${k.apiKey}:${k.secretKey}:SPOT_TRANSFER_READ,SPOT_DEPOSIT_READ`]
  })
]

/** A client of the key of `label` on the budget of `options`, counting its requests in `counts`. */
const clientOf = (label: Label | "warmup", baseUrl: string, options: Options, counts: CountingTransport.Counts) =>
  Effect.gen(function*() {
    const key = keyOf(label)
    // Signed with node:crypto (as `BrokerHistory.layerUndici` does): a WebCrypto signature completes on
    // the thread pool, which on a loaded machine delays sends past the budget's margin.
    const context = yield* Layer.build(
      Layer.effect(BrokerHistory.BrokerHistory, BrokerHistory.make).pipe(
        Layer.provide(BrokerHttpClient.layer),
        Layer.provide(NodeTransport.layerSigner),
        Layer.provide(BrokerConfig.layer({
          baseUrl,
          apiKey: Redacted.make(key.apiKey),
          secretKey: Redacted.make(key.secretKey),
          // The library's budget shape: `rate` per second (simulated).
          rateLimit: {
            limit: options.rate,
            interval: Duration.millis(1000 / options.scale),
            margin: `${options.marginMillis} millis`
          }
        })),
        Layer.provide(CountingTransport.layer(counts))
      )
    )
    return Context.get(context, BrokerHistory.BrokerHistory)
  })

/**
 * Brings the service up to speed before a follower starts, on a key of its own: one request to each
 * of the first streams, two seconds' worth (real) at the budget. The first requests a fresh service
 * process answers (its code not yet compiled, its database not yet cached) take far longer than later
 * ones; requests sent a window apart then reach its limiter less than a window apart.
 *
 * @example
 * import * as StalenessFollowers from "@broker-history/bench/StalenessFollowers"
 * declare const args: Parameters<typeof StalenessFollowers.warmUp>
 * const warm = StalenessFollowers.warmUp(...args)
 */
export const warmUp = (baseUrl: string, options: Options, streams: ReadonlyArray<StreamSpec>, since: number) =>
  Effect.gen(function*() {
    const counts = CountingTransport.empty()
    const history = yield* clientOf("warmup", baseUrl, options, counts)
    yield* Effect.forEach(
      streams.slice(0, 2 * options.rate * options.scale),
      (s) =>
        history.transferHistory({
          fromAccountType: s.types[0],
          toAccountType: s.types[1],
          ...(s.toSub ? { toAccount: s.sub } : { fromAccount: s.sub }),
          startTime: since
        }),
      { concurrency: options.concurrency, discard: true }
    )
  }).pipe(Effect.scoped)

/**
 * Follows every stream with the follower of `label`, in a fiber of the scope, recording when each
 * record was first seen (and counting repeats) in `seen`.
 *
 * @example
 * import * as StalenessFollowers from "@broker-history/bench/StalenessFollowers"
 * declare const args: Parameters<typeof StalenessFollowers.follow>
 * const fiber = StalenessFollowers.follow(...args)
 */
export const follow = (
  label: Label,
  baseUrl: string,
  options: Options,
  streams: ReadonlyArray<StreamSpec>,
  since: number,
  schedule: FollowScheduler.FollowOptions,
  seen: StalenessStats.Seen,
  counts: CountingTransport.Counts
) =>
  Effect.gen(function*() {
    const history = yield* clientOf(label, baseUrl, options, counts)
    return yield* history.followTransfers(streams.map((s) => FollowStreams.queryOf(s, since)), schedule).pipe(
      Stream.runForEach((change) =>
        Effect.sync(() => {
          const id = change.record.tranId
          if (seen.at.has(id)) seen.repeated++
          else seen.at.set(id, Date.now())
        })
      ),
      Effect.forkScoped
    )
  })
