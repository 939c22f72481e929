/**
 * Fault injection for tests: per request, a seeded draw decides whether the server answers 500,
 * answers 429, drops the connection, never answers, or cuts the body short; a fixed latency may be
 * added to every request. Everything is off by default.
 *
 * @since 0.1.0
 */
import * as Prng from "@broker-history/core/random/Prng"
import * as Duration from "effect/Duration"

/**
 * Fault switches: probabilities from 0 to 1 (default 0) taken as slices of one draw per request, in
 * the order serverError, rateLimited, drop, hang, truncate, plus a fixed latency.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 * import { Duration } from "effect"
 *
 * const flaky: Faults.FaultOptions = { seed: 7, serverError: 0.1, rateLimited: 0.05, latency: "20 millis" }
 * const settings = Faults.normalize(flaky)
 * assert.strictEqual(settings.probabilities.rateLimited, 0.05)
 * assert.strictEqual(Duration.toMillis(settings.latency), 20)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface FaultOptions {
  /** Seed of the decisions (default 1): the same seed and request order replay the same faults. */
  readonly seed?: number | undefined
  /** Answer 500 `{code:500,msg:"Internal error"}`. */
  readonly serverError?: number | undefined
  /** Answer 429 `{code:429,msg:"Too many requests."}` with `Retry-After`. */
  readonly rateLimited?: number | undefined
  /** `Retry-After` seconds of injected 429s (default 1). */
  readonly retryAfterSeconds?: number | undefined
  /** Destroy the connection without answering. */
  readonly drop?: number | undefined
  /** Never answer; the connection stays open until the client gives up or the server stops. */
  readonly hang?: number | undefined
  /** Send the status and headers, then part of the body, then close the connection. */
  readonly truncate?: number | undefined
  /** Fixed latency added before every answer (default 0); the request is checked and rate-limited when it arrives. */
  readonly latency?: Duration.DurationInput | undefined
}

/**
 * An injected fault: a 500, a 429, a dropped connection, no answer at all, or a body cut short.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * const injector = Faults.makeInjector({ seed: 1, drop: 0.5 })
 * const seen = new Set<Faults.Fault | undefined>(Array.from({ length: 100 }, () => injector.next()))
 * assert.deepStrictEqual([...seen].sort(), ["drop", undefined])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Fault = "serverError" | "rateLimited" | "drop" | "hang" | "truncate"

/**
 * Every fault kind, in the order the draw's slices are laid out.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * assert.deepStrictEqual(Faults.kinds, ["serverError", "rateLimited", "drop", "hang", "truncate"])
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const kinds: ReadonlyArray<Fault> = ["serverError", "rateLimited", "drop", "hang", "truncate"]

/**
 * Fault settings with defaults applied and probabilities clamped to 0..1.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * const settings: Faults.Normalized = Faults.normalize({ serverError: 2, drop: Number.NaN })
 * assert.strictEqual(settings.probabilities.serverError, 1)
 * assert.strictEqual(settings.probabilities.drop, 0)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Normalized {
  readonly seed: number
  readonly probabilities: Readonly<Record<Fault, number>>
  readonly retryAfterSeconds: number
  readonly latency: Duration.Duration
}

const probability = (p: number | undefined): number =>
  p === undefined || !Number.isFinite(p) ? 0 : Math.min(1, Math.max(0, p))

/**
 * Applies the defaults: seed 1, probabilities 0 (NaN and out-of-range values clamped), Retry-After 1 s
 * (at least 1, whole seconds), latency 0.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 * import { Duration } from "effect"
 *
 * const settings = Faults.normalize({ retryAfterSeconds: 2.5 })
 * assert.strictEqual(settings.seed, 1)
 * assert.strictEqual(settings.retryAfterSeconds, 3)
 * assert.ok(Duration.equals(settings.latency, Duration.zero))
 * assert.ok(Faults.kinds.every((kind) => settings.probabilities[kind] === 0))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const normalize = (options: FaultOptions): Normalized => ({
  seed: options.seed ?? 1,
  probabilities: {
    serverError: probability(options.serverError),
    rateLimited: probability(options.rateLimited),
    drop: probability(options.drop),
    hang: probability(options.hang),
    truncate: probability(options.truncate)
  },
  retryAfterSeconds: Math.max(1, Math.ceil(options.retryAfterSeconds ?? 1)),
  latency: Duration.decode(options.latency ?? 0)
})

/**
 * Decides one request's fault from one draw in `[0, 1)`: the slice of the cumulative probabilities the
 * draw falls in, or no fault past them.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * const settings = Faults.normalize({ serverError: 0.1, drop: 0.4 })
 * assert.strictEqual(Faults.decide(settings, 0.05), "serverError")
 * assert.strictEqual(Faults.decide(settings, 0.25), "drop") // 0.1 <= draw < 0.1 + 0.4
 * assert.strictEqual(Faults.decide(settings, 0.75), undefined)
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const decide = (settings: Normalized, draw: number): Fault | undefined => {
  let edge = 0
  for (const kind of kinds) {
    edge += settings.probabilities[kind]
    if (draw < edge) return kind
  }
  return undefined
}

/**
 * A fault decider: the current settings and a generator seeded from them; replacing the settings
 * restarts the generator from their seed, so a run replays from the moment the faults were set.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * const injector: Faults.Injector = Faults.makeInjector({ seed: 3, serverError: 0.5 })
 * const first = Array.from({ length: 20 }, () => injector.next())
 * injector.set({ seed: 3, serverError: 0.5 })
 * assert.deepStrictEqual(Array.from({ length: 20 }, () => injector.next()), first)
 * assert.strictEqual(injector.settings().probabilities.serverError, 0.5)
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export interface Injector {
  readonly settings: () => Normalized
  readonly set: (options: FaultOptions) => void
  readonly next: () => Fault | undefined
}

/**
 * Makes an injector from initial fault options; it draws on every request, even with every switch off.
 *
 * @example
 * ```ts
 * import { Faults } from "@broker-history/server"
 *
 * const injector = Faults.makeInjector({})
 * assert.ok(Array.from({ length: 100 }, () => injector.next()).every((fault) => fault === undefined))
 * injector.set({ hang: 1 })
 * assert.strictEqual(injector.next(), "hang")
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeInjector = (options: FaultOptions): Injector => {
  let settings = normalize(options)
  let random = Prng.mulberry32(settings.seed)
  return {
    settings: () => settings,
    set: (options) => {
      settings = normalize(options)
      random = Prng.mulberry32(settings.seed)
    },
    // Draw on every request, even when all switches are off, so a request's fate depends only on
    // its position since the faults were set.
    next: () => decide(settings, random())
  }
}
