/**
 * The client's request pipeline (budget, retries, `Retry-After`) over an in-process exchange: one
 * page request whose every attempt is answered by `answer`, after the latency it gives, with no real
 * I/O, so the clock alone decides every time. The budget and limiter tests (Budget.test, LimiterRun)
 * drive it on a virtual clock (VirtualClock) with callers that always want another page.
 */
import * as Prng from "@broker-history/core/random/Prng"
import { Clock, Duration, Effect, Layer, Schema } from "effect"
import * as BrokerConfig from "../../src/BrokerConfig.js"
import { Endpoint } from "../../src/internal/line/Domain.js"
import type * as Exchange from "../../src/internal/request/Exchange.js"
import * as Pipeline from "../../src/internal/request/Pipeline.js"
import * as ServerClock from "../../src/ServerClock.js"
import * as Signer from "../../src/Signer.js"
import { testOptions } from "./MockService.js"

/** What the exchange answers to one attempt, and after how long. */
export interface Reply {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly body: string
  readonly latencyMillis: number
}

export interface Options {
  /** The client's budget per second. */
  readonly budget: number
  /** Default true. */
  readonly adaptive?: boolean | undefined
  /** The margin on the budget's interval (default: the configuration's default). */
  readonly marginMillis?: number | undefined
  /** Each attempt reaches the exchange up to this much later than it started (seeded), default 0. */
  readonly jitterMillis?: number | undefined
  /**
   * The bound on requests on their way before the first refusal (default: the budget's own); a test
   * of what the cut does with many on their way lifts it, as the first refusal does.
   */
  readonly onTheirWayAtFirst?: number | undefined
}

/**
 * The page request over `answer`, which gets the time each attempt reaches the exchange and how many
 * have reached it (this one included).
 */
export const make = (answer: (at: number, n: number) => Reply, options: Options) =>
  Effect.gen(function*() {
    let n = 0
    const next = Prng.mulberry32(15)
    const jitter = options.jitterMillis ?? 0
    const arrive = jitter === 0 ? Clock.currentTimeMillis : Effect.andThen(
      Effect.suspend(() => Effect.sleep(Prng.int(next, 0, jitter))),
      Clock.currentTimeMillis
    )
    const exchange: Exchange.Exchange = () =>
      Effect.flatMap(arrive, (at) => {
        const { latencyMillis, ...reply } = answer(at, ++n)
        return latencyMillis === 0 ? Effect.succeed(reply) : Effect.as(Effect.sleep(latencyMillis), reply)
      })
    const config = BrokerConfig.layer(testOptions({
      rateLimit: {
        limit: options.budget,
        interval: "1 second",
        ...(options.marginMillis === undefined ? {} : { margin: Duration.millis(options.marginMillis) }),
        adaptive: options.adaptive ?? true
      },
      retry: { maxRetries: 100, baseDelay: "100 millis", maxDelay: "1 second" }
    }))
    const clock = yield* ServerClock.ServerClock.pipe(Effect.provide(ServerClock.layerFixed(0)))
    const { client } = yield* Pipeline.make(() => exchange, { clock, onTheirWayAtFirst: options.onTheirWayAtFirst })
      .pipe(
        Effect.provide(Layer.mergeAll(config, Layer.succeed(Signer.Signer, { sign: () => Effect.succeed("0") })))
      )
    return client.get(Endpoint.transferHistory, [["startTime", "1000"]], Schema.Array(Schema.Unknown))
  })
