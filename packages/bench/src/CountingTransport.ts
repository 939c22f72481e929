/**
 * The Node transport with a count of the signed requests (the `/broker/` paths): when each was sent,
 * how many were answered and which answers were 429s.
 *
 * @since 0.2.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The counts, written as requests go and answers come (real ms).
 *
 * @example
 * import * as CountingTransport from "@broker-history/bench/CountingTransport"
 * const counts = CountingTransport.empty()
 */
export interface Counts {
  requests: number
  rateLimited: number
  /** When each 429 was answered (real ms). */
  readonly refusedAt: Array<number>
  /** When each signed request was handed to the transport (real ms). */
  readonly sends: Array<number>
}

/**
 * Counts of nothing yet.
 *
 * @example
 * import * as CountingTransport from "@broker-history/bench/CountingTransport"
 * CountingTransport.empty().requests // 0
 */
export const empty = (): Counts => ({ requests: 0, rateLimited: 0, refusedAt: [], sends: [] })

/**
 * The Node (undici) transport, counting the answers to signed requests and the 429s among them in
 * `counts`.
 *
 * @example
 * import * as CountingTransport from "@broker-history/bench/CountingTransport"
 * const transport = CountingTransport.layer(CountingTransport.empty())
 */
export const layer = (counts: Counts): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(
      HttpClient.HttpClient,
      (client) =>
        client.pipe(
          HttpClient.tapRequest((request) =>
            Effect.sync(() => {
              if (request.url.includes("/broker/")) counts.sends.push(Date.now())
            })
          ),
          HttpClient.tap((response) =>
            Effect.sync(() => {
              if (!response.request.url.includes("/broker/")) return
              counts.requests++
              if (response.status === 429) {
                counts.rateLimited++
                counts.refusedAt.push(Date.now())
              }
            })
          )
        )
    )
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))
