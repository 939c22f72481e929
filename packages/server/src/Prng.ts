/**
 * A small seeded pseudo-random generator, so that seeded histories and injected faults replay
 * exactly from a seed (Math.random cannot be seeded).
 *
 * @since 0.1.0
 */

/**
 * A generator of numbers in `[0, 1)`.
 *
 * @example
 * import { Prng } from "@broker-history/server"
 * const next: Prng.Prng = Prng.mulberry32(42)
 * next() // a number in [0, 1)
 */
export type Prng = () => number

/**
 * mulberry32: 32 bits of state, fast, and good enough for test data and fault decisions (not for
 * anything secret).
 *
 * @example
 * import { Prng } from "@broker-history/server"
 * const a = Prng.mulberry32(7)
 * const b = Prng.mulberry32(7)
 * a() === b() // true
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

/**
 * An integer in `[min, max]` (both inclusive).
 *
 * @example
 * import { Prng } from "@broker-history/server"
 * Prng.int(Prng.mulberry32(1), 1, 6) // a die roll
 */
export const int = (next: Prng, min: number, max: number): number => min + Math.floor(next() * (max - min + 1))

/**
 * One element of a non-empty array.
 *
 * @example
 * import { Prng } from "@broker-history/server"
 * Prng.pick(Prng.mulberry32(1), ["SPOT", "FUTURES"])
 */
export const pick = <A>(next: Prng, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

/**
 * `length` characters drawn from `alphabet`.
 *
 * @example
 * import { Prng } from "@broker-history/server"
 * Prng.text(Prng.mulberry32(1), "0123456789abcdef", 8) // 8 hex digits
 */
export const text = (next: Prng, alphabet: string, length: number): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)]
  return out
}
