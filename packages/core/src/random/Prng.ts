/**
 * A small seeded pseudo-random generator, so that seeded histories and injected faults replay
 * exactly from a seed (Math.random cannot be seeded).
 *
 * @since 0.2.0
 */

/**
 * A generator of numbers in `[0, 1)`: any such function can drive `int`, `pick` and `text`.
 *
 * @example
 * ```ts
 * import * as Prng from "@broker-history/core/random/Prng"
 *
 * const fixed: Prng.Prng = () => 0.5
 * assert.strictEqual(Prng.int(fixed, 1, 3), 2)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Prng = () => number

/**
 * The mulberry32 generator from a seed: 32 bits of state, fast, and good enough for test data and
 * fault decisions (not for anything secret).
 *
 * @example
 * ```ts
 * import * as Prng from "@broker-history/core/random/Prng"
 *
 * const a = Prng.mulberry32(7)
 * const b = Prng.mulberry32(7)
 * assert.deepStrictEqual([a(), a()], [b(), b()])
 * ```
 *
 * @since 0.2.0
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
 * import * as Prng from "@broker-history/core/random/Prng"
 *
 * const next = Prng.mulberry32(1)
 * const n = Prng.int(next, 1, 6)
 * assert.ok(Number.isInteger(n) && n >= 1 && n <= 6)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const int = (next: Prng, min: number, max: number): number => min + Math.floor(next() * (max - min + 1))

/**
 * One element of a non-empty array.
 *
 * @example
 * ```ts
 * import * as Prng from "@broker-history/core/random/Prng"
 *
 * assert.strictEqual(Prng.pick(() => 0.99, ["a", "b", "c"]), "c")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const pick = <A>(next: Prng, items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!

/**
 * `length` characters drawn from `alphabet`.
 *
 * @example
 * ```ts
 * import * as Prng from "@broker-history/core/random/Prng"
 *
 * assert.strictEqual(Prng.text(() => 0, "xyz", 3), "xxx")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const text = (next: Prng, alphabet: string, length: number): string => {
  let out = ""
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)]
  return out
}
