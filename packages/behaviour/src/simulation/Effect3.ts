/**
 * The Effect 3 line's `BrokerHistory` behind the suite's `SimulationLine`: the layer over its test
 * support's mock transport, signing synchronously, on its virtual clock.
 */
import { BrokerHistory, BrokerHttpClient } from "@broker-history/client"
import { HttpClient } from "@effect/platform"
import { Duration, Effect, Exit, Fiber, Layer, Metric, Runtime, Stream } from "effect"
import { logged } from "../../../client/test/support/Logged.js"
import { historyLayerSyncSigning, mockService } from "../../../client/test/support/MockService.js"
import * as VirtualClock from "../../../client/test/support/VirtualClock.js"
import type { Handle, LogLine, Sim, SimulationLine, StreamMethod } from "../Simulation.js"
import type { End } from "../Walk.js"
import { endOf } from "../walk/Effect3.js"

/** The line under its suite name. */
export const simulation: SimulationLine = {
  name: "effect3",
  run: (service, { settings = {}, start }, script) => {
    const mock = mockService(service.answer, service.time === undefined ? {} : { time: service.time })
    const logs: Array<LogLine> = []
    const latency = service.latencyMillis
    // Each answer after `latency` ms of the clock: the mock transport answers when the wait is over.
    const client = latency === undefined ? mock.client : Layer.effect(
      HttpClient.HttpClient,
      Effect.map(
        HttpClient.HttpClient,
        (inner) =>
          HttpClient.transform(inner, (answer) => Effect.zipRight(Effect.sleep(Duration.millis(latency)), answer))
      )
    ).pipe(Layer.provide(mock.client))
    const body = Effect.gen(function*() {
      const clock = yield* VirtualClock.VirtualClock
      const runtime = yield* Effect.runtime<BrokerHistory.BrokerHistory>()
      const history = yield* BrokerHistory.BrokerHistory
      const fibers: Array<Fiber.RuntimeFiber<void, unknown>> = []
      const started = (n: number | undefined, method: StreamMethod, args: ReadonlyArray<unknown>): Handle => {
        const emitted: Array<unknown> = []
        let end: End | undefined
        const stream = (history[method] as (...args: ReadonlyArray<unknown>) => Stream.Stream<unknown, unknown>)(
          ...args
        )
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
      const sim: Sim = {
        adjust: (millis) => Effect.runPromise(clock.adjust(millis)),
        start: (method, ...args) => started(undefined, method, args),
        take: (n, method, ...args) => started(n, method, args),
        call: (method, query) => {
          const call = (history[method] as (query: unknown) => Effect.Effect<unknown, unknown>)(query)
          return Runtime.runPromiseExit(runtime)(call).then((exit) => {
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
        logs,
        requests: mock.seen,
        timeRequests: mock.timeRequests
      }
      yield* Effect.promise(() => script(sim))
      yield* Effect.forEach(fibers, Fiber.interrupt)
    })
    return Effect.runPromise(
      body.pipe(
        Effect.provide(historyLayerSyncSigning({ client }, settings as never)),
        logged(logs),
        VirtualClock.run({ start })
      )
    )
  }
}
