/**
 * What the shared internal modules use of `Stream` that Effect 3 and Effect 4 spell differently, as
 * Effect 4 spells it (over arrays): the Effect 3 line's module of the same name has the same exports
 * over chunks (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Pull from "effect/Pull"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"

/**
 * The arrays `f` gives from a state, each with the next state, until it gives none. An empty array
 * is a step without output.
 */
export const unfoldArrays = <S, A, E>(
  initial: S,
  f: (state: S) => Effect.Effect<Option.Option<readonly [ReadonlyArray<A>, S]>, E>
): Stream.Stream<A, E> =>
  Stream.fromPull(Effect.sync(() => {
    let state = initial
    const pull: Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E> = Effect.flatMap(
      Effect.suspend(() => f(state)),
      (next): Pull.Pull<Arr.NonEmptyReadonlyArray<A>, E> => {
        if (Option.isNone(next)) return Cause.done()
        const [out, after] = next.value
        state = after
        return out.length === 0 ? pull : Effect.succeed(out as Arr.NonEmptyReadonlyArray<A>)
      }
    )
    return pull
  }))

/** The values `f` gives from a state, one at a time, each with the next state, until it gives none. */
export const unfold = <S, A, E>(
  initial: S,
  f: (state: S) => Effect.Effect<Option.Option<readonly [A, S]>, E>
): Stream.Stream<A, E> => Stream.unfold(initial, (state) => Effect.map(f(state), Option.getOrUndefined))

/**
 * The pages `f` gives from a state, each with the next state or none after the last, the first page
 * asked for at once.
 */
export const paginateArrays = <S, A, E>(
  initial: S,
  f: (state: S) => Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<S>], E>
): Stream.Stream<A, E> => Stream.paginate(initial, f)

/** Each array pulled on its own: a stage holding the last array emitted does not hold the ones before. */
export const fromArrays = <A>(...arrays: ReadonlyArray<ReadonlyArray<A>>): Stream.Stream<A> =>
  Stream.fromArrays(...arrays)

/** `stream`'s values folded by `f` from `initial`, each giving its outputs. */
export const mapAccumArrays = <S, A, B, E>(
  stream: Stream.Stream<A, E>,
  initial: S,
  f: (state: S, value: A) => readonly [S, ReadonlyArray<B>]
): Stream.Stream<B, E> => Stream.mapAccum(stream, () => initial, f)

/** `stream`'s arrays of values (as they come) mapped by `f`, which gives as many values as it is given. */
export const mapArraysEffect = <A, B, E, E2>(
  stream: Stream.Stream<A, E>,
  f: (values: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E2>
): Stream.Stream<B, E | E2> =>
  Stream.mapArrayEffect(stream, (values) => f(values) as Effect.Effect<Arr.NonEmptyReadonlyArray<B>, E2>)

/** The stream an effect makes, the effect's scope closed when the stream ends. */
export const unwrapScoped = <A, E, E2, R>(
  effect: Effect.Effect<Stream.Stream<A, E>, E2, R>
): Stream.Stream<A, E | E2, Exclude<R, Scope.Scope>> => Stream.unwrap(effect)
