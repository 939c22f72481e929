import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import * as Deadlines from "../../src/request/Deadlines.js"

describe("Deadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("a deadline fires once, within one granularity after it passes, never before", () => {
    const deadlines = Deadlines.make(100)
    const fired: Array<number> = []
    const at = Date.now() + 250
    deadlines.add({ at, expire: () => fired.push(Date.now()) })
    vi.advanceTimersByTime(249)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(100)
    expect(fired).toHaveLength(1)
    expect(fired[0]! - at).toBeGreaterThanOrEqual(0)
    expect(fired[0]! - at).toBeLessThanOrEqual(100)
    vi.advanceTimersByTime(1000)
    expect(fired).toHaveLength(1)
  })

  it("a removed deadline never fires; the others still do", () => {
    const deadlines = Deadlines.make(10)
    const fired: Array<string> = []
    const kept = { at: Date.now() + 50, expire: () => fired.push("kept") }
    const removed = { at: Date.now() + 20, expire: () => fired.push("removed") }
    deadlines.add(kept)
    deadlines.add(removed)
    deadlines.remove(removed)
    vi.advanceTimersByTime(200)
    expect(fired).toEqual(["kept"])
  })

  it("the timer runs only while a deadline is pending, and starts again with the next", () => {
    const deadlines = Deadlines.make(10)
    expect(vi.getTimerCount()).toBe(0)
    const first = { at: Date.now() + 1000, expire: () => {} }
    deadlines.add(first)
    deadlines.add({ at: Date.now() + 1000, expire: () => {} })
    expect(vi.getTimerCount()).toBe(1)
    deadlines.remove(first)
    vi.advanceTimersByTime(2000)
    expect(vi.getTimerCount()).toBe(0)
    let fired = false
    deadlines.add({ at: Date.now() + 30, expire: () => fired = true })
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(40)
    expect(fired).toBe(true)
    vi.advanceTimersByTime(10)
    expect(vi.getTimerCount()).toBe(0)
  })

  it("granularity is an eighth of the timeout, from 5 ms to 1 s", () => {
    expect([1, 40, 41, 400, 8000, 8008, 60_000].map(Deadlines.granularity)).toEqual([5, 5, 5, 50, 1000, 1000, 1000])
  })
})

describe("Deadlines on the real clock", () => {
  it("the timer never keeps the process alive", () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
    const before = timers()
    const deadlines = Deadlines.make(1000)
    const deadline = { at: Date.now() + 60_000, expire: () => {} }
    deadlines.add(deadline)
    expect(timers()).toBe(before)
    deadlines.remove(deadline)
  })
})
