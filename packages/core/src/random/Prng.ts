/**
 * A small seeded pseudo-random generator, so that seeded histories and injected faults replay
 * exactly from a seed (Math.random cannot be seeded).
 *
 * @internal
 */

/** A generator of numbers in `[0, 1)`: any such function can drive `int`, `pick` and `text`. */
export type Prng = () => number

/**
 * The mulberry32 generator from a seed: 32 bits of state, fast, and good enough for test data and
 * fault decisions (not for anything secret).
 */
export const mulberry32 = (seed: number): Prng => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in `[min, max]`, both inclusive. */
export const int = (next: Prng, min: number, max: number): number => min + Math.floor(next() * (max - min + 1))

/** One element of a non-empty array. */
export const pick = <A>(next: Prng, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

/** `length` characters drawn from `alphabet`. */
export const text = (next: Prng, alphabet: string, length: number): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)]
  return out
}
