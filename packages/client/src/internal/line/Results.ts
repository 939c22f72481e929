/**
 * A result (a success or a failure, as a value) as the shared internal modules use it, over Effect 3's
 * `Either`. The Effect 4 line's module of the same name has the same exports over its `Result`
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Either from "effect/Either"

/** A success `A` or a failure `E`. */
export type Result<A, E> = Either.Either<A, E>

export const succeed: <A>(value: A) => Result<A, never> = Either.right

export const fail: <E>(error: E) => Result<never, E> = Either.left

export const isSuccess: <A, E>(result: Result<A, E>) => result is Either.Right<E, A> = Either.isRight

/** The value of a success, or `undefined` for a failure. */
export const successOrUndefined = <A, E>(result: Result<A, E>): A | undefined =>
  Either.isRight(result) ? result.right : undefined

/** The error of a failure, or `undefined` for a success. */
export const failureOrUndefined = <A, E>(result: Result<A, E>): E | undefined =>
  Either.isLeft(result) ? result.left : undefined

export const match = <A, E, B, C = B>(
  result: Result<A, E>,
  cases: { readonly onSuccess: (value: A) => B; readonly onFailure: (error: E) => C }
): B | C => Either.match(result, { onRight: cases.onSuccess, onLeft: cases.onFailure })
