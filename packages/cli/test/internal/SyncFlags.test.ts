// Reading the sync flags without running the command: the first checks in their order, the
// --reset-stream values, and where each kind's history starts on a first run.
import { StreamOptions } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Either } from "effect"
import * as SyncFlags from "../../src/internal/SyncFlags.js"

describe("SyncFlags.limits", () => {
  const ok = { db: "sync.db", concurrency: 4, batchSize: 500 }
  const message = (flags: typeof ok) =>
    Either.match(SyncFlags.limits(flags), { onLeft: (m) => m, onRight: () => undefined })

  it("accepts the bounds of each range", () => {
    for (const flags of [ok, { ...ok, concurrency: 1, batchSize: 1 }, { ...ok, concurrency: 64, batchSize: 10_000 }]) {
      expect(message(flags)).toBeUndefined()
    }
  })

  it("refuses an empty database, then concurrency, then batch size out of range", () => {
    expect(message({ db: " ", concurrency: 0, batchSize: 0 })).toMatch(/^--db is empty: /)
    expect(message({ ...ok, concurrency: 65, batchSize: 0 })).toBe("--concurrency must be from 1 to 64")
    expect(message({ ...ok, concurrency: 0 })).toBe("--concurrency must be from 1 to 64")
    expect(message({ ...ok, batchSize: 10_001 })).toBe("--batch-size must be from 1 to 10000")
    expect(message({ ...ok, batchSize: 0 })).toBe("--batch-size must be from 1 to 10000")
  })
})

describe("SyncFlags.resetStreams", () => {
  it("stream ids in their stored spelling, once each; all wins; none is undefined", () => {
    expect(
      SyncFlags.resetStreams(["[ \"deposits\" ]", "[\"deposits\"]", "[\"transfers\",\"SPOT\",\"SPOT\",null,null]"])
    )
      .toEqual(Either.right(["[\"deposits\"]", "[\"transfers\",\"SPOT\",\"SPOT\",null,null]"]))
    expect(SyncFlags.resetStreams(["[\"deposits\"]", " All "])).toEqual(Either.right("all"))
    expect(SyncFlags.resetStreams([])).toEqual(Either.right(undefined))
  })

  it("names the first value that is not a stream id", () => {
    for (const value of ["deposits", "[]", "[\"other\"]", "{", "{\"0\":\"deposits\"}"]) {
      const read = SyncFlags.resetStreams(["[\"deposits\"]", value])
      expect(Either.isLeft(read) && read.left).toBe(
        `--reset-stream: ${
          JSON.stringify(value)
        } is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '["deposits"]') or all`
      )
    }
  })
})

describe("SyncFlags.since", () => {
  const now = 2_000_000_000_000
  const yearBack = now - Duration.toMillis(StreamOptions.defaultLookback)

  it("--since for both kinds when given", () => {
    expect(SyncFlags.since(5, undefined, now)).toEqual({ transfers: 5, deposits: 5 })
    expect(SyncFlags.since(0, Duration.days(7), now)).toEqual({ transfers: 0, deposits: 0 })
  })

  it("else the whole transfer history when its windows are unlimited, one year of deposits", () => {
    expect(SyncFlags.since(undefined, undefined, now)).toEqual({ transfers: 0, deposits: yearBack })
    expect(SyncFlags.since(undefined, Duration.days(7), now)).toEqual({ transfers: yearBack, deposits: yearBack })
  })

  it("never before the epoch", () => {
    expect(SyncFlags.since(undefined, Duration.days(7), 1000)).toEqual({ transfers: 0, deposits: 0 })
  })
})
