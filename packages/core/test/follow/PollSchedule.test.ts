import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PollSchedule from "../../src/follow/PollSchedule.js"
import { prop } from "../support/Property.js"

const settings: PollSchedule.Settings = { minInterval: 1_000, maxInterval: 60_000, slots: 2 }

/**
 * Runs a schedule of `count` streams for `span` ms: each poll takes `pollMillis`; `finds(stream, t)`
 * says whether a poll ending at `t` found records. Returns each stream's poll start times.
 */
const simulate = (
  count: number,
  s: PollSchedule.Settings,
  span: number,
  pollMillis: number,
  finds: (stream: number, t: number) => boolean
): ReadonlyArray<ReadonlyArray<number>> => {
  let schedule = PollSchedule.make(count, s, 0)
  const starts: Array<Array<number>> = Array.from({ length: count }, () => [])
  let running: Array<{ readonly stream: number; readonly ends: number }> = []
  let t = 0
  while (t <= span) {
    for (const poll of running.filter((p) => p.ends <= t)) {
      schedule = PollSchedule.polled(schedule, poll.stream, finds(poll.stream, t) ? 1 : 0, t)
    }
    running = running.filter((p) => p.ends > t)
    const [next, picked] = PollSchedule.pick(schedule, t)
    schedule = next
    for (const stream of picked) {
      starts[stream]!.push(t)
      running.push({ stream, ends: t + pollMillis })
    }
    const due = PollSchedule.nextDue(schedule)
    const ends = running.map((p) => p.ends)
    const candidates = [...ends, ...(due !== undefined && due > t ? [due] : [])]
    t = candidates.length === 0 ? t + 1 : Math.max(t + 1, Math.min(...candidates))
  }
  return starts
}

/** The longest wait between the end of a poll and the start of the next one. */
const longestWait = (starts: ReadonlyArray<number>, pollMillis: number): number =>
  starts.slice(1).reduce((longest, start, i) => Math.max(longest, start - (starts[i]! + pollMillis)), 0)

describe("PollSchedule", () => {
  it("a poll that found records brings the next one to minInterval; quiet polls double it up to maxInterval", () => {
    let s = PollSchedule.make(1, settings, 0)
    expect(s.entries[0]).toMatchObject({ due: 0 })
    s = PollSchedule.polled(s, 0, 3, 100)
    expect(s.entries[0]).toMatchObject({ due: 1_100, level: 0 })
    const dues: Array<number> = []
    for (let i = 0; i < 9; i++) {
      s = PollSchedule.polled(s, 0, 0, 0)
      dues.push(s.entries[0]!.due)
    }
    expect(dues).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000])
  })

  it("a stream never polled starts quiet: no records on its first poll means maxInterval", () => {
    const s = PollSchedule.polled(PollSchedule.make(1, settings, 0), 0, 0, 5)
    expect(s.entries[0]!.due).toBe(60_005)
  })

  it("pick: only due streams not in flight, at most the free slots, earliest due first", () => {
    let s = PollSchedule.make(4, settings, 0)
    const [s1, first] = PollSchedule.pick(s, 0)
    expect(first).toEqual([0, 1])
    expect(s1.inFlight).toBe(2)
    expect(PollSchedule.pick(s1, 0)[1]).toEqual([])
    s = PollSchedule.polled(PollSchedule.polled(s1, 0, 1, 10), 1, 0, 20)
    // Streams 2 and 3 (due at 0) go before stream 0 (due at 1,010).
    const [s2, second] = PollSchedule.pick(s, 2_000)
    expect(second).toEqual([2, 3])
    s = PollSchedule.polled(PollSchedule.polled(s2, 2, 0, 2_000), 3, 0, 2_000)
    expect(PollSchedule.pick(s, 2_000)[1]).toEqual([0])
    expect(PollSchedule.nextDue(s)).toBe(1_010)
  })

  it("a poll ending for a stream not in flight frees no slot", () => {
    const s = PollSchedule.polled(PollSchedule.make(2, settings, 0), 1, 0, 0)
    expect(s.inFlight).toBe(0)
  })

  prop(
    "property: when the budget serves every poll wanted, no stream waits longer than maxInterval (and the polls ahead of it)",
    [fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 ** 30 })],
    ([count, slots, seed]) => {
      const pollMillis = 50
      // Even with every stream busy, the polls wanted take at most half of the slots' time.
      const minInterval = (2 * count * pollMillis) / slots
      const s = { minInterval, maxInterval: 8 * minInterval, slots }
      const finds = (stream: number, t: number) => ((stream * 7919 + Math.floor(t / 997) + seed) % 5) === 0
      const starts = simulate(count, s, 60_000, pollMillis, finds)
      // A poll in flight is not cut short, and streams due at the same time go one after another.
      const queued = Math.ceil(count / slots) * pollMillis
      for (const stream of starts) {
        expect(longestWait(stream, pollMillis)).toBeLessThanOrEqual(s.maxInterval + queued)
      }
    }
  )

  prop(
    "property: a stream that keeps finding records is polled more often than quiet ones, even when the budget falls short of the quiet streams alone",
    [
      fc.integer({ min: 2, max: 60 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 59 }),
      fc.constantFrom(4_000, 10_000)
    ],
    ([count, slots, busyIndex, maxInterval]) => {
      const busy = busyIndex % count
      // Polls of 100 ms: with a 4 s maxInterval and more than 40 streams a slot, the quiet streams
      // alone want more polls than the slots serve.
      const starts = simulate(count, { minInterval: 250, maxInterval, slots }, 60_000, 100, (i) => i === busy)
      for (const [i, stream] of starts.entries()) {
        if (i !== busy) expect(starts[busy]!.length).toBeGreaterThan(stream.length)
      }
    }
  )

  prop(
    "property: fairness: streams that behave alike are polled alike (within one poll), contended or not",
    [fc.integer({ min: 2, max: 60 }), fc.integer({ min: 1, max: 4 }), fc.boolean()],
    ([count, slots, busy]) => {
      // Contended when busy: every stream wants a poll each 100 ms, polls take 50 ms.
      const starts = simulate(count, { minInterval: 100, maxInterval: 2_000, slots }, 30_000, 50, () => busy)
      const counts = starts.map((s) => s.length)
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
    }
  )
})
