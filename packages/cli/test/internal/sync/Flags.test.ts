// Reading the sync flags without running the command: the first checks in their order, the
// --reset-stream values, and where each kind's history starts on a first run.
import { StreamOptions } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Either } from "effect"
import * as Flags from "../../../src/internal/sync/Flags.js"

describe("Flags.limits", () => {
  const ok = { db: "sync.db", concurrency: 4, batchSize: 500 }
  const message = (flags: Omit<typeof ok, "db"> & { db: string | undefined }, variable?: string) =>
    Either.match(Flags.limits(flags, variable), { onLeft: (m) => m, onRight: () => undefined })

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

  it("the database: --db, else BROKER_DB, checked first", () => {
    expect(Flags.limits({ ...ok, db: undefined }, "from-env.db")).toEqual(Either.right({ db: "from-env.db" }))
    expect(Flags.limits(ok, "from-env.db")).toEqual(Either.right({ db: "sync.db" }))
    expect(message({ db: undefined, concurrency: 0, batchSize: 0 })).toMatch(
      /^--db is not given and BROKER_DB is not set/
    )
    expect(message({ ...ok, db: ":memory:", concurrency: 0 })).toMatch(/^--db :memory: is SQLite's in-memory database/)
    expect(message({ ...ok, db: "pg://h/db" })).toMatch(/^--db pg:\/\/h\/db: the URL scheme pg: is not supported/)
  })
})

describe("Flags.resetStreams", () => {
  it("stream ids in their stored spelling, once each; all wins; none is undefined", () => {
    expect(
      Flags.resetStreams(["[ \"deposits\" ]", "[\"deposits\"]", "[\"transfers\",\"SPOT\",\"SPOT\",null,null]"])
    )
      .toEqual(Either.right(["[\"deposits\"]", "[\"transfers\",\"SPOT\",\"SPOT\",null,null]"]))
    expect(Flags.resetStreams(["[\"deposits\"]", " All "])).toEqual(Either.right("all"))
    expect(Flags.resetStreams([])).toEqual(Either.right(undefined))
  })

  it("names the first value that is not a stream id", () => {
    for (const value of ["deposits", "[]", "[\"other\"]", "{", "{\"0\":\"deposits\"}"]) {
      const read = Flags.resetStreams(["[\"deposits\"]", value])
      expect(Either.isLeft(read) && read.left).toBe(
        `--reset-stream: ${
          JSON.stringify(value)
        } is not a stream id; give a stream as stored in sync_checkpoints.stream (for example '["deposits"]') or all`
      )
    }
  })

  it("a stream id of the shapes a sync stores, account types in any letter case", () => {
    expect(Flags.resetStreams(["[\"transfers\",\"spot\",\"Futures\",\"a@x\",null]"])).toEqual(
      Either.right(["[\"transfers\",\"SPOT\",\"FUTURES\",\"a@x\",null]"])
    )
    // Any account type a sync may have sent (a word), as it stored it.
    expect(Flags.resetStreams(["[\"transfers\",\"spot\",\"margin\",null,null]"])).toEqual(
      Either.right(["[\"transfers\",\"SPOT\",\"MARGIN\",null,null]"])
    )
    for (
      const value of [
        "[\"deposits\",\"USDT\"]",
        "[\"transfers\"]",
        "[\"transfers\",\"X\"]",
        "[\"transfers\",\"SPOT\",\"MARGIN X\",null,null]",
        "[\"transfers\",\"SPOT\",\"SPOT\",null]",
        "[\"transfers\",\"SPOT\",\"SPOT\",null,null,null]",
        "[\"transfers\",\"SPOT\",\"SPOT\",1,null]",
        "[\"transfers\",\"SPOT\",\"SPOT\",\"\",null]"
      ]
    ) {
      const read = Flags.resetStreams([value])
      expect(Either.isLeft(read) && read.left, value).toMatch(/^--reset-stream: .* is not a stream id; /)
    }
  })
})

describe("Flags.sinceNotAhead", () => {
  const now = Date.parse("2026-01-01T00:00:00Z")

  it("--since up to this machine's now is taken; none too", () => {
    expect(Flags.sinceNotAhead(now, "2026-01-01", now)).toEqual(Either.void)
    expect(Flags.sinceNotAhead(0, "0", now)).toEqual(Either.void)
    expect(Flags.sinceNotAhead(undefined, undefined, now)).toEqual(Either.void)
  })

  it("a --since after it is refused before anything is opened", () => {
    expect(Flags.sinceNotAhead(now + 1, "2999-01-01", now)).toEqual(
      Either.left(
        "--since: 2999-01-01 is after this machine's clock (2026-01-01T00:00:00.000Z): give a date in the past, a time back such as 2y, or 0 for everything"
      )
    )
  })
})

describe("Flags.since", () => {
  const now = 2_000_000_000_000
  const yearBack = now - Duration.toMillis(StreamOptions.defaultLookback)

  it("--since for both kinds when given", () => {
    expect(Flags.since(5, undefined, now)).toEqual({ transfers: 5, deposits: 5 })
    expect(Flags.since(0, Duration.days(7), now)).toEqual({ transfers: 0, deposits: 0 })
  })

  it("else the whole transfer history when its windows are unlimited, one year of deposits", () => {
    expect(Flags.since(undefined, undefined, now)).toEqual({ transfers: 0, deposits: yearBack })
    expect(Flags.since(undefined, Duration.days(7), now)).toEqual({ transfers: yearBack, deposits: yearBack })
  })

  it("never before the epoch", () => {
    expect(Flags.since(undefined, Duration.days(7), 1000)).toEqual({ transfers: 0, deposits: 0 })
  })
})

describe("Flags.listing", () => {
  it("the default needs nothing; a given --list-interval needs --follow and a plan that discovers", () => {
    expect(Flags.listing({ listInterval: undefined, follow: false }, false, 600_000)).toEqual(Either.void)
    expect(Flags.listing({ listInterval: "1m", follow: true }, true, 60_000)).toEqual(Either.void)
    const without = Flags.listing({ listInterval: "1m", follow: false }, true, 60_000)
    expect(Either.isLeft(without) && without.left).toMatch(/^--list-interval needs --follow/)
    const listed = Flags.listing({ listInterval: "1m", follow: true }, false, 60_000)
    expect(Either.isLeft(listed) && listed.left).toMatch(/^--list-interval applies when the service lists/)
  })

  it("longer than 0", () => {
    expect(Flags.listing({ listInterval: "0s", follow: true }, true, 0)).toEqual(
      Either.left("--list-interval must be longer than 0")
    )
  })
})

describe("Flags.dryRun", () => {
  it("plans only: --follow and --reset-stream are refused with it", () => {
    expect(Flags.dryRun({ dryRun: false, follow: true, resetStream: ["all"] })).toEqual(Either.void)
    expect(Flags.dryRun({ dryRun: true, follow: false, resetStream: [] })).toEqual(Either.void)
    const follow = Flags.dryRun({ dryRun: true, follow: true, resetStream: [] })
    expect(Either.isLeft(follow) && follow.left).toMatch(/^--dry-run plans only and ends: drop --follow/)
    const reset = Flags.dryRun({ dryRun: true, follow: false, resetStream: ["all"] })
    expect(Either.isLeft(reset) && reset.left).toMatch(/^--dry-run changes nothing: drop --reset-stream/)
  })
})
