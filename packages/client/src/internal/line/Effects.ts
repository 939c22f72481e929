/**
 * What the shared internal modules use of `Effect` that Effect 3 and Effect 4 spell differently, as
 * Effect 3 spells it: the Effect 4 line's module of the same name has the same exports
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Tracer from "effect/Tracer"
import type * as Results from "./Results.js"

/** The service a tag stands for (`X["Type"]` in Effect 3). */
export type ServiceOf<T extends { readonly Type: unknown }> = T["Type"]

/** An effect completed by a callback; the callback may return a finalizer run on interruption. */
export const callback: <A, E = never>(
  register: (resume: (effect: Effect.Effect<A, E>) => void, signal: AbortSignal) => void | Effect.Effect<void>
) => Effect.Effect<A, E> = Effect.async

/** `effect`, its failure handled by `f` (`catchAll`). */
export const recover: <A, E, A2, E2, R2>(
  effect: Effect.Effect<A, E>,
  f: (error: E) => Effect.Effect<A2, E2, R2>
) => Effect.Effect<A | A2, E2, R2> = Effect.catchAll

/** `effect`'s outcome as a value (`either`). */
export const result = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Results.Result<A, E>, never, R> =>
  Effect.either(effect)

/** `effect`, failed with `onTimeout()` when it has not completed within `duration`. */
export const timeoutFail = <A, E, E2>(
  effect: Effect.Effect<A, E>,
  duration: Parameters<typeof Effect.sleep>[0],
  onTimeout: () => E2
): Effect.Effect<A, E | E2> => Effect.timeoutFail(effect, { duration, onTimeout })

/** The time of a clock now, without an effect (ms and ns). */
export const currentTimeMillisUnsafe = (clock: Clock.Clock): number => clock.unsafeCurrentTimeMillis()
export const currentTimeNanosUnsafe = (clock: Clock.Clock): bigint => clock.unsafeCurrentTimeNanos()

/** A semaphore and its operations. */
export type Semaphore = Effect.Semaphore
export const makeSemaphore = (permits: number): Effect.Effect<Semaphore> => Effect.makeSemaphore(permits)
export const take = (semaphore: Semaphore, permits: number): Effect.Effect<number> => semaphore.take(permits)
export const release = (semaphore: Semaphore, permits: number): Effect.Effect<number> => semaphore.release(permits)
export const resize = (semaphore: Semaphore, permits: number): Effect.Effect<void> => semaphore.resize(permits)
export const withPermits = <A, E, R>(
  semaphore: Semaphore,
  permits: number,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => semaphore.withPermits(permits)(effect)

/** A value every fiber has, `initial` unless an enclosing `provideReference` set it (a `FiberRef`). */
export interface Reference<A> {
  readonly ref: FiberRef.FiberRef<A>
}
export const makeReference = <A>(_key: string, initial: A): Reference<A> => ({ ref: FiberRef.unsafeMake(initial) })
export const getReference = <A>(reference: Reference<A>): Effect.Effect<A> => FiberRef.get(reference.ref)
export const provideReference = <A, B, E, R>(
  effect: Effect.Effect<B, E, R>,
  reference: Reference<A>,
  value: A
): Effect.Effect<B, E, R> => Effect.locally(effect, reference.ref, value)

const builtInTracer = Context.get(DefaultServices.liveServices, Tracer.Tracer)

/**
 * `traced()` when the fiber's tracer keeps spans, else `untraced()`: the built-in tracer, or tracing
 * turned off, keeps none.
 */
export const ifTraced = <A, E>(
  traced: () => Effect.Effect<A, E>,
  untraced: () => Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.withFiberRuntime<A, E>((fiber) =>
    !fiber.getFiberRef(FiberRef.currentTracerEnabled) || fiber.currentTracer === builtInTracer
      ? untraced()
      : traced()
  )

/** The options of a span made by `makeSpan`. */
export type SpanOptions = Pick<Tracer.SpanOptions, "attributes" | "kind" | "parent">

/** A span, not installed as the current one, without a stack trace captured for it. */
export const makeSpan = (name: string, options: SpanOptions): Effect.Effect<Tracer.Span> =>
  Effect.makeSpan(name, { ...options, captureStackTrace: false })

/** A result as an effect that succeeds or fails with it. */
export const fromResult = <A, E>(result: Results.Result<A, E>): Effect.Effect<A, E> => result
