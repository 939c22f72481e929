import { describe, expect, it } from "vitest"
import * as Budget from "../../src/budget/Budget.js"
import type * as SlidingWindow from "../../src/budget/SlidingWindow.js"

/** A slot taken at `now`: at once, or at the reserved time (the caller slept until then). */
const take = (books: Budget.Books, now: number): SlidingWindow.Start => {
  const reservation = books.window.reserve(books.pace, now)
  if (reservation.wait === 0) return { at: reservation.at, waited: 0, slot: reservation.slot }
  const start = books.window.woke(reservation, reservation.at)
  if (start === undefined) throw new Error("the slot was withdrawn")
  return start
}

const limit = (over: Partial<Budget.Limit> = {}): Budget.Limit => ({
  limit: 40,
  intervalMillis: 1000,
  marginMillis: 0,
  adaptive: true,
  ...over
})

const tooMany = { status: 429, retryAfterMillis: 1000 }

/** What a refusal counted, as its log line says it. */
const counted = (news: Budget.News) =>
  news.notes.find((note) => note.message === "broker rate limit refused")?.annotations

describe("Budget books", () => {
  it("without adaptation: a fixed pace, no bound on the way, nothing learned", () => {
    const books = Budget.make(limit({ adaptive: false, limit: 20, marginMillis: 25 }))
    expect(books.pace(0)).toEqual({ count: 20, spanMillis: 1025, notBefore: 0, gapMillis: 0, catchUp: 0 })
    expect(books.open()).toBe(true)
    expect(books.gate(0)).toEqual({ _tag: "Open" })
    const start = take(books, 0)
    expect(books.started(start)).toEqual({ notes: [], perSecond: undefined })
    expect(books.refused(start, 10, tooMany)).toEqual({ notes: [], perSecond: undefined })
    expect(books.perSecond).toBe(20)
  })

  it("adapting, starts are spread evenly over the interval", () => {
    const books = Budget.make(limit())
    expect(books.pace(0)).toMatchObject({ count: 40, spanMillis: 1000, gapMillis: 25, catchUp: 3 })
  })

  it("a budget within the first bound has no bound on the way", () => {
    expect(Budget.make(limit({ limit: 4 })).open()).toBe(true)
    expect(Budget.make(limit({ limit: 40 }), 40).open()).toBe(true)
  })

  it("until a refusal the bound on the way is 4, doubling every two busy intervals, starting again after a pause", () => {
    const books = Budget.make(limit())
    expect(books.gate(0)).toEqual({ _tag: "Bounded", places: 4, resize: false })
    for (let at = 0; at <= 2000; at += 100) books.started(take(books, at))
    expect(books.gate(2000)).toEqual({ _tag: "Bounded", places: 8, resize: true })
    expect(books.gate(2050)).toEqual({ _tag: "Bounded", places: 8, resize: false })
    for (let at = 2100; at <= 8000; at += 100) books.started(take(books, at))
    // 16, then 32, then 64 > 40: no bound while the busy period lasts.
    expect(books.gate(6000)).toEqual({ _tag: "Bounded", places: 32, resize: true })
    expect(books.gate(8000)).toEqual({ _tag: "Open" })
    expect(books.open()).toBe(false)
    // A pause of a whole interval: the service's window emptied, its limit unknown again.
    expect(books.gate(9500)).toEqual({ _tag: "Bounded", places: 4, resize: true })
  })

  it("a refusal teaches the level the service accepted, withdraws the slots reserved above it, and keeps the bound it met", () => {
    const books = Budget.make(limit(), Infinity)
    const starts = Array.from({ length: 30 }, () => take(books, 0))
    starts.slice(0, 20).forEach((start) => {
      books.started(start)
      books.accepted(start)
    })
    for (const start of starts.slice(20, 29)) books.started(start)
    const news = books.refused(starts[20]!, 600, tooMany)
    expect(news.notes).toHaveLength(1)
    expect(counted(news)).toMatchObject({ sentAt: starts[20]!.at, at: 600, acceptedMost: 20, level: 20, cut: true })
    expect(news.perSecond).toBe(20)
    expect(books.pace(600).count).toBe(20)
    // The slot reserved at the old pace and not started yet is taken again at the new one.
    const waiting = books.window.reserve(books.pace, 600)
    expect(waiting.at).toBeGreaterThan(600)
  })

  it("a ban (418) pauses every start until it ends, unless it is longer than the client waits", () => {
    for (const maxRetryAfterMillis of [undefined, 1000]) {
      const books = Budget.make(limit(), Infinity)
      const start = take(books, 0)
      books.started(start)
      books.refused(start, 100, { status: 418, retryAfterMillis: 5000, maxRetryAfterMillis })
      expect(books.pace(100).notBefore).toBe(maxRetryAfterMillis === undefined ? 5100 : 0)
    }
  })

  it("an attempt sent before a cut and accepted after it raises the level again to what the service's window held; the next start tells it", () => {
    const books = Budget.make(limit(), Infinity)
    const starts = Array.from({ length: 24 }, () => take(books, 0))
    starts.forEach((start) => books.started(start))
    starts.slice(0, 15).forEach((start) => books.accepted(start))
    // The 21st refused: the cut, to the 20 sent before it.
    expect(counted(books.refused(starts[20]!, 600, tooMany))).toMatchObject({ level: 20, cut: true })
    // The 17th, sent before the cut, refused after it: the level goes down to what it says.
    expect(counted(books.refused(starts[16]!, 610, tooMany))).toMatchObject({ level: 16, cut: false })
    // The 18th to 20th accepted after all: the service's window held 18; the raises are told with the next start.
    starts.slice(17, 20).forEach((start) => books.accepted(start))
    const news = books.started(take(books, 700))
    expect(news.notes.map((note) => [note.message, note.annotations.levelBefore, note.annotations.level])).toEqual([
      ["broker rate limit raised", 16, 17],
      ["broker rate limit raised", 17, 18]
    ])
    expect(news.perSecond).toBe(18)
  })
})
