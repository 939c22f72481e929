/**
 * The Effect 4 line (`@broker-history/client-effect4`) behind the suite's `Line`: the layer over the
 * asked transport built from the settings, each call run on one runtime that lives as long as the
 * client, which logs into the client's `logs`. `effect-4` is this package's name for effect 4 (an npm
 * alias), the copy the line itself runs on.
 */
import {
  BrokerConfig,
  type BrokerError,
  BrokerHistory,
  Checkpoint,
  HttpProxy,
  TransferPlan
} from "@broker-history/client-effect4"
import * as NodeTransport from "@broker-history/client-effect4/NodeTransport"
import {
  Cause,
  Config,
  ConfigProvider,
  Effect,
  Exit,
  Layer,
  Logger,
  ManagedRuntime,
  Metric,
  Redacted,
  References,
  Result,
  Stream
} from "effect-4"
import * as FetchHttpClient from "effect-4/http/FetchHttpClient"
import type { Call, Line, LogLine, Outcome, ProxySetting, Run, Settings, Transport } from "../Line.js"
import { failureOf, messageText } from "../Line.js"
import { clientOf, layerFor } from "./Wiring.js"

const options = (
  { layerConfig: _c, proxy: _p, proxyVariables: _v, transport: _t, ...settings }: Settings
): BrokerConfig.Options => ({
  ...settings,
  apiKey: Redacted.make(settings.apiKey),
  secretKey: Redacted.make(settings.secretKey)
})

const overFetch = (init: RequestInit) =>
  BrokerHistory.layer.pipe(
    Layer.provide(FetchHttpClient.layer),
    Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, init))
  )

const transports: Partial<
  Record<Transport, Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError, BrokerConfig.BrokerConfig>>
> = {
  undici: BrokerHistory.layerUndici,
  // The platform `HttpClient` over undici: the line's own (fetch of undici 7 over the layer's dispatcher).
  platformUndici: BrokerHistory.layer.pipe(
    Layer.provide(NodeTransport.layerPlatformHttpClient),
    Layer.provide(NodeTransport.layerDispatcher(HttpProxy.none))
  ),
  fetch: overFetch({ redirect: "manual" }),
  fetchFollowingRedirects: overFetch({})
}

/** The line's layer for `settings`: over its transport, through a proxy, or `layerConfig()`. */
const layerOf = (settings: Settings) => {
  const config = BrokerConfig.layer(options(settings))
  const given = (proxy: ProxySetting) => typeof proxy === "string" ? proxy : Redacted.make(proxy.redacted)
  return layerFor<Layer.Layer<BrokerHistory.BrokerHistory, Config.ConfigError>>(settings, line.transports[0]!, {
    transport: (transport) => {
      const layer = transports[transport]
      if (layer === undefined) throw new Error(`the Effect 4 line has no transport ${transport} here`)
      return layer.pipe(Layer.provide(config))
    },
    layerConfig: (variables) =>
      BrokerHistory.layerConfig(Config.succeed(options(settings))).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: variables })))
      ),
    layerProxy: (proxy, variables) => NodeTransport.layerProxy(given(proxy), variables).pipe(Layer.provide(config)),
    platformProxy: (proxy, variables) =>
      BrokerHistory.layer.pipe(
        Layer.provide(config),
        Layer.provide(NodeTransport.layerPlatformHttpClient),
        Layer.provide(Layer.unwrap(
          Effect.map(
            Effect.fromResult(HttpProxy.parse(given(proxy))),
            (parsed) => NodeTransport.layerDispatcher(parsed, variables)
          )
        ))
      )
  })
}

/** The outcome of an exit: a typed failure as data; a defect is thrown. */
const outcomeOf = <A>(exit: Exit.Exit<A, { readonly _tag: string; readonly message: string }>): Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  if (Cause.hasInterruptsOnly(exit.cause)) return { _tag: "Interrupted" }
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") throw Cause.squash(exit.cause)
  const failure = error.value
  return { _tag: "Failure", failure: failureOf(failure) }
}

/** The line under its suite name. */
export const line: Line = {
  name: "effect4",
  transports: ["undici", "platformUndici", "fetch"],
  withClient: async (settings, use) => {
    const logs: Array<LogLine> = []
    const logger = Logger.make(({ fiber, logLevel, message }) => {
      logs.push({
        level: logLevel.toUpperCase(),
        message: messageText(message),
        annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
      })
    })
    const runtime = ManagedRuntime.make(Layer.mergeAll(
      layerOf(settings),
      Logger.layer([logger]),
      Layer.succeed(References.MinimumLogLevel, "Debug")
    ))
    try {
      const built = await runtime.runPromiseExit(Effect.service(BrokerHistory.BrokerHistory))
      if (Exit.isFailure(built)) throw new Error(`the client's layer failed: ${Cause.pretty(built.cause)}`)
      const history = built.value
      const call = <A>(effect: Effect.Effect<A, BrokerError.BrokerError>, { signal }: Call = {}) =>
        runtime.runPromiseExit(effect, { signal }).then(outcomeOf)
      const collect = <A>(stream: Stream.Stream<A, BrokerError.BrokerError>, run: Run<A> = {}) => {
        const { each, take } = run
        const taken = take === undefined ? stream : Stream.take(stream, take)
        const tapped = each === undefined ? taken : Stream.tap(taken, (a) => Effect.promise(async () => each(a)))
        return call(Stream.runCollect(tapped), run)
      }
      const client = clientOf<
        Effect.Effect<unknown, BrokerError.BrokerError>,
        Stream.Stream<unknown, BrokerError.BrokerError>
      >(history, call, collect, {
        incompleteCounter: (endpoint) =>
          runtime.runPromise(
            Metric.value(Metric.withAttributes(BrokerHistory.incompleteMilliseconds, { endpoint }))
          ).then((state) => state.count),
        logs
      })
      return await use(client)
    } finally {
      await runtime.dispose()
    }
  },
  planTransfers: (listed, accountTypes) => TransferPlan.ofSubAccounts(listed, accountTypes),
  decodeCheckpoint: (text) => {
    const decoded = Checkpoint.decode(text)
    if (Result.isSuccess(decoded)) return { _tag: "Success", value: decoded.success }
    return { _tag: "Failure", failure: checkpointFailure(decoded.failure) }
  }
}

/** A `CheckpointError` as data; anything else is thrown, failing the test. */
const checkpointFailure = (error: unknown) => {
  if (error instanceof Checkpoint.CheckpointError) return failureOf(error)
  throw error
}
