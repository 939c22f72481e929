/**
 * A small seeded pseudo-random generator, so that seeded histories and injected faults replay
 * exactly from a seed (Math.random cannot be seeded).
 *
 * @since 0.1.0
 */

/**
 * A generator of numbers in `[0, 1)`: any such function can drive `int`, `pick` and `text`.
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * const lowest: Prng.Prng = () => 0
 * assert.strictEqual(Prng.int(lowest, 1, 6), 1)
 * assert.strictEqual(Prng.pick(lowest, ["SPOT", "FUTURES"]), "SPOT")
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Prng = () => number

/**
 * The mulberry32 generator from a seed: 32 bits of state, fast, and good enough for test data and
 * fault decisions (not for anything secret).
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * const a = Prng.mulberry32(7)
 * const b = Prng.mulberry32(7)
 * const draws = Array.from({ length: 1000 }, () => a())
 * assert.deepStrictEqual(Array.from({ length: 1000 }, () => b()), draws) // same seed, same numbers
 * assert.ok(draws.every((x) => x >= 0 && x < 1))
 * ```
 *
 * @since 0.1.0
 * @category constructors
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
 * An integer in `[min, max]`, both inclusive.
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * const next = Prng.mulberry32(1)
 * const rolls = Array.from({ length: 600 }, () => Prng.int(next, 1, 6))
 * assert.deepStrictEqual([...new Set(rolls)].sort(), [1, 2, 3, 4, 5, 6])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const int = (next: Prng, min: number, max: number): number => min + Math.floor(next() * (max - min + 1))

/**
 * One element of a non-empty array.
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * const types = ["SPOT", "FUTURES"] as const
 * const next = Prng.mulberry32(1)
 * const picked = Array.from({ length: 100 }, () => Prng.pick(next, types))
 * assert.deepStrictEqual([...new Set(picked)].sort(), ["FUTURES", "SPOT"])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const pick = <A>(next: Prng, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

/**
 * `length` characters drawn from `alphabet`.
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/server"
 *
 * assert.match(Prng.text(Prng.mulberry32(1), "0123456789abcdef", 8), /^[0-9a-f]{8}$/)
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const text = (next: Prng, alphabet: string, length: number): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)]
  return out
}
