/**
 * Request signing. The default signs with HMAC-SHA256 and the configured secret; supply your own
 * `Signer` (a KMS or HSM call) and the secret never needs to be in this process.
 *
 * @since 0.1.0
 */
import { Signature } from "@broker-history/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BrokerConfig } from "./BrokerConfig.js"

/**
 * Signs the exact query string that will be sent (without the `signature` parameter) and returns
 * the signature as lowercase hex.
 *
 * @example
 * import { Signer } from "@broker-history/client"
 * import { Effect, Layer } from "effect"
 * const Fixed = Layer.succeed(Signer.Signer, { sign: (_payload) => Effect.succeed("00".repeat(32)) })
 */
export class Signer extends Context.Tag("@broker-history/client/Signer")<Signer, {
  readonly sign: (payload: string) => Effect.Effect<string>
}>() {}

/**
 * A signer from an HMAC secret.
 *
 * @example
 * import { Signer } from "@broker-history/client"
 * import { Effect, Redacted } from "effect"
 * const signer = Signer.makeHmacSha256(Redacted.make("secret"))
 * Effect.runSync(signer.sign("a=1")).length // 64
 */
export const makeHmacSha256 = (secretKey: Redacted.Redacted<string>): Context.Tag.Service<Signer> => ({
  sign: (payload) => Effect.sync(() => Signature.hmacSha256Hex(Redacted.value(secretKey), payload))
})

/**
 * HMAC-SHA256 with `BrokerConfig`'s `secretKey`, as the service expects.
 *
 * @example
 * import { BrokerConfig, Signer } from "@broker-history/client"
 * import { Layer, Redacted } from "effect"
 * const SignerLive = Signer.layerHmacSha256.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("k"), secretKey: Redacted.make("s") }))
 * )
 */
export const layerHmacSha256: Layer.Layer<Signer, never, BrokerConfig> = Layer.effect(
  Signer,
  Effect.map(BrokerConfig, (config) => makeHmacSha256(config.secretKey))
)
