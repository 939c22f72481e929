/**
 * Request signing. The default signs with HMAC-SHA256 and the configured secret through WebCrypto,
 * so it runs on any runtime (the Node transport signs with `node:crypto`, see `NodeTransport`).
 * Supply your own `Signer` (a KMS or HSM call) and the secret never needs to be in this process.
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
 * A WebCrypto HMAC-SHA256 signer from the secret: the key is imported once (not extractable), each
 * signature is one `crypto.subtle.sign`.
 *
 * @example
 * import { Signer } from "@broker-history/client"
 * import { Effect, Redacted } from "effect"
 * const signature = Effect.flatMap(Signer.makeHmacSha256(Redacted.make("secret")), (signer) => signer.sign("a=1"))
 */
export const makeHmacSha256 = (secretKey: Redacted.Redacted<string>): Effect.Effect<Context.Tag.Service<Signer>> =>
  Effect.map(
    Effect.promise(() => Signature.hmacSha256(Redacted.value(secretKey))),
    (sign) => ({ sign: (payload) => Effect.promise(() => sign(payload)) })
  )

/**
 * HMAC-SHA256 with `BrokerConfig`'s `secretKey`, as the service expects, through WebCrypto.
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
  Effect.flatMap(BrokerConfig, (config) => makeHmacSha256(config.secretKey))
)
