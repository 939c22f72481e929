/**
 * The Effect 3 line's `BrokerHistory` behind the suite's `SimulationLine`: the layer over its test
 * support's mock transport, signing synchronously, on its virtual clock.
 */
import { BrokerConfig, BrokerHistory, BrokerHttpClient } from "@broker-history/client"
import { capture, haystack } from "@broker-history/testing/Capture"
import { HttpClient, HttpClientError } from "@effect/platform"
import { Config, ConfigProvider, Duration, Effect, Exit, Fiber, Layer, Metric, Runtime, Schedule, Stream } from "effect"
import { logged } from "../../../client/test/support/Logged.js"
import { historyLayerSyncSigning, mockService } from "../../../client/test/support/MockService.js"
import * as VirtualClock from "../../../client/test/support/VirtualClock.js"
import type { Counter, Handle, LogLine, Opened, Sim, SimulationLine, StreamMethod } from "../Simulation.js"
import type { End } from "../Walk.js"
import { endOf } from "../walk/Effect3.js"

const counters = {
  recordsReceived: BrokerHistory.recordsReceived,
  incompleteMilliseconds: BrokerHistory.incompleteMilliseconds,
  requests: BrokerHttpClient.metrics.requests,
  retries: BrokerHttpClient.metrics.retries
} satisfies Record<Counter, unknown>

/** The line under its suite name. */
export const simulation: SimulationLine = {
  name: "effect3",
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
      ? Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, HttpClient.filterStatusOk)).pipe(
        Layer.provide(mock.client)
      )
      : Layer.succeed(
        HttpClient.HttpClient,
        HttpClient.make((request) =>
          Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", description: app.description }))
        )
      )
    // Each answer after `latency` ms of the clock: the mock transport answers when the wait is over.
    const client = latency === undefined ? own : Layer.effect(
      HttpClient.HttpClient,
      Effect.map(
        HttpClient.HttpClient,
        (inner) =>
          HttpClient.transform(inner, (answer) => Effect.zipRight(Effect.sleep(Duration.millis(latency)), answer))
      )
    ).pipe(Layer.provide(own))
    const body = Effect.gen(function*() {
      const clock = yield* VirtualClock.VirtualClock
      const runtime = yield* Effect.runtime<BrokerHistory.BrokerHistory>()
      const history = yield* BrokerHistory.BrokerHistory
      const fibers: Array<Fiber.RuntimeFiber<void, unknown>> = []
      const opened = (method: StreamMethod, args: ReadonlyArray<unknown>): Opened => {
        const stream = (history[method] as (...args: ReadonlyArray<unknown>) => Stream.Stream<unknown, unknown>)(
          ...args
        )
        return {
          run: (n): Handle => {
            const emitted: Array<unknown> = []
            let end: End | undefined
            const taken = n === undefined ? stream : Stream.take(stream, n)
            const fiber = Runtime.runFork(runtime)(
              Stream.runForEach(taken, (a) => Effect.sync(() => void emitted.push(a)))
            )
            fiber.addObserver((exit) => void (end = endOf(exit)))
            fibers.push(fiber)
            return {
              emitted,
              end: () => end,
              interrupt: () => Effect.runPromise(Fiber.interrupt(fiber)).then(() => undefined)
            }
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
          return Runtime.runPromiseExit(runtime)(Effect.tapError(spanned, (e) => Effect.sync(() => failures.push(e))))
            .then((exit) => {
              if (Exit.isSuccess(exit)) return { _tag: "Success" as const, value: exit.value }
              const end = endOf(exit)
              if (end._tag === "Failure") return end
              throw new Error(`the page call ended ${end._tag}: ${"message" in end ? end.message : ""}`)
            })
        },
        availability: () => Runtime.runPromise(runtime)(history.availability),
        rateLimitCurrent: () =>
          Runtime.runPromise(runtime)(Metric.value(BrokerHttpClient.metrics.rateLimitCurrent)).then((gauge) =>
            gauge.value
          ),
        counter: (counter, endpoint) =>
          Runtime.runPromise(runtime)(Metric.value(Metric.tagged(counters[counter], "endpoint", endpoint))).then(
            (state) => state.count
          ),
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
                  apiKey: Config.redacted(config.names.apiKey),
                  secretKey: Config.redacted(config.names.secretKey)
                }
              )),
              Layer.provide(client)
            )
        ),
        config === undefined
          ? (effect) => effect
          : Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(config.variables)))),
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
    const spaced = spec.spaced === undefined ? recurs : Schedule.intersect(Schedule.spaced(spec.spaced), recurs)
    const tag = spec.whileTag
    return tag === undefined ? spaced : Schedule.whileInput(spaced, (error) => error._tag === tag)
  }
}
