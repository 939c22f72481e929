/**
 * @broker-history/client: typed, signed, rate-limited access to a broker's sub-account transfer
 * and deposit history.
 *
 * @since 0.1.0
 */

/** Client configuration (options or environment). */
export * as BrokerConfig from "./BrokerConfig.js"
/** The typed failures of every call. */
export * as BrokerError from "./BrokerError.js"
/** The endpoint calls. */
export * as BrokerHistory from "./BrokerHistory.js"
/** The signed request pipeline. */
export * as BrokerHttpClient from "./BrokerHttpClient.js"
/** Stream checkpoints and change elements. */
export * as Checkpoint from "./Checkpoint.js"
/** The full-history walk (windows, ordering, dedup, follow). */
export * as FullHistory from "./FullHistory.js"
/** The service's clock offset. */
export * as ServerClock from "./ServerClock.js"
/** Request signing. */
export * as Signer from "./Signer.js"
