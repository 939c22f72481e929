/**
 * The Effect 3 line (`@broker-history/client`) behind the suite's `Line`: the layer over the asked
 * transport built from the settings, each call run on one runtime that lives as long as the client,
 * which logs into the client's `logs`.
 */
import {
  BrokerConfig,
  type BrokerError,
  BrokerHistory,
  Checkpoint,
  HttpProxy,
  TransferPlan
} from "@broker-history/client"
import * as NodeTransport from "@broker-history/client/NodeTransport"
import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import type { ConfigError } from "effect"
import {
  Cause,
  Chunk,
  Config,
  ConfigProvider,
  Effect,
  Either,
  Exit,
  HashMap,
  Layer,
  Logger,
  LogLevel,
  ManagedRuntime,
  Metric,
  Option,
  Redacted,
  Stream
} from "effect"
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

const transports: Record<
  Transport,
  Layer.Layer<BrokerHistory.BrokerHistory, ConfigError.ConfigError, BrokerConfig.BrokerConfig>
> = {
  undici: BrokerHistory.layerUndici,
  platformUndici: BrokerHistory.layer.pipe(Layer.provide(NodeHttpClient.layerUndici)),
  fetch: overFetch({ redirect: "manual" }),
  fetchFollowingRedirects: overFetch({})
}

/** The line's layer for `settings`: over its transport, through a proxy, or `layerConfig()`. */
const layerOf = (settings: Settings) => {
  const config = BrokerConfig.layer(options(settings))
  const given = (proxy: ProxySetting) => typeof proxy === "string" ? proxy : Redacted.make(proxy.redacted)
  return layerFor<Layer.Layer<BrokerHistory.BrokerHistory, ConfigError.ConfigError>>(settings, "undici", {
    transport: (transport) => transports[transport].pipe(Layer.provide(config)),
    layerConfig: (variables) =>
      BrokerHistory.layerConfig(Config.succeed(options(settings))).pipe(
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(variables)))))
      ),
    layerProxy: (proxy, variables) => NodeTransport.layerProxy(given(proxy), variables).pipe(Layer.provide(config)),
    platformProxy: (proxy, variables) =>
      BrokerHistory.layer.pipe(
        Layer.provide(config),
        Layer.provide(NodeHttpClient.layerUndiciWithoutDispatcher),
        Layer.provide(Layer.unwrapEffect(
          Effect.map(HttpProxy.parse(given(proxy)), (parsed) => NodeTransport.layerDispatcher(parsed, variables))
        ))
      )
  })
}

/** The outcome of an exit: a typed failure as data; a defect is thrown. */
const outcomeOf = <A>(exit: Exit.Exit<A, { readonly _tag: string; readonly message: string }>): Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  if (Cause.isInterruptedOnly(exit.cause)) return { _tag: "Interrupted" }
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) throw Cause.squash(exit.cause)
  const error = failure.value
  return { _tag: "Failure", failure: failureOf(error) }
}

/** The line under its suite name. */
export const line: Line = {
  name: "effect3",
  transports: ["undici", "platformUndici", "fetch"],
  withClient: async (settings, use) => {
    const logs: Array<LogLine> = []
    const logger = Logger.make(({ annotations, logLevel, message }) => {
      logs.push({
        level: logLevel.label,
        message: messageText(message),
        annotations: Object.fromEntries(HashMap.toEntries(annotations))
      })
    })
    const runtime = ManagedRuntime.make(Layer.mergeAll(
      layerOf(settings),
      Logger.replace(Logger.defaultLogger, logger),
      Logger.minimumLogLevel(LogLevel.Debug)
    ))
    try {
      const built = await runtime.runPromiseExit(BrokerHistory.BrokerHistory)
      if (Exit.isFailure(built)) throw new Error(`the client's layer failed: ${Cause.pretty(built.cause)}`)
      const history = built.value
      const call = <A>(effect: Effect.Effect<A, BrokerError.BrokerError>, { signal }: Call = {}) =>
        runtime.runPromiseExit(effect, { signal }).then(outcomeOf)
      const collect = <A>(stream: Stream.Stream<A, BrokerError.BrokerError>, run: Run<A> = {}) => {
        const { each, take } = run
        const taken = take === undefined ? stream : Stream.take(stream, take)
        const tapped = each === undefined ? taken : Stream.tap(taken, (a) => Effect.promise(async () => each(a)))
        return call(Effect.map(Stream.runCollect(tapped), Chunk.toArray), run)
      }
      const client = clientOf<
        Effect.Effect<unknown, BrokerError.BrokerError>,
        Stream.Stream<unknown, BrokerError.BrokerError>
      >(history, call, collect, {
        incompleteCounter: (endpoint) =>
          runtime.runPromise(Metric.value(Metric.tagged(BrokerHistory.incompleteMilliseconds, "endpoint", endpoint)))
            .then((state) => state.count),
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
    if (Either.isRight(decoded)) return { _tag: "Success", value: decoded.right }
    return { _tag: "Failure", failure: checkpointFailure(decoded.left) }
  }
}

/** A `CheckpointError` as data; anything else is thrown, failing the test. */
const checkpointFailure = (error: unknown) => {
  if (error instanceof Checkpoint.CheckpointError) return failureOf(error)
  throw error
}
