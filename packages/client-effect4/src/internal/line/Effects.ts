/**
 * What the shared internal modules use of `Effect` that Effect 3 and Effect 4 spell differently, as
 * Effect 4 spells it: the Effect 3 line's module of the same name has the same exports
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as References from "effect/References"
import * as Semaphore_ from "effect/Semaphore"
import * as Tracer from "effect/Tracer"
import type * as Results from "./Results.js"

/** The service a key stands for (`X["Service"]` in Effect 4). */
export type ServiceOf<T extends { readonly Service: unknown }> = T["Service"]

/** An effect completed by a callback; the callback may return a finalizer run on interruption. */
export const callback: <A, E = never>(
  register: (resume: (effect: Effect.Effect<A, E>) => void, signal: AbortSignal) => void | Effect.Effect<void>
) => Effect.Effect<A, E> = Effect.callback

/** `effect`, its failure handled by `f` (`catch`). */
export const recover: <A, E, A2, E2, R2>(
  effect: Effect.Effect<A, E>,
  f: (error: E) => Effect.Effect<A2, E2, R2>
) => Effect.Effect<A | A2, E2, R2> = Effect.catch

/** `effect`'s outcome as a value. */
export const result = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Results.Result<A, E>, never, R> =>
  Effect.result(effect)

/** `effect`, failed with `onTimeout()` when it has not completed within `duration`. */
export const timeoutFail = <A, E, E2>(
  effect: Effect.Effect<A, E>,
  duration: Duration.Input,
  onTimeout: () => E2
): Effect.Effect<A, E | E2> => Effect.timeoutOrElse(effect, { duration, orElse: () => Effect.fail(onTimeout()) })

/** The time of a clock now, without an effect (ms and ns). */
export const currentTimeMillisUnsafe = (clock: Clock.Clock): number => clock.currentTimeMillisUnsafe()
export const currentTimeNanosUnsafe = (clock: Clock.Clock): bigint => clock.currentTimeNanosUnsafe()

/** A semaphore and its operations. */
export type Semaphore = Semaphore_.Semaphore
export const makeSemaphore = (permits: number): Effect.Effect<Semaphore> => Semaphore_.make(permits)
export const take = (semaphore: Semaphore, permits: number): Effect.Effect<number> =>
  Semaphore_.take(semaphore, permits)
export const release = (semaphore: Semaphore, permits: number): Effect.Effect<number> =>
  Semaphore_.release(semaphore, permits)
export const resize = (semaphore: Semaphore, permits: number): Effect.Effect<void> =>
  Semaphore_.resize(semaphore, permits)
export const withPermits = <A, E, R>(
  semaphore: Semaphore,
  permits: number,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => Semaphore_.withPermits(semaphore, permits, effect)

/** A value every fiber has, `initial` unless an enclosing `provideReference` set it (a `Context.Reference`). */
export type Reference<A> = Context.Reference<A>
export const makeReference = <A>(key: string, initial: A): Reference<A> =>
  Context.Reference<A>(key, { defaultValue: () => initial })
export const getReference = <A>(reference: Reference<A>): Effect.Effect<A> => Effect.service(reference)
export const provideReference = <A, B, E, R>(
  effect: Effect.Effect<B, E, R>,
  reference: Reference<A>,
  value: A
): Effect.Effect<B, E, R> => Effect.provideService(effect, reference, value)

/**
 * `traced()` when the fiber's tracer keeps spans, else `untraced()`: the native tracer, or tracing
 * turned off, keeps none.
 */
export const ifTraced = <A, E>(
  traced: () => Effect.Effect<A, E>,
  untraced: () => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.withFiber<A, E>((fiber) =>
    !fiber.getRef(References.TracerEnabled) || fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer
      ? untraced()
      : traced()
  )

/** The options of a span made by `makeSpan`. */
export type SpanOptions = Pick<Tracer.SpanOptionsNoTrace, "attributes" | "kind" | "parent">

/** A span, not installed as the current one (Effect 4 captures no stack trace for it). */
export const makeSpan = (name: string, options: SpanOptions): Effect.Effect<Tracer.Span> =>
  Effect.makeSpan(name, options)

/** A result as an effect that succeeds or fails with it. */
export const fromResult = <A, E>(result: Results.Result<A, E>): Effect.Effect<A, E> => Effect.fromResult(result)
