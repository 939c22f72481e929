/**
 * What the shared tests of the internal modules use that Effect 3 and Effect 4 spell differently in
 * tests only, as Effect 4 spells it: the Effect 3 client's module of the same name has the same
 * exports (docs/architecture.md, "One source, two lines"). What the sources spell differently the
 * tests take from `src/internal/line/`.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as ConfigProvider from "effect/ConfigProvider"
import * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/** `it` (with `it.effect` on the virtual clock), `describe`, `expect` and `expectTypeOf` of the shim over vitest. */
export { describe, expect, expectTypeOf, it } from "../EffectTest.js"

/** The clock `it.effect` runs on: `TestClock.adjust` moves it on once every fiber is suspended. */
export * as TestClock from "../TestClock.js"

/** `effect` run in a new fiber, a child of the current one (`Effect.forkChild`). */
export const fork: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<Fiber.Fiber<A, E>, never, R> = (
  effect
) => Effect.forkChild(effect)

/** `effect` with a config provider that reads `environment` (names as in the environment). */
export const withEnvironment = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  environment: Readonly<Record<string, string>>
): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: environment }))

/** `effect` on a clock that reads `now()` ms and whose sleeps are `sleep` (no real time passes). */
export const withClock = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  clock: { readonly now: () => number; readonly sleep: (duration: Duration.Duration) => Effect.Effect<void> }
): Effect.Effect<A, E, R> => {
  const nanos = () => BigInt(clock.now()) * 1_000_000n
  const service: Clock.Clock = {
    currentTimeMillisUnsafe: clock.now,
    currentTimeNanosUnsafe: nanos,
    monotonicTimeNanosUnsafe: nanos,
    currentTimeMillis: Effect.sync(clock.now),
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanos: Effect.sync(nanos),
    sleep: clock.sleep
  }
  return Effect.provideService(effect, Clock.Clock, service)
}

/** The values of `stream` as they come, one array per chunk. */
export const arrays = <A, E>(stream: Stream.Stream<A, E>): Effect.Effect<ReadonlyArray<ReadonlyArray<A>>, E> =>
  Effect.map(Stream.runCollect(Stream.mapArray(stream, (array) => [array])), (arrays) => arrays.map((a) => [...a]))

/** The values of `stream`, in order. */
export const collect = <A, E>(stream: Stream.Stream<A, E>): Effect.Effect<ReadonlyArray<A>, E> =>
  Stream.runCollect(stream)

/** Whether `cause` holds a defect and no failure. */
export const diedOnly = <E>(cause: Cause.Cause<E>): boolean =>
  Option.isNone(Cause.findErrorOption(cause)) && Cause.hasDies(cause)

/** A `DateTime` at `millis` ms past the epoch. */
export const dateTimeAt = (millis: number): DateTime.Utc => DateTime.makeUnsafe(millis)

/** Date parts (as a date-time option takes them) of `millis` ms past the epoch, the others left out. */
export const epochParts = (millis: number): { readonly millisecond: number } => ({ millisecond: millis })

/** What a schema decodes from (its encoded side). */
export type Encoded<S> = S extends Schema.Top ? S["Encoded"] : never
