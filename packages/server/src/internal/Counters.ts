/**
 * What the server has answered, counted: requests received, answers by HTTP status and injected
 * faults by kind.
 *
 * @internal
 */
import type * as ReferenceServer from "../ReferenceServer.js"

/** The counters, updated in place by the server. */
export interface Counters {
  readonly request: () => void
  readonly status: (status: number) => void
  readonly fault: (fault: string) => void
  /** A copy of the counts so far. */
  readonly snapshot: () => ReferenceServer.Stats
}

/** Counters at zero. */
export const make = (): Counters => {
  let requests = 0
  const byStatus: Record<number, number> = {}
  const faults: Record<string, number> = {}
  return {
    request: () => {
      requests++
    },
    status: (status) => {
      byStatus[status] = (byStatus[status] ?? 0) + 1
    },
    fault: (fault) => {
      faults[fault] = (faults[fault] ?? 0) + 1
    },
    snapshot: () => ({ requests, byStatus: { ...byStatus }, faults: { ...faults } })
  }
}
