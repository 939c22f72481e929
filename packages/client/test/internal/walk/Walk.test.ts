import * as Boundary from "@broker-history/core/walk/Boundary"
import * as Emission from "@broker-history/core/walk/Emission"
import { Effect } from "effect"
import * as fc from "fast-check"
import * as Streams from "../../../src/internal/line/Streams.js"
import * as Walk from "../../../src/internal/walk/Walk.js"
import { arrays, describe, expect, it } from "../../support/line/Testing.js"
import type { R } from "../../support/WalkRows.js"
import { endpoint, options, rowsArb } from "../../support/WalkRows.js"

const windows = (events: ReadonlyArray<Emission.Event<R>>) => events.flatMap((e) => e._tag === "Window" ? [e] : [])

// The walk's behaviour (requests, output, failures, follow) is tested once for both lines in
// packages/behaviour/test/walk; here, the events and chunks of the walk's streams (the chunks only one
// line has: test/internal/line/ of that client).
describe("Walk: the events and chunks of the walk's stream", () => {
  it.effect("nothing is sent before the stream runs; windows follow each other; each is released", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 23 }, (_, i) => ({ id: `r${i}`, t: i * 400 }))
      const { fetch, requests } = endpoint(rows)
      const stream = Walk.events(options(fetch), 0)
      expect(requests).toEqual([])
      const cs = yield* arrays(stream)
      // Every chunk is one event (a window's records never share a chunk with what follows).
      expect(cs.every((c) => c.length <= 1)).toBe(true)
      const events = cs.flat()
      events.forEach((e, i) => {
        if (e._tag === "Window" && e.records.length > 0) expect(events[i + 1]).toEqual({ _tag: "Release" })
      })
      const ws = windows(events)
      expect(ws[0]!.start).toBe(0)
      expect(ws[ws.length - 1]!.end).toBe(9_999)
      for (let i = 1; i < ws.length; i++) expect(ws[i]!.start).toBe(ws[i - 1]!.end + 1)
      expect(ws.flatMap((w) => w.records).map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort())
      // Every window came from one short page: only page 1 was asked for.
      expect(requests.every((q) => q.endsWith("#1"))).toBe(true)
    }))

  it.effect.prop(
    "property: run folds the events as the event stream would, chunk for chunk",
    { rows: rowsArb, concurrency: fc.integer({ min: 1, max: 3 }) },
    ({ concurrency, rows }) =>
      Effect.gen(function*() {
        const opts = options(endpoint(rows).fetch, { concurrency })
        const boundary = Boundary.start(opts.since, undefined)
        const step = Emission.records({ ...opts, settlement: undefined, resumedAt: Number.NEGATIVE_INFINITY })
        const folded = yield* arrays(Walk.run(opts, boundary.time, Emission.initial(boundary), step))
        const expected = yield* arrays(
          Streams.mapAccumArrays(
            Walk.events(options(endpoint(rows).fetch, { concurrency }), 0),
            Emission.initial(boundary),
            step
          )
        )
        expect(folded.flat()).toEqual(expected.flat())
        expect(folded.flat().map((r) => r.id)).toEqual(
          [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1)).map((r) => r.id)
        )
      })
  )
})
