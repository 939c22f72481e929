import { FullHistory } from "@broker-history/client-effect4"
import { Effect, Stream } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { describe, expect, it } from "./support/EffectTest.js"

// A full collection on demand (the flag only adds the `gc` function; it changes nothing else).
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void

interface Rec {
  readonly id: string
  readonly t: number
}

/**
 * A walk over `windows` × `perWindow` records, one every ms. On every request after the first, it
 * collects garbage (in a later task, as a real request would resume) and notes whether the first
 * record of the chunk the consumer saw last is still reachable.
 */
const probe = () =>
  Effect.gen(function*() {
    const perWindow = 50
    const limit = 100
    const total = 20 * perWindow
    let seen: WeakRef<Rec> | undefined
    const alive: Array<boolean> = []
    const options: FullHistory.Options<Rec> = {
      fetch: (startTime, endTime) =>
        Effect.callback<ReadonlyArray<Rec>>((resume) => {
          setImmediate(() => {
            if (seen !== undefined) {
              collectGarbage()
              alive.push(seen.deref() !== undefined)
            }
            const out: Array<Rec> = []
            for (let t = Math.min(endTime, total - 1); t >= Math.max(0, startTime) && out.length < limit; t--) {
              out.push({ id: `r${t}`, t })
            }
            resume(Effect.succeed(out))
          })
        }),
      time: (r) => r.t,
      key: (r) => r.id,
      compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      fingerprint: (r) => r.id,
      limit,
      maxWindow: perWindow,
      since: 0,
      until: total - 1,
      concurrency: 1
    }
    let count = 0
    yield* Stream.runForEachArray(FullHistory.records(options), (chunk) =>
      Effect.sync(() => {
        seen = new WeakRef(chunk[0])
        count += chunk.length
      }))
    return { count, total, alive }
  })

describe("the walk holds one page at a time", () => {
  it.effect("the records the consumer has seen are not kept while the next window is fetched", () =>
    Effect.gen(function*() {
      const { alive, count, total } = yield* probe()
      expect(count).toBe(total)
      expect(alive.length).toBeGreaterThanOrEqual(19)
      expect(alive.filter(Boolean)).toEqual([])
    }))
})
