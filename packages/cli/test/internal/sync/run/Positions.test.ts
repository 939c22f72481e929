// Where each stream of a sync starts, from the rows the store holds: its position, a backfill left
// unfinished, or why it is skipped; where an interrupted backfill resumes; and how far back each kind
// is covered.
import { Checkpoint } from "@broker-history/client"
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Positions from "../../../../src/internal/sync/run/Positions.js"
import type { StoredStream } from "../../../../src/internal/sync/store/Columns.js"

const day = 86_400_000
const now = 1_700_000_000_000
const at = (time: number, id = "1"): Checkpoint.Checkpoint => ({ time, ids: [id] })
const stored = (checkpoint: Checkpoint.Checkpoint, more: Partial<StoredStream> = {}): StoredStream => ({
  checkpoint: Either.right(checkpoint),
  coveredSince: undefined,
  backfill: undefined,
  ...more
})

describe("Positions.read", () => {
  it("a stream without a row has no position; rows of streams outside the plan are ignored", () => {
    const read = Positions.read(new Map([["other", stored(at(now))]]), ["a"], now)
    expect([read.positions.size, read.pending.size, read.damaged.size]).toEqual([0, 0, 0])
  })

  it("a row of the first schema is covered from its checkpoint; a later start is cut to it", () => {
    const read = Positions.read(
      new Map([["a", stored(at(now - day))], ["b", stored(at(now - day), { coveredSince: now })], [
        "c",
        stored(at(now - day), { coveredSince: 5 })
      ]]),
      ["a", "b", "c"],
      now
    )
    expect(read.positions.get("a")).toEqual({ checkpoint: at(now - day), coveredSince: now - day })
    expect(read.positions.get("b")?.coveredSince).toBe(now - day)
    expect(read.positions.get("c")?.coveredSince).toBe(5)
  })

  it("a backfill under way is kept as pending", () => {
    const backfill = { since: 0, checkpoint: at(100) }
    const read = Positions.read(new Map([["a", stored(at(now), { coveredSince: 1000, backfill })]]), ["a"], now)
    expect(read.pending.get("a")).toEqual(backfill)
  })

  it("damaged: a checkpoint that cannot be read, or one more than a day ahead of the clock", () => {
    const unreadable = Checkpoint.decode("{garbage")
    expect(Either.isLeft(unreadable)).toBe(true)
    const future = now + Positions.futureMargin + 1
    const read = Positions.read(
      new Map<string, StoredStream>([
        ["a", { checkpoint: unreadable, coveredSince: 0, backfill: undefined }],
        ["b", stored(at(future))],
        ["c", stored(at(now + Positions.futureMargin))]
      ]),
      ["a", "b", "c"],
      now
    )
    expect([...read.damaged.keys()]).toEqual(["a", "b"])
    expect(read.damaged.get("a")).toBe(Either.isLeft(unreadable) ? unreadable.left.message : "")
    expect(read.damaged.get("b")).toBe(Positions.futureProblem(future))
    expect(read.damaged.get("b")).toContain(new Date(future).toISOString())
    expect([...read.positions.keys()]).toEqual(["c"])
  })
})

describe("Positions.resumeFrom", () => {
  const progress = { since: 1000, checkpoint: at(5000) }

  it("resumes after progress that covers everything from the start up to it", () => {
    expect(Positions.resumeFrom(progress, 1000, 9000)).toEqual(at(5000))
    expect(Positions.resumeFrom(progress, 3000, 9000)).toEqual(at(5000))
  })

  it("starts over without progress, or when it does not cover the start, or reaches the stored history", () => {
    expect(Positions.resumeFrom(undefined, 1000, 9000)).toBeUndefined()
    expect(Positions.resumeFrom(progress, 500, 9000)).toBeUndefined()
    expect(Positions.resumeFrom(progress, 6000, 9000)).toBeUndefined()
    expect(Positions.resumeFrom(progress, 1000, 5000)).toBeUndefined()
  })
})

describe("Positions.coveredFrom", () => {
  const streams = [
    { id: "t1", kind: "transfers" as const },
    { id: "t2", kind: "transfers" as const },
    { id: "d", kind: "deposits" as const }
  ]
  const since = { transfers: 0, deposits: 300 }

  it("per kind, the latest start of a stream's history; a stream without a position starts at since", () => {
    const positions = new Map([["t1", { checkpoint: at(900), coveredSince: 200 }], ["t2", {
      checkpoint: at(900),
      coveredSince: 100
    }]])
    expect(Positions.coveredFrom(streams, positions, new Map(), since)).toEqual({ transfers: 200, deposits: 300 })
  })

  it("damaged streams do not count", () => {
    const positions = new Map([["t1", { checkpoint: at(900), coveredSince: 200 }]])
    expect(Positions.coveredFrom(streams, positions, new Map([["t1", "x"], ["d", "y"]]), since)).toEqual({
      transfers: 0,
      deposits: 0
    })
  })

  it("a stream that holds everything from when its history begins (its sub-account's creation) is whole", () => {
    const late = { transfers: 500, deposits: 300 }
    const created = [
      { id: "t1", kind: "transfers" as const, startsAt: 700 },
      { id: "t2", kind: "transfers" as const, startsAt: 400 }
    ]
    // t1 holds everything from its creation (700, after --since): whole. t2 was created before --since
    // (400 < 500): what it lacks is the history before --since.
    const positions = new Map([["t1", { checkpoint: at(900), coveredSince: 700 }], ["t2", {
      checkpoint: at(900),
      coveredSince: 500
    }]])
    expect(Positions.coveredFrom(created, positions, new Map(), late)).toEqual({ transfers: 500, deposits: 0 })
    expect(Positions.coveredFrom(created.slice(0, 1), positions, new Map(), late).transfers).toBe(0)
    // Without a position yet, it starts at its creation: whole as well.
    expect(Positions.coveredFrom(created.slice(0, 1), new Map(), new Map(), late).transfers).toBe(0)
  })
})

describe("Positions.startOf", () => {
  it("the later of the kind's --since and the stream's own start", () => {
    const since = { transfers: 500, deposits: 300 }
    expect(Positions.startOf(since, { kind: "transfers" })).toBe(500)
    expect(Positions.startOf(since, { kind: "transfers", startsAt: 400 })).toBe(500)
    expect(Positions.startOf(since, { kind: "transfers", startsAt: 700 })).toBe(700)
    expect(Positions.startOf(since, { kind: "deposits", startsAt: undefined })).toBe(300)
  })
})

describe("Positions.namedAccounts", () => {
  it("the accounts the stored transfer streams name; the master (null), deposits and other rows name none", () => {
    const named = Positions.namedAccounts([
      JSON.stringify(["transfers", "SPOT", "SPOT", null, "a@x"]),
      JSON.stringify(["transfers", "SPOT", "FUTURE", "b@x", null]),
      JSON.stringify(["transfers", "SPOT", "SPOT", "c@x", "d@x"]),
      JSON.stringify(["transfers", "SPOT", "SPOT", null, null]),
      JSON.stringify(["deposits"]),
      "{garbage",
      JSON.stringify(["other", "x", "y", "e@x", "f@x"])
    ])
    expect([...named].sort()).toEqual(["a@x", "b@x", "c@x", "d@x"])
  })
})
