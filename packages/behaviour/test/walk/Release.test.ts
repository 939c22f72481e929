// The walk holds one page at a time, on both lines: once the consumer has seen a chunk, the walk keeps
// none of its records while it fetches the next window.
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { describe, expect, it } from "vitest"
import type { Endpoint } from "../../src/Walk.js"
import { expectEnd } from "../../src/Walk.js"
import * as Walks from "../../src/Walks.js"

// A full collection on demand (the flag only adds the `gc` function; it changes nothing else).
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void

interface Rec {
  readonly id: string
  readonly t: number
}

const perWindow = 50
const limit = 100
const total = 20 * perWindow

describe.each(Walks.all)("the walk holds one page at a time ($name)", (walk) => {
  it("the records the consumer has seen are not kept while the next window is fetched", async () => {
    let seen: WeakRef<Rec> | undefined
    const alive: Array<boolean> = []
    // One record every ms, newest first. Each request after the first collects garbage in a later
    // task (as a real request would resume) and notes whether the first record of the chunk the
    // consumer saw last is still reachable.
    const endpoint: Endpoint<Rec> = ({ endTime, startTime }) =>
      new Promise((resolve) =>
        setImmediate(() => {
          if (seen !== undefined) {
            collectGarbage()
            alive.push(seen.deref() !== undefined)
          }
          const out: Array<Rec> = []
          for (let t = Math.min(endTime, total - 1); t >= Math.max(0, startTime) && out.length < limit; t--) {
            out.push({ id: `r${t}`, t })
          }
          resolve(out)
        })
      )
    let count = 0
    const { walks: [outcome] } = await walk.run(endpoint, [{
      kind: "records",
      options: {
        time: (r) => r.t,
        key: (r) => r.id,
        compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        fingerprint: (r) => r.id,
        limit,
        maxWindow: perWindow,
        since: 0,
        until: total - 1,
        concurrency: 1
      },
      chunks: (chunk) => {
        if (chunk.length > 0) seen = new WeakRef(chunk[0] as Rec)
        count += chunk.length
      }
    }])
    expectEnd(outcome!, "Done")
    expect(outcome!.emitted).toEqual([])
    expect(count).toBe(total)
    expect(alive.length).toBeGreaterThanOrEqual(19)
    expect(alive.filter(Boolean)).toEqual([])
  })
})
