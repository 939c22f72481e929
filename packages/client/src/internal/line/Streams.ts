/**
 * What the shared internal modules use of `Stream` that Effect 3 and Effect 4 spell differently, as
 * Effect 3 spells it (over chunks): the Effect 4 line's module of the same name has the same exports
 * over arrays (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
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
  Stream.unfoldChunkEffect(initial, (state) =>
    Effect.map(f(state), (next) => {
      if (Option.isNone(next)) return Option.none()
      const [out, after] = next.value
      return Option.some([Chunk.unsafeFromArray(out), after] as const)
    }))

/** The values `f` gives from a state, one at a time, each with the next state, until it gives none. */
export const unfold = <S, A, E>(
  initial: S,
  f: (state: S) => Effect.Effect<Option.Option<readonly [A, S]>, E>
): Stream.Stream<A, E> => Stream.unfoldEffect(initial, f)

/**
 * The pages `f` gives from a state, each with the next state or none after the last (`Option` is
 * this line's), the first page asked for at once.
 */
export const paginateArrays = <S, A, E>(
  initial: S,
  f: (state: S) => Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<S>], E>
): Stream.Stream<A, E> =>
  Stream.paginateChunkEffect(
    initial,
    (state) => Effect.map(f(state), ([out, next]) => [Chunk.unsafeFromArray(out), next] as const)
  )

/** Each array its own chunk: a stage holding the last chunk emitted does not hold the ones before. */
export const fromArrays = <A>(...arrays: ReadonlyArray<ReadonlyArray<A>>): Stream.Stream<A> =>
  Stream.fromChunks(...arrays.map((array) => Chunk.unsafeFromArray(array)))

/** `stream`'s values folded by `f` from `initial`, each giving its outputs. */
export const mapAccumArrays = <S, A, B, E>(
  stream: Stream.Stream<A, E>,
  initial: S,
  f: (state: S, value: A) => readonly [S, ReadonlyArray<B>]
): Stream.Stream<B, E> =>
  Stream.flattenChunks(Stream.mapAccum(stream, initial, (state, value) => {
    const [after, out] = f(state, value)
    return [after, Chunk.unsafeFromArray(out)] as const
  }))

/** `stream`'s arrays of values (as they come) mapped by `f`, which gives as many values as it is given. */
export const mapArraysEffect = <A, B, E, E2>(
  stream: Stream.Stream<A, E>,
  f: (values: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E2>
): Stream.Stream<B, E | E2> =>
  Stream.mapChunksEffect(
    stream,
    (chunk) => Effect.map(f(Chunk.toReadonlyArray(chunk)), (out) => Chunk.unsafeFromArray(out))
  )

/** The stream an effect makes, the effect's scope closed when the stream ends. */
export const unwrapScoped = <A, E, E2, R>(
  effect: Effect.Effect<Stream.Stream<A, E>, E2, R>
): Stream.Stream<A, E | E2, Exclude<R, Scope.Scope>> => Stream.unwrapScoped(effect)
