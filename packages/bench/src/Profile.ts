/**
 * Summaries of V8 CPU profiles (`node --cpu-prof`): self time per function, largest first, as a
 * share of all samples. What `ProfileMain.ts` prints for the throughput contenders' profiles.
 *
 * @since 0.1.0
 */

/**
 * The parts of a `.cpuprofile` the summary reads.
 *
 * @example
 * import type { Profile } from "@broker-history/bench"
 * const empty: Profile.CpuProfile = { nodes: [], samples: [], timeDeltas: [] }
 */
export interface CpuProfile {
  /** Monotonic clock, microseconds (`process.hrtime` / 1000). */
  readonly startTime?: number | undefined
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  }>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/**
 * The file a contender process writes beside its profiles: the measured reading's time span
 * (`{ from, to }`, monotonic microseconds, as the profiles' timestamps).
 *
 * @example
 * import { Profile } from "@broker-history/bench"
 * Profile.windowFile // "measured.json"
 */
export const windowFile = "measured.json"

/**
 * A time span of a profile, monotonic microseconds.
 *
 * @example
 * import type { Profile } from "@broker-history/bench"
 * const span: Profile.Window = { from: 0, to: 1_000_000 }
 */
export interface Window {
  readonly from: number
  readonly to: number
}

/**
 * One function's self time.
 *
 * @example
 * import type { Profile } from "@broker-history/bench"
 * const line = (e: Profile.Entry) => `${e.share.toFixed(1)} % ${e.name}`
 */
export interface Entry {
  /** Function name, file (last two path segments) and line. */
  readonly name: string
  readonly selfMillis: number
  /** Percent of all sampled time. */
  readonly share: number
}

const where = (url: string, line: number): string => {
  if (url === "") return ""
  const parts = url.replace(/^file:\/\//, "").split("/")
  const at = parts.indexOf("node_modules")
  const shown = at === -1 ? parts.slice(-2) : parts.slice(at + 1, at + 2).concat(parts.slice(-1))
  return ` ${shown.join("/")}:${line + 1}`
}

/**
 * Self time per function (summed over the profile's samples, each weighted by its time delta),
 * largest first, as shares of the busy time (idle samples left out); profiles given together are
 * added up. With a window, only the samples inside it count.
 *
 * @example
 * import { Profile } from "@broker-history/bench"
 * Profile.selfTime([{ profile: { nodes: [], samples: [], timeDeltas: [] } }]) // []
 */
export const selfTime = (
  profiles: ReadonlyArray<{ readonly profile: CpuProfile; readonly window?: Window | undefined }>
): ReadonlyArray<Entry> => {
  const totals = new Map<string, number>()
  let all = 0
  for (const { profile, window } of profiles) {
    const names = new Map(profile.nodes.map((n) => [
      n.id,
      `${n.callFrame.functionName || "(anonymous)"}${where(n.callFrame.url, n.callFrame.lineNumber)}`
    ]))
    let at = profile.startTime ?? 0
    profile.samples.forEach((id, i) => {
      const micros = profile.timeDeltas[i] ?? 0
      at += micros
      if (window !== undefined && (at < window.from || at > window.to)) return
      const name = names.get(id) ?? "(unknown)"
      if (name === "(idle)") return
      totals.set(name, (totals.get(name) ?? 0) + micros)
      all += micros
    })
  }
  return [...totals].map(([name, micros]) => ({ name, selfMillis: micros / 1000, share: (100 * micros) / all }))
    .sort((a, b) => b.selfMillis - a.selfMillis)
}
