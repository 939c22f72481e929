/**
 * What the shared tests of the internal modules use that Effect 3 and Effect 4 spell differently in
 * tests only, as Effect 3 spells it: the Effect 4 client's module of the same name has the same
 * exports (docs/architecture.md, "One source, two lines"). What the sources spell differently the
 * tests take from `src/internal/line/`.
 */
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as ConfigProvider from "effect/ConfigProvider"
import * as DateTime from "effect/DateTime"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/** `it` (with `it.effect` on the TestClock), `describe`, `expect` and `expectTypeOf` of `@effect/vitest`. */
export { describe, expect, expectTypeOf, it } from "@effect/vitest"

/** The clock `it.effect` runs on: `TestClock.adjust` moves it on once every fiber is suspended. */
export { TestClock } from "effect"

/** `effect` run in a new fiber, a child of the current one (`Effect.fork`). */
export const fork: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<Fiber.RuntimeFiber<A, E>, never, R> =
  Effect.fork

/** `effect` with a config provider that reads `environment` (names as in the environment). */
export const withEnvironment = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  environment: Readonly<Record<string, string>>
): Effect.Effect<A, E, R> =>
  Effect.withConfigProvider(effect, ConfigProvider.fromMap(new Map(Object.entries(environment))))

/** `effect` on a clock that reads `now()` ms and whose sleeps are `sleep` (no real time passes). */
export const withClock = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  clock: { readonly now: () => number; readonly sleep: (duration: Duration.Duration) => Effect.Effect<void> }
): Effect.Effect<A, E, R> => {
  const nanos = () => BigInt(clock.now()) * 1_000_000n
  const service: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: clock.now,
    unsafeCurrentTimeNanos: nanos,
    currentTimeMillis: Effect.sync(clock.now),
    currentTimeNanos: Effect.sync(nanos),
    sleep: clock.sleep
  }
  return Effect.withClock(effect, service)
}

/** The values of `stream` as they come, one array per chunk. */
export const arrays = <A, E>(stream: Stream.Stream<A, E>): Effect.Effect<ReadonlyArray<ReadonlyArray<A>>, E> =>
  Effect.map(
    Stream.runCollect(Stream.mapChunks(stream, Chunk.of)),
    (chunks) => Chunk.toReadonlyArray(chunks).map(Chunk.toReadonlyArray)
  )

/** The values of `stream`, in order. */
export const collect = <A, E>(stream: Stream.Stream<A, E>): Effect.Effect<ReadonlyArray<A>, E> =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

/** Whether `cause` holds a defect and no failure. */
export const diedOnly = <E>(cause: Cause.Cause<E>): boolean =>
  Option.isNone(Cause.failureOption(cause)) && Cause.isDie(cause)

/** A `DateTime` at `millis` ms past the epoch. */
export const dateTimeAt = (millis: number): DateTime.Utc => DateTime.unsafeMake(millis)

/** Date parts (as a date-time option takes them) of `millis` ms past the epoch, the others left out. */
export const epochParts = (millis: number): { readonly millis: number } => ({ millis })

/** What a schema decodes from (its encoded side). */
export type Encoded<S> = S extends Schema.Schema.Any ? Schema.Schema.Encoded<S> : never
