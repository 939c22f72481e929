// The sync's pure parts: what a plan leaves out, --reset-stream values, the summary's coverage lines,
// the damaged-checkpoint sentence and database names in messages.
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import * as Flags from "../src/internal/sync/Flags.js"
import * as Plan from "../src/internal/sync/plan/Plan.js"
import type * as Run from "../src/internal/sync/run/Run.js"
import * as DatabaseName from "../src/internal/sync/store/DatabaseName.js"
import * as Summary from "../src/internal/sync/Summary.js"

describe("Plan.uncovered", () => {
  it("counts the ordered sub→sub pairs the default plan does not read", () => {
    expect(Plan.uncovered(["a", "b", "c", "d", "e"], ["SPOT", "FUTURES"])).toBe(
      "sub→sub transfers are not read: 20 ordered sub-account pairs × 4 account-type pairs not covered; list them with --pairs FILE"
    )
    expect(Plan.uncovered(["a", "b"], ["SPOT"])).toContain("2 ordered sub-account pairs × 1 account-type pair not")
    expect(Plan.uncovered(["a"], ["SPOT", "FUTURES"])).toBe(undefined)
    expect(Plan.uncovered([], ["SPOT"])).toMatch(/^only the master account's own transfers are read/)
  })

  it("a discovered plan is said without asking for a list of sub-accounts", () => {
    const discovered = [Plan.uncovered([], ["SPOT"], true), Plan.uncovered(["a", "b", "c"], ["SPOT"], true)]
    expect(discovered).toEqual([
      "the service lists no sub-account: only the master account's own transfers are read",
      "sub→sub transfers are not read: 6 ordered pairs of the 3 sub-accounts the service listed × 1 account-type pair " +
      "(a transfer between two sub-accounts is read only for a pair a pairs file names)"
    ])
    for (const line of discovered) expect(line).not.toMatch(/--sub-accounts|name sub-accounts/)
    expect(Plan.uncovered(["a"], ["SPOT"], true)).toBe(undefined)
  })

  it("parsePairs: account types checked and spelled as the exchange does", () => {
    expect(Plan.parsePairs("- a@x spot futures")).toEqual(
      Either.right([{ fromAccount: undefined, toAccount: "a@x", fromAccountType: "SPOT", toAccountType: "FUTURES" }])
    )
    // Any word is taken (the service judges it); only what cannot be an account type is refused.
    expect(Plan.parsePairs("- a@x\n- b@x future isolated_margin")).toEqual(
      Either.right([
        { fromAccount: undefined, toAccount: "a@x" },
        { fromAccount: undefined, toAccount: "b@x", fromAccountType: "FUTURE", toAccountType: "ISOLATED_MARGIN" }
      ])
    )
    expect(Plan.parsePairs("- a@x\n- b@x SPOT- SPOT")).toEqual(
      Either.left(
        "line 2: FROM_TYPE: \"SPOT-\" is not an account type: write one word of letters, digits and _ " +
          "(the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)"
      )
    )
  })
})

describe("Flags.resetStreams", () => {
  it("takes stream ids in any JSON spacing, or all", () => {
    expect(Flags.resetStreams([])).toEqual(Either.right(undefined))
    expect(Flags.resetStreams(["[ \"deposits\" ]", "[\"deposits\"]"])).toEqual(Either.right(["[\"deposits\"]"]))
    expect(Flags.resetStreams(["[\"deposits\"]", "ALL"])).toEqual(Either.right("all"))
    expect(Either.isLeft(Flags.resetStreams(["{\"a\":1}"]))).toBe(true)
    expect(Either.isLeft(Flags.resetStreams(["[\"other\"]"]))).toBe(true)
  })
})

describe("Summary.coverageLines", () => {
  const outcome = (o: Partial<Run.Outcome>): Run.Outcome => ({
    totals: { transfers: 0, deposits: 0, batches: 0 },
    counts: { transfers: 0, deposits: 0 },
    backfilled: new Map(),
    coveredFrom: { transfers: 0, deposits: 0 },
    damaged: [],
    ...o
  })
  const options = { defaultDeposits: undefined, depositWindow: "10d", uncovered: undefined }

  it("says nothing when every stream holds its whole history", () => {
    expect(Summary.coverageLines(outcome({}), options)).toEqual([])
  })

  it("backfills, by start; history not fetched, by kind; why one year of deposits", () => {
    const day = Date.UTC(2024, 10, 23)
    expect(
      Summary.coverageLines(
        outcome({ backfilled: new Map([[day + 600_000, 1], [0, 12]]), coveredFrom: { transfers: 0, deposits: day } }),
        { ...options, defaultDeposits: day }
      )
    ).toEqual([
      "backfilled 12 streams from 1970-01-01 and 1 stream from 2024-11-23 00:10 UTC",
      "not fetched: deposits before 2024-11-23 (without --since a first run reads one year of deposits: one request covers at most 10d of them); pass an earlier --since (a date, 5y, or 0 for everything) to backfill it"
    ])
    expect(Summary.coverageLines(outcome({ coveredFrom: { transfers: day, deposits: day } }), options)[0]).toBe(
      "not fetched: history before 2024-11-23; pass an earlier --since (a date, 5y, or 0 for everything) to backfill it"
    )
  })
})

describe("Summary.damagedSentence", () => {
  it("names the stream, the problem and the flag to reset it, quoted for a shell", () => {
    expect(Summary.damagedSentence([{ stream: "[\"transfers\",\"SPOT\",\"SPOT\",\"o'k\",null]", problem: "p" }], 5))
      .toBe(
        "the checkpoint of 1 stream is damaged: [\"transfers\",\"SPOT\",\"SPOT\",\"o'k\",null]: p. It was skipped and the other 4 streams were synced. Run the same sync with --reset-stream '[\"transfers\",\"SPOT\",\"SPOT\",\"o'\\''k\",null]' to reset it: its rows stay and it is read again from --since, upserted (nothing duplicates)"
      )
  })
})

describe("Summary.resetLine", () => {
  it("says which checkpoints were deleted, and which named stream had none", () => {
    expect(Summary.resetLine(["[\"deposits\"]"], ["[\"deposits\"]"])).toBe(
      "reset the checkpoint of 1 stream: [\"deposits\"]"
    )
    expect(Summary.resetLine(["[\"deposits\"]", "[\"x\"]"], ["[\"deposits\"]"])).toBe(
      "reset the checkpoint of 1 stream: [\"deposits\"]; no checkpoint was stored for [\"x\"]"
    )
    expect(Summary.resetLine("all", ["a", "b"])).toBe(
      "reset the checkpoints of 2 streams (all); they are read again from --since"
    )
  })
})

describe("DatabaseName.describe", () => {
  it("hides the password, also in a URL that does not parse", () => {
    expect(DatabaseName.describe("postgres://u:secret@h:5432/db")).toBe("postgres://u:***@h:5432/db")
    expect(DatabaseName.describe("postgres://u:secret@[bad/db")).toBe("postgres://u:***@[bad/db")
    expect(DatabaseName.describe("postgres://u:se@cret@[bad/db")).toBe("postgres://u:***@[bad/db")
    expect(DatabaseName.describe("history.db")).toBe("history.db")
  })
})

describe("Plan.byStream", () => {
  it("keeps each stream's changes in order, the streams in order of first arrival", () => {
    const changes = ["b1", "a1", "b2", "c1", "a2", "b3"].map((id) => ({ stream: id[0], id }))
    expect(Plan.byStream(changes).map(([stream, group]) => [stream, group.map((c) => c.id)])).toEqual([
      ["b", ["b1", "b2", "b3"]],
      ["a", ["a1", "a2"]],
      ["c", ["c1"]]
    ])
    expect(Plan.byStream([])).toEqual([])
  })
})

describe("Summary.syncedLine and profilesLine", () => {
  const summary = {
    streams: 6,
    db: "history.db",
    totals: { transfers: 655, deposits: 4000, batches: 21 },
    counts: { transfers: 655, deposits: 4000 },
    seconds: 4.44
  }
  it("a single key's line has its requests; a profile's says its counts are its own", () => {
    expect(Summary.syncedLine({ ...summary, requests: { requests: 90, retries: 1 }, profile: false })).toBe(
      "synced 6 streams into history.db: applied 655 transfer and 4000 deposit records in 21 transactions; the tables hold 655 transfers and 4000 deposits (90 requests, 1 retries, 4.4 s)"
    )
    expect(Summary.syncedLine({ ...summary, requests: undefined, profile: true })).toBe(
      "synced 6 streams into history.db: applied 655 transfer and 4000 deposit records in 21 transactions; the tables hold 655 transfers and 4000 deposits of this profile (4.4 s)"
    )
    expect(
      Summary.profilesLine({
        synced: 2,
        profiles: 2,
        db: "h.db",
        requests: { requests: 5, retries: 0 },
        seconds: 1
      })
    ).toBe("synced 2 of 2 profiles into h.db (5 requests, 0 retries, 1.0 s)")
  })
})

describe("Summary.planLine", () => {
  const plan = {
    streams: 1605,
    requests: 10_780,
    seconds: 539,
    rate: { limit: 20, interval: 1000 },
    maxWindow: { transfers: 30 * 86_400_000, deposits: 10 * 86_400_000 }
  }
  it("the sub-accounts listed and new, the streams, the requests and the time at the budget, said to be an estimate", () => {
    expect(Summary.planLine({ ...plan, discovered: { listed: 200, new: 200 } })).toBe(
      "plan: 200 sub-accounts listed by the service, 200 of them new to this database; 1605 streams; at least 10780 " +
        "requests, about 8m 59s at 20 requests per 1s (an estimate: one request per stream per 30d window of what it " +
        "reads, 10d for deposits, plus the list pages; busy windows take more)"
    )
    // A dry run does not open the database: what is new is not said.
    expect(Summary.planLine({ ...plan, discovered: { listed: 200 } })).toMatch(
      /^plan: 200 sub-accounts listed by the service; 1605 streams; /
    )
    expect(Summary.planLine({ ...plan, discovered: undefined, seconds: 0.25 })).toMatch(
      /^plan: 1605 streams; at least 10780 requests, about 250ms at 20 requests per 1s \(an estimate: one request per stream per 30d window of what it reads, 10d for deposits; busy windows take more\)$/
    )
  })
})
