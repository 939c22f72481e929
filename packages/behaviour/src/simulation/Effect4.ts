/**
 * The Effect 4 line's `BrokerHistory` behind the suite's `SimulationLine`: the layer over its test
 * support's mock transport, signing synchronously, on its virtual clock.
 */
import { BrokerConfig, BrokerHistory, BrokerHttpClient } from "@broker-history/client-effect4"
import { Config, ConfigProvider, Duration, Effect, Exit, Fiber, Layer, Metric, Schedule, Stream } from "effect-4"
import * as HttpClient from "effect-4/http/HttpClient"
import * as HttpClientError from "effect-4/http/HttpClientError"
import { capture, haystack } from "../../../client-effect4/test/support/Capture.js"
import { logged } from "../../../client-effect4/test/support/Logged.js"
import { historyLayerSyncSigning, mockService } from "../../../client-effect4/test/support/MockService.js"
import * as VirtualClock from "../../../client-effect4/test/support/VirtualClock.js"
import type { Counter, Handle, LogLine, Opened, Sim, SimulationLine, StreamMethod } from "../Simulation.js"
import type { End } from "../Walk.js"
import { endOf } from "../walk/Effect4.js"

const counters = {
  recordsReceived: BrokerHistory.recordsReceived,
  incompleteMilliseconds: BrokerHistory.incompleteMilliseconds,
  requests: BrokerHttpClient.metrics.requests,
  retries: BrokerHttpClient.metrics.retries
} satisfies Record<Counter, unknown>

/** The line under its suite name. */
export const simulation: SimulationLine = {
  name: "effect4",
  run: (service, options, script) => {
    const { capture: capturing = false, client: app, config, settings = {}, start, tracing = true } = options
    const mock = mockService(service.answer, service.time === undefined ? {} : { time: service.time })
    const logs: Array<LogLine> = []
    const recorder = capturing ? capture() : undefined
    const failures: Array<unknown> = []
    const latency = service.latencyMillis
    const own = app === undefined
      ? mock.client
      : app._tag === "StatusOk"
      ? Layer.effect(
        HttpClient.HttpClient,
        Effect.map(Effect.service(HttpClient.HttpClient), HttpClient.filterStatusOk)
      ).pipe(Layer.provide(mock.client))
      : Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({ request, description: app.description })
            })
          )
        )
      )
    // Each answer after `latency` ms of the clock: the mock transport answers when the wait is over.
    const client = latency === undefined ? own : Layer.effect(
      HttpClient.HttpClient,
      Effect.map(
        Effect.service(HttpClient.HttpClient),
        (inner) =>
          HttpClient.transform(inner, (answer) => Effect.andThen(Effect.sleep(Duration.millis(latency)), answer))
      )
    ).pipe(Layer.provide(own))
    const body = Effect.gen(function*() {
      const clock = yield* Effect.service(VirtualClock.VirtualClock)
      const context = yield* Effect.context<BrokerHistory.BrokerHistory>()
      const history = yield* Effect.service(BrokerHistory.BrokerHistory)
      const fibers: Array<Fiber.Fiber<void, unknown>> = []
      const opened = (method: StreamMethod, args: ReadonlyArray<unknown>): Opened => {
        const stream = (history[method] as (...args: ReadonlyArray<unknown>) => Stream.Stream<unknown, unknown>)(
          ...args
        )
        return {
          run: (n): Handle => {
            const emitted: Array<unknown> = []
            let end: End | undefined
            const taken = n === undefined ? stream : Stream.take(stream, n)
            const fiber = Effect.runForkWith(context)(
              Stream.runForEach(taken, (a) => Effect.sync(() => void emitted.push(a)))
            )
            fiber.addObserver((exit) => void (end = endOf(exit)))
            fibers.push(fiber)
            return { emitted, end: () => end, interrupt: () => Effect.runPromise(Fiber.interrupt(fiber)) }
          }
        }
      }
      const sim: Sim = {
        adjust: (millis) => Effect.runPromise(clock.adjust(millis)),
        start: (method, ...args) => opened(method, args).run(),
        take: (n, method, ...args) => opened(method, args).run(n),
        open: (method, ...args) => opened(method, args),
        call: (method, query, options = {}) => {
          const call = (history[method] as (query: unknown) => Effect.Effect<unknown, unknown>)(query)
          const spanned = options.span === undefined ? call : Effect.withSpan(call, options.span)
          return Effect.runPromiseExitWith(context)(
            Effect.tapError(spanned, (e) => Effect.sync(() => failures.push(e)))
          ).then((exit) => {
            if (Exit.isSuccess(exit)) return { _tag: "Success" as const, value: exit.value }
            const end = endOf(exit)
            if (end._tag === "Failure") return end
            throw new Error(`the page call ended ${end._tag}: ${"message" in end ? end.message : ""}`)
          })
        },
        availability: () => Effect.runPromiseWith(context)(history.availability),
        rateLimitCurrent: () =>
          Effect.runPromiseWith(context)(Metric.value(BrokerHttpClient.metrics.rateLimitCurrent)).then((gauge) =>
            gauge.value
          ),
        counter: (counter, endpoint) =>
          Effect.runPromiseWith(context)(
            Metric.value(Metric.withAttributes(counters[counter], { endpoint }))
          ).then((state) => state.count),
        logs,
        captured: recorder === undefined ? undefined : {
          spans: recorder.captured.spans,
          text: () => haystack(recorder.captured, failures)
        },
        requests: mock.seen,
        timeRequests: mock.timeRequests
      }
      yield* Effect.promise(() => script(sim))
      yield* Effect.forEach(fibers, Fiber.interrupt)
    })
    return Effect.runPromise(
      body.pipe(
        Effect.provide(
          config === undefined
            ? historyLayerSyncSigning({ client }, settings as never)
            : BrokerHistory.layer.pipe(
              Layer.provide(BrokerConfig.layerConfig(
                config.names && {
                  apiKey: Config.Redacted(config.names.apiKey),
                  secretKey: Config.Redacted(config.names.secretKey)
                }
              )),
              Layer.provide(client)
            )
        ),
        config === undefined
          ? (effect) => effect
          : Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: config.variables })),
        tracing ? (effect) => effect : Effect.withTracerEnabled(false),
        recorder === undefined ? logged(logs) : Effect.provide(recorder.layer),
        VirtualClock.run({ start })
      )
    )
  },
  duration: (millis) => Duration.millis(millis),
  schedule: (spec) => {
    if ("forever" in spec) return Schedule.forever
    const recurs: Schedule.Schedule<unknown, { readonly _tag: string }> = Schedule.recurs(spec.recurs)
    const spaced = spec.spaced === undefined ? recurs : Schedule.max([Schedule.spaced(spec.spaced), recurs])
    const tag = spec.whileTag
    return tag === undefined
      ? spaced
      : Schedule.while(spaced, ({ input }) => input._tag === tag)
  }
}
