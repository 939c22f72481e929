/**
 * The seeded inserts of the follow-at-scale benchmark (`Staleness`): a seeded ranking of the streams,
 * each insert to a stream drawn from a Zipf law over that ranking (a few busy streams, a long quiet
 * tail), at exponential gaps. The same seed gives the same inserts at the same times from the start.
 *
 * @since 0.2.0
 */
import { Prng } from "@broker-history/testing/ServerInternals"

/**
 * A Zipf law over ranks 1..n with `exponent`: a seeded draw of a rank (0-based).
 *
 * @example
 * import * as InsertPlan from "@broker-history/bench/InsertPlan"
 * import { Prng } from "@broker-history/testing/ServerInternals"
 * const rank = InsertPlan.zipfDraw(100, 1.5)(Prng.mulberry32(1))
 */
export const zipfDraw = (n: number, exponent: number) => {
  const cumulative: Array<number> = []
  let total = 0
  for (let k = 1; k <= n; k++) cumulative.push(total += k ** -exponent)
  return (next: Prng.Prng): number => {
    const u = next() * total
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumulative[mid]! < u) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/**
 * One insert: the index of its stream and that stream's rank in the Zipf law (1 = busiest).
 *
 * @example
 * import type * as InsertPlan from "@broker-history/bench/InsertPlan"
 * const busiest = (i: InsertPlan.Insert) => i.rank === 1
 */
export interface Insert {
  readonly stream: number
  readonly rank: number
}

/**
 * The inserts' setting: `streams` streams, `insertsPerSecond` over all of them at the simulated
 * time, `scale` times faster in real time.
 *
 * @example
 * import type * as InsertPlan from "@broker-history/bench/InsertPlan"
 * const plan: InsertPlan.Settings = { seed: 1, streams: 20, zipf: 1.5, insertsPerSecond: 1, scale: 4 }
 */
export interface Settings {
  readonly seed: number
  readonly streams: number
  readonly zipf: number
  readonly insertsPerSecond: number
  readonly scale: number
}

/**
 * The inserts from `start` (real ms): each call with the time `now` returns the inserts due by then
 * since the last call, in order.
 *
 * @example
 * import * as InsertPlan from "@broker-history/bench/InsertPlan"
 * const due = InsertPlan.make({ seed: 1, streams: 20, zipf: 1.5, insertsPerSecond: 1, scale: 4 }, 0)
 * due(0).length // 1: the first insert is due at the start
 */
export const make = (settings: Settings, start: number): (now: number) => Array<Insert> => {
  const next = Prng.mulberry32(settings.seed ^ 0x5a1e)
  const ranking = Array.from({ length: settings.streams }, (_, i) => i)
  for (let i = ranking.length - 1; i > 0; i--) {
    const j = Prng.int(next, 0, i)
    ;[ranking[i], ranking[j]] = [ranking[j]!, ranking[i]!]
  }
  const draw = zipfDraw(settings.streams, settings.zipf)
  let due = start
  return (now) => {
    const inserts: Array<Insert> = []
    while (due <= now) {
      const rank = draw(next)
      inserts.push({ stream: ranking[rank]!, rank: rank + 1 })
      due += -Math.log(1 - next()) * (1000 / settings.insertsPerSecond) / settings.scale
    }
    return inserts
  }
}
