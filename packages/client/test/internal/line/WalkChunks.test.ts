import * as Boundary from "@broker-history/core/walk/Boundary"
import * as Emission from "@broker-history/core/walk/Emission"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Walk from "../../../src/internal/walk/Walk.js"
import { arrays } from "../../support/line/Testing.js"
import { endpoint, options, rowsArb } from "../../support/WalkRows.js"

// An Effect 3 stream may carry an empty chunk, and the walk's does: the release that follows a window.
// (An Effect 4 stream carries no empty arrays; its release is an event only.)
describe("Walk: the chunks of an Effect 3 stream", () => {
  it.effect.prop(
    "property: run follows a window's records with an empty chunk before the next request",
    { rows: rowsArb },
    ({ rows }) =>
      Effect.gen(function*() {
        const opts = options(endpoint(rows).fetch)
        const boundary = Boundary.start(opts.since, undefined)
        const step = Emission.records({ ...opts, settlement: undefined, resumedAt: Number.NEGATIVE_INFINITY })
        const folded = yield* arrays(Walk.run(opts, boundary.time, Emission.initial(boundary), step))
        // So that no stream stage keeps a page alive while the next one is read.
        expect(folded.some((chunk) => chunk.length > 0)).toBe(rows.length > 0)
        folded.forEach((chunk, i) => {
          if (chunk.length > 0) expect(folded[i + 1]).toEqual([])
        })
      })
  )
})
