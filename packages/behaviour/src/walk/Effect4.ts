/**
 * The Effect 4 line's walk (`@broker-history/client-effect4`'s `FullHistory`) behind the suite's `WalkLine`,
 * run on the line's virtual clock (its test support's `VirtualClock`).
 */
import { BrokerError, FullHistory } from "@broker-history/client-effect4"
import { Cause, Clock, Duration, Effect, Exit, Fiber, Option, Stream } from "effect-4"
import * as VirtualClock from "../../../client-effect4/test/support/VirtualClock.js"
import { fieldsOf } from "../Line.js"
import type { End, Endpoint, Options, Outcome, Request, Script, Spec, WalkLine } from "../Walk.js"
import { isRefusal } from "../Walk.js"

const optionsOf = <A>(
  options: Options<A>,
  fetch: FullHistory.Options<A>["fetch"]
): FullHistory.Options<A> => {
  const { follow, onIncomplete, ...rest } = options
  return {
    ...rest,
    fetch,
    follow: follow === undefined ? undefined : {
      interval: Duration.millis(follow.interval),
      settlement: follow.settlement,
      now: Effect.map(Clock.currentTimeMillis, follow.now)
    },
    onIncomplete: onIncomplete === undefined
      ? undefined
      : (incomplete) => Effect.sync(() => onIncomplete(failureOf(incomplete)))
  }
}

/** A typed failure of the line as data. */
export const failureOf = (error: { readonly _tag: string; readonly message: string }) => ({
  _tag: error._tag,
  message: error.message,
  fields: fieldsOf(error)
})

/** How a fiber of the line ended, as data. */
export const endOf = (exit: Exit.Exit<unknown, unknown>): End => {
  if (Exit.isSuccess(exit)) return { _tag: "Done" }
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isSome(error)) {
    return { _tag: "Failure", failure: failureOf(error.value as { readonly _tag: string; readonly message: string }) }
  }
  if (Cause.hasInterruptsOnly(exit.cause)) return { _tag: "Interrupted" }
  return { _tag: "Defect", message: Cause.pretty(exit.cause) }
}

/** The line's walk under its suite name. */
export const walk: WalkLine = {
  name: "effect4",
  run: <A>(endpoint: Endpoint<A>, specs: ReadonlyArray<Spec<A>>, script: Script = {}) => {
    const requests: Array<Request> = []
    const fetchOf = (name: string): FullHistory.Options<A>["fetch"] => (startTime, endTime, page, limit) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const request = { startTime, endTime, page, limit, now }
        requests.push(request)
        // A promise is awaited; a plain answer (or a throw: a defect) is taken at once.
        const answered = Effect.suspend(() => {
          const answer = endpoint(request)
          return answer instanceof Promise ? Effect.promise(() => answer) : Effect.succeed(answer)
        })
        return Effect.flatMap(answered, (answer) =>
          isRefusal(answer)
            ? Effect.fail(
              new BrokerError.ApiError({
                request: { endpoint: name, startTime, endTime, page },
                status: answer.status,
                code: answer.code,
                msg: answer.msg
              })
            )
            : Effect.succeed(answer))
      })
    const one = (spec: Spec<A>) => {
      const emitted: Array<{ at: number; value: unknown }> = []
      const options = optionsOf(spec.options, fetchOf(spec.options.endpoint ?? "history"))
      const stream: Stream.Stream<unknown, BrokerError.BrokerError> = spec.kind === "records"
        ? FullHistory.records(options)
        : FullHistory.changes(options)
      const taken = spec.take === undefined ? stream : Stream.take(stream, spec.take)
      const { chunks } = spec
      const run = chunks === undefined
        ? Stream.runForEach(
          taken,
          (value) => Effect.map(Clock.currentTimeMillis, (at) => void emitted.push({ at, value }))
        )
        : Stream.runForEachArray(taken, (chunk) => Effect.sync(() => chunks(chunk)))
      return { emitted, run }
    }
    const body = Effect.gen(function*() {
      const walks = specs.map(one)
      const outcome = (i: number, exit: Exit.Exit<void, BrokerError.BrokerError>): Outcome<unknown> => ({
        emitted: walks[i]!.emitted,
        end: endOf(exit)
      })
      if (script.advance === undefined && script.together !== true) {
        const outcomes: Array<Outcome<unknown>> = []
        for (const [i, w] of walks.entries()) outcomes.push(outcome(i, yield* Effect.exit(w.run)))
        return outcomes
      }
      const fibers = yield* Effect.forEach(walks, (w) => Effect.forkChild(w.run))
      if (script.advance === undefined) {
        return (yield* Effect.forEach(fibers, Fiber.await)).map((exit, i) => outcome(i, exit))
      }
      for (const step of script.advance) yield* VirtualClock.adjust(Duration.millis(step))
      yield* Effect.forEach(fibers, Fiber.interrupt)
      return (yield* Effect.forEach(fibers, Fiber.await)).map((exit, i) => outcome(i, exit))
    })
    return Effect.runPromise(VirtualClock.run(body)).then((walks) => ({ walks, requests }))
  }
}
