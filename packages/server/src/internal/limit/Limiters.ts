/**
 * The rate limit's three shapes, each a judge of one key's requests by their arrival times, and the
 * map of keys that refuses checks too late to judge and drops the keys no later check can need
 * (docs/wire-contract.md, "Ordering, windows and limits"). Pure: every time is passed in, in
 * milliseconds.
 *
 * @internal
 */

/**
 * One key's budget. `take` judges a request that arrived at `now`: `undefined` when it is let in
 * (and counted), else the time from which a request arriving would not be refused for the same reason.
 */
export interface Judge {
  readonly take: (now: number) => number | undefined
  /** The newest arrival the key's state holds (`-Infinity` when none). */
  readonly newest: () => number
}

/** Makes the judge of a new key. */
export type Shape = () => Judge

/**
 * How many windows before the newest arrival judged a request may have arrived and still be judged:
 * a request checked later than that is refused, as what it would count against may be forgotten.
 */
export const windowsJudged = 2

/**
 * At most `limit` let in within any `windowMillis`: the arrival times of the key's accepted requests,
 * ascending. A request checked after later ones goes among them where it arrived; times more than
 * `windowsJudged + 1` windows before the newest are dropped (no request judged later can share a window
 * with them), so at most `limit × (windowsJudged + 1)` are kept.
 */
export const sliding = (limit: number, windowMillis: number): Shape => () => {
  const times: Array<number> = []
  return {
    newest: () => times.length === 0 ? -Infinity : times[times.length - 1]!,
    take: (now) => {
      const newest = times.length === 0 ? now : Math.max(now, times[times.length - 1]!)
      let stale = 0
      while (stale < times.length && times[stale]! <= newest - (windowsJudged + 1) * windowMillis) stale++
      if (stale > 0) times.splice(0, stale)
      // Where `now` goes (after equal times), then every run of limit + 1 times that would hold it.
      let at = times.length
      while (at > 0 && times[at - 1]! > now) at--
      const n = times.length
      for (let first = Math.max(0, at - limit); first <= at && first + limit - 1 < n; first++) {
        const earliest = first === at ? now : times[first]!
        const latest = first + limit === at ? now : times[first + limit - 1]!
        if (latest - earliest < windowMillis) {
          // A request arriving after the newest is allowed once the limit-th newest leaves the window.
          return times[n - limit]! + windowMillis
        }
      }
      times.splice(at, 0, now)
      return undefined
    }
  }
}

/**
 * At most `limit` let in per window `[k × windowMillis, (k + 1) × windowMillis)`: the key's counts in
 * its newest window and the `windowsJudged` before it (where a request checked after later ones may
 * still have arrived). A request from an earlier window is refused: its count is forgotten.
 */
export const fixed = (limit: number, windowMillis: number): Shape => () => {
  let newest = -Infinity
  let index = -Infinity
  // counts[j]: the requests let in during window `index - j`.
  const counts: Array<number> = Array.from({ length: windowsJudged + 1 }, () => 0)
  return {
    newest: () => newest,
    take: (now) => {
      newest = Math.max(newest, now)
      const at = Math.floor(now / windowMillis)
      if (at > index) {
        const shift = Math.min(counts.length, at - index)
        counts.unshift(...Array.from({ length: shift }, () => 0))
        counts.length = windowsJudged + 1
        index = at
      }
      const j = index - at
      if (j > windowsJudged) return (index - windowsJudged) * windowMillis
      if (counts[j]! >= limit) return (at + 1) * windowMillis
      counts[j] = counts[j]! + 1
      return undefined
    }
  }
}

/**
 * A bucket of `limit` tokens refilled continuously at `limit` per `windowMillis`, each request taking
 * one. Counted in credit units where a request costs `windowMillis` and a millisecond refills `limit`,
 * so that whole-millisecond arrivals are exact integers. The key keeps the credit as of
 * `windowsJudged` windows before its newest arrival and the accepted arrivals since, ascending: a
 * request checked after later ones is let in only when replaying them with it in its place leaves
 * every one a token (so the accepted are always what a bucket checking in arrival order would have
 * let in). At most `limit × (windowsJudged + 1)` arrivals are kept: a full bucket and the refill.
 */
export const tokenBucket = (limit: number, windowMillis: number): Shape => () => {
  const capacity = limit * windowMillis
  const refill = (credit: number, from: number, to: number): number =>
    to > from ? Math.min(capacity, credit + (to - from) * limit) : credit
  // The credit at `baseAt`, every accepted arrival up to it spent.
  let baseAt = -Infinity
  let baseCredit = capacity
  // The accepted arrivals after `baseAt`, ascending.
  const times: Array<number> = []
  // The credit at `at`, the newest arrival judged, every accepted arrival spent.
  let at = -Infinity
  let credit = capacity
  /** When the bucket, as of its newest arrival, holds a token again. */
  const freesAt = (): number => credit >= windowMillis ? at : at + Math.ceil((windowMillis - credit) / limit)
  return {
    newest: () => at,
    take: (now) => {
      if (now >= at) {
        credit = refill(credit, at, now)
        at = now
        const horizon = now - windowsJudged * windowMillis
        let folded = 0
        while (folded < times.length && times[folded]! <= horizon) {
          baseCredit = refill(baseCredit, baseAt, times[folded]!) - windowMillis
          baseAt = times[folded]!
          folded++
        }
        if (folded > 0) times.splice(0, folded)
        if (horizon > baseAt) {
          baseCredit = refill(baseCredit, baseAt, horizon)
          baseAt = horizon
        }
        if (credit < windowMillis) return freesAt()
        credit -= windowMillis
        times.push(now)
        return undefined
      }
      if (now < baseAt) return freesAt()
      // Checked after later arrivals: replay them from the base with this one in its place.
      let replayed = baseCredit
      let from = baseAt
      const spend = (time: number): boolean => {
        const before = refill(replayed, from, time)
        from = time
        replayed = before - windowMillis
        return before >= windowMillis
      }
      let place = 0
      while (place < times.length && times[place]! <= now) place++
      for (let i = 0; i < place; i++) if (!spend(times[i]!)) return freesAt()
      if (!spend(now)) return freesAt()
      for (let i = place; i < times.length; i++) if (!spend(times[i]!)) return freesAt()
      times.splice(place, 0, now)
      credit = refill(replayed, from, at)
      return undefined
    }
  }
}

/** Judges by key. */
export interface Keyed {
  readonly take: (key: string, now: number) => number | undefined
  /** How many keys hold state. */
  readonly size: () => number
}

/**
 * Judges each key's requests with its own `shape`. A request that arrived more than `windowsJudged`
 * windows before the newest arrival judged (of any key) is refused until then: the windows it would
 * count in may be forgotten. When a new key would grow the map past `sweepAbove` (then twice its size
 * after the sweep), the keys whose newest arrival is a window older than that are dropped: no request
 * judged later can share a window with theirs.
 */
export const keyed = (windowMillis: number, shape: Shape, sweepAbove = 1024): Keyed => {
  const judges = new Map<string, Judge>()
  let latest = -Infinity
  let sweepAt = sweepAbove
  return {
    size: () => judges.size,
    take: (key, now) => {
      if (now < latest - windowsJudged * windowMillis) return latest - windowsJudged * windowMillis
      latest = Math.max(latest, now)
      let judge = judges.get(key)
      if (judge === undefined) {
        if (judges.size >= sweepAt) {
          for (const [k, j] of judges) if (j.newest() <= latest - (windowsJudged + 1) * windowMillis) judges.delete(k)
          sweepAt = Math.max(sweepAbove, 2 * judges.size)
        }
        judge = shape()
        judges.set(key, judge)
      }
      return judge.take(now)
    }
  }
}
