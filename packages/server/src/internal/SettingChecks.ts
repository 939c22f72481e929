/**
 * The checks of a setting's text, value in, value out: integers in bounds, probabilities from 0 to 1,
 * truth values, one of a few words; each either reads the value or says what the text must be.
 *
 * @internal
 */
import * as Either from "effect/Either"

/** A check of a text: the value, or what the text must be ("must be an integer >= 0, got …"). */
export type Check<A> = (text: string) => Either.Either<A, string>

const integerText = /^-?[0-9]{1,15}$/

/** An integer from `min` to `max`. */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER): Check<number> => (text) => {
  const n = integerText.test(text) ? Number(text) : NaN
  if (!(n >= min)) return Either.left(`must be an integer >= ${min}, got ${JSON.stringify(text)}`)
  if (n > max) return Either.left(`must be at most ${max}, got ${n}`)
  return Either.right(n)
}

/** A number from 0 to 1. */
export const probability: Check<number> = (text) => {
  const p = /^[0-9]*\.?[0-9]+$/.test(text) ? Number(text) : NaN
  return p >= 0 && p <= 1
    ? Either.right(p)
    : Either.left(`must be a probability from 0 to 1, got ${JSON.stringify(text)}`)
}

/** Any text. */
export const text: Check<string> = Either.right

/** 1/true/yes/on or 0/false/no/off, in any letter case. */
export const truth: Check<boolean> = (value) => {
  if (/^(1|true|yes|on)$/i.test(value)) return Either.right(true)
  if (/^(0|false|no|off)$/i.test(value)) return Either.right(false)
  return Either.left(`must be true or false (or 1/0, yes/no, on/off), got ${JSON.stringify(value)}`)
}

/** One of `values`, in any letter case, read as written in `values`. */
export const oneOf = <A extends string>(values: ReadonlyArray<A>): Check<A> => (text) => {
  const found = values.find((value) => value.toLowerCase() === text.toLowerCase())
  return found === undefined
    ? Either.left(`must be ${values.join(" or ")}, got ${JSON.stringify(text)}`)
    : Either.right(found)
}
