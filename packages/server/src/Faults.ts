/**
 * Fault injection for tests: per request, a seeded draw decides whether the server answers 500,
 * answers 429, drops the connection, never answers, or cuts the body short; a fixed latency may be
 * added to every request. Everything is off by default.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Prng from "./Prng.js"

/**
 * Fault switches. Probabilities are 0..1 (default 0). They are slices of one draw per request, in
 * the order serverError, rateLimited, drop, hang, truncate: when they add up to more than 1 the
 * later ones get what is left.
 *
 * @example
 * import type { Faults } from "@broker-history/server"
 * const flaky: Faults.FaultOptions = { seed: 7, serverError: 0.1, rateLimited: 0.05, latency: "20 millis" }
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
 * An injected fault.
 *
 * @example
 * import type { Faults } from "@broker-history/server"
 * const kind: Faults.Fault = "drop"
 */
export type Fault = "serverError" | "rateLimited" | "drop" | "hang" | "truncate"

/**
 * Every fault kind, in draw order.
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * Faults.kinds.length // 5
 */
export const kinds: ReadonlyArray<Fault> = ["serverError", "rateLimited", "drop", "hang", "truncate"]

/**
 * Fault settings with defaults applied and probabilities clamped to 0..1.
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * Faults.normalize({ serverError: 2 }).probabilities.serverError // 1
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
 * Applies defaults: seed 1, probabilities 0 (NaN and out-of-range values clamped), Retry-After 1 s
 * (at least 1, whole seconds), latency 0.
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * Faults.normalize({}).retryAfterSeconds // 1
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
 * Decides one request's fault from one draw in `[0, 1)`: the draw falls in a slice of the
 * cumulative probabilities, or past them (no fault).
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * Faults.decide(Faults.normalize({ drop: 0.5 }), 0.25) // "drop"
 * Faults.decide(Faults.normalize({ drop: 0.5 }), 0.75) // undefined
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
 * A fault decider: the current settings and a generator seeded from them. Replacing the settings
 * restarts the generator from their seed, so a run replays from the moment the faults were set.
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * const injector = Faults.makeInjector({ seed: 3, serverError: 0.5 })
 * const first = injector.next()
 */
export interface Injector {
  readonly settings: () => Normalized
  readonly set: (options: FaultOptions) => void
  readonly next: () => Fault | undefined
}

/**
 * Makes an injector from initial fault options.
 *
 * @example
 * import { Faults } from "@broker-history/server"
 * const injector = Faults.makeInjector({})
 * injector.next() // undefined: everything is off
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
