/**
 * A result (a success or a failure, as a value) as the shared internal modules use it: Effect 4's
 * `Result`. The Effect 3 line's module of the same name has the same exports over its `Either`
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import * as Result_ from "effect/Result"

/** A success `A` or a failure `E`. */
export type Result<A, E> = Result_.Result<A, E>

export const succeed: <A>(value: A) => Result<A, never> = Result_.succeed

export const fail: <E>(error: E) => Result<never, E> = Result_.fail

export const isSuccess: <A, E>(result: Result<A, E>) => result is Result_.Success<A, E> = Result_.isSuccess

/** The value of a success, or `undefined` for a failure. */
export const successOrUndefined = <A, E>(result: Result<A, E>): A | undefined =>
  Result_.isSuccess(result) ? result.success : undefined

/** The error of a failure, or `undefined` for a success. */
export const failureOrUndefined = <A, E>(result: Result<A, E>): E | undefined =>
  Result_.isFailure(result) ? result.failure : undefined

export const match = <A, E, B, C = B>(
  result: Result<A, E>,
  cases: { readonly onSuccess: (value: A) => B; readonly onFailure: (error: E) => C }
): B | C => Result_.match(result, cases)
