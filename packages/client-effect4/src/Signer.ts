/**
 * Request signing. The default signs with HMAC-SHA256 and the configured secret through WebCrypto,
 * so it runs on any runtime (the Node transport signs with `node:crypto`, see `NodeTransport`).
 * Supply your own `Signer` (a KMS or HSM call) and the secret never needs to be in this process.
 *
 * @since 0.2.0
 */
import * as Signature from "@broker-history/core/signing/Signature"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { BrokerConfig } from "./BrokerConfig.js"

/**
 * Signs the exact query string that will be sent (without the `signature` parameter) and returns
 * the signature as lowercase hex: `sign(payload)`.
 *
 * @example
 * ```ts
 * import { Signer } from "@broker-history/client-effect4"
 * import { Effect, Layer } from "effect"
 *
 * // A signer backed by a key-management service: the secret never enters this process.
 * declare const kms: { readonly hmacSha256Hex: (keyId: string, payload: string) => Promise<string> }
 * const KmsSigner = Layer.succeed(Signer.Signer, {
 *   sign: (payload) => Effect.promise(() => kms.hmacSha256Hex("broker-api-secret", payload))
 * })
 * ```
 *
 * @since 0.2.0
 * @category services
 */
export class Signer extends Context.Service<Signer, {
  readonly sign: (payload: string) => Effect.Effect<string>
}>()("@broker-history/client-effect4/Signer") {}

/**
 * A WebCrypto HMAC-SHA256 signer from the secret: the key is imported once (not extractable), each
 * signature is one `crypto.subtle.sign`.
 *
 * @example
 * ```ts
 * import { Signer } from "@broker-history/client-effect4"
 * import { Effect, Redacted } from "effect"
 *
 * const signature = Effect.flatMap(
 *   Signer.makeHmacSha256(Redacted.make("45d0b3c26f2644f19bfb98b07741b2f5")),
 *   (signer) => signer.sign("fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087")
 * )
 * assert.strictEqual(
 *   await Effect.runPromise(signature),
 *   "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
 * )
 * ```
 *
 * @since 0.2.0
 * @category signing
 */
export const makeHmacSha256 = (secretKey: Redacted.Redacted<string>): Effect.Effect<Signer["Service"]> =>
  Effect.map(
    Effect.promise(() => Signature.hmacSha256(Redacted.value(secretKey))),
    (sign) => ({ sign: (payload) => Effect.promise(() => sign(payload)) })
  )

/**
 * HMAC-SHA256 with `BrokerConfig`'s `secretKey`, as the service expects, through WebCrypto.
 *
 * @example
 * ```ts
 * import { BrokerConfig, Signer } from "@broker-history/client-effect4"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const SignerLive = Signer.layerHmacSha256.pipe(
 *   Layer.provide(BrokerConfig.layer({ apiKey: Redacted.make("key"), secretKey: Redacted.make("secret") }))
 * )
 * const signature = Signer.Signer.use((signer) => signer.sign("a=1&timestamp=1644489390087"))
 * assert.match(await Effect.runPromise(Effect.provide(signature, SignerLive)), /^[0-9a-f]{64}$/)
 * ```
 *
 * @since 0.2.0
 * @category layers
 */
export const layerHmacSha256: Layer.Layer<Signer, never, BrokerConfig> = Layer.effect(
  Signer,
  Effect.flatMap(Effect.service(BrokerConfig), (config) => makeHmacSha256(config.secretKey))
)
