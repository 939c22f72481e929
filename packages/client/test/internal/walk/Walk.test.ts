import * as Boundary from "@broker-history/core/walk/Boundary"
import * as Emission from "@broker-history/core/walk/Emission"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Clock, Effect, Stream } from "effect"
import * as fc from "fast-check"
import type * as FullHistory from "../../../src/FullHistory.js"
import * as Walk from "../../../src/internal/walk/Walk.js"

interface R {
  readonly id: string
  readonly t: number
}

/** An in-memory endpoint over `rows` (newest first), recording every request. */
const endpoint = (rows: ReadonlyArray<R>, visibleAt: (r: R, now: number) => boolean = () => true) => {
  const requests: Array<string> = []
  const sizes: Array<string> = []
  const fetch = (startTime: number, endTime: number, page: number, limit: number) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      requests.push(`${startTime}..${endTime}#${page}`)
      sizes.push(`${startTime}..${endTime}#${page}/${limit}`)
      return rows.filter((r) => r.t >= startTime && r.t <= endTime && visibleAt(r, now))
        .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
        .slice((page - 1) * limit, page * limit)
    })
  return { fetch, requests, sizes }
}

const options = (
  fetch: FullHistory.Options<R>["fetch"],
  overrides: Partial<FullHistory.Options<R>> = {}
): FullHistory.Options<R> => ({
  fetch,
  time: (r) => r.t,
  key: (r) => r.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  fingerprint: (r) => r.id,
  limit: 5,
  maxWindow: undefined,
  since: 0,
  until: 9_999,
  concurrency: 1,
  ...overrides
})

/** The events as they come, chunk by chunk. */
const chunks = (stream: Stream.Stream<Emission.Event<R>, unknown>) =>
  Effect.map(
    Stream.runCollect(Stream.mapChunks(stream, Chunk.of)),
    (cs) => Chunk.toReadonlyArray(cs).map(Chunk.toReadonlyArray)
  )

const windows = (events: ReadonlyArray<Emission.Event<R>>) => events.flatMap((e) => e._tag === "Window" ? [e] : [])

const rowsArb = fc.array(fc.record({ t: fc.integer({ min: 0, max: 9_999 }), n: fc.integer({ min: 1, max: 8 }) }), {
  maxLength: 30
}).map((clusters) => clusters.flatMap(({ n, t }, c) => Array.from({ length: n }, (_, i) => ({ id: `${c}-${i}`, t }))))

// The walk's behaviour (requests, output, failures, follow) is tested once for both lines in
// packages/behaviour/test/walk; here, what is this line's own: the events and chunks of its streams.
describe("Walk: the events and chunks of the walk's stream", () => {
  it.effect("nothing is sent before the stream runs; windows follow each other; each is released", () =>
    Effect.gen(function*() {
      const rows = Array.from({ length: 23 }, (_, i) => ({ id: `r${i}`, t: i * 400 }))
      const { fetch, requests } = endpoint(rows)
      const stream = Walk.events(options(fetch), 0)
      expect(requests).toEqual([])
      const cs = yield* chunks(stream)
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
    "property: run folds the events as the event stream would, chunk for chunk, the release an empty chunk",
    { rows: rowsArb, concurrency: fc.integer({ min: 1, max: 3 }) },
    ({ concurrency, rows }) =>
      Effect.gen(function*() {
        const opts = options(endpoint(rows).fetch, { concurrency })
        const boundary = Boundary.start(opts.since, undefined)
        const step = Emission.records({ ...opts, settlement: undefined, resumedAt: Number.NEGATIVE_INFINITY })
        const outputs = (stream: Stream.Stream<R, unknown>) =>
          Effect.map(
            Stream.runCollect(Stream.mapChunks(stream, Chunk.of)),
            (cs) => Chunk.toReadonlyArray(cs).map(Chunk.toReadonlyArray)
          )
        const folded = yield* outputs(Walk.run(opts, boundary.time, Emission.initial(boundary), step))
        const expected = yield* outputs(
          Stream.flattenIterables(
            Stream.mapAccum(
              Walk.events(options(endpoint(rows).fetch, { concurrency }), 0),
              Emission.initial(boundary),
              step
            )
          )
        )
        expect(folded.flat()).toEqual(expected.flat())
        expect(folded.flat().map((r) => r.id)).toEqual(
          [...rows].sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1)).map((r) => r.id)
        )
        // A window's records are followed by an empty chunk before the next request, so that no stream
        // stage keeps a page alive while the next one is read.
        if (concurrency === 1) {
          folded.forEach((chunk, i) => {
            if (chunk.length > 0) expect(folded[i + 1]).toEqual([])
          })
        }
      })
  )
})
