// What a supervisor is told: each profile's state, ready only when following with nothing
// unavailable and a recent last success (three intervals, at least 30 s), live while any profile runs.
import { describe, expect, it } from "@effect/vitest"
import * as Readiness from "../../../../src/internal/sync/health/Readiness.js"

const now = 1_800_000_000_000
const interval = 30_000
const following = (more: Partial<Readiness.Profile> = {}): Readiness.Profile => ({
  name: "default",
  phase: "following",
  lastSuccess: now - 5_000,
  serviceUnavailableSince: undefined,
  databaseUnavailableSince: undefined,
  ...more
})

describe("Readiness", () => {
  it("recent: three intervals, at least 30 s", () => {
    expect(Readiness.recentWithin(30_000)).toBe(90_000)
    expect(Readiness.recentWithin(1_000)).toBe(30_000)
    expect(Readiness.recentWithin(300_000)).toBe(900_000)
  })

  it("ready: following, nothing unavailable, last success within the limit (inclusive)", () => {
    expect(Readiness.isReady(following(), now, interval)).toBe(true)
    expect(Readiness.isReady(following({ lastSuccess: now - 90_000 }), now, interval)).toBe(true)
    expect(Readiness.isReady(following({ lastSuccess: now - 90_001 }), now, interval)).toBe(false)
    expect(Readiness.isReady(following({ lastSuccess: undefined }), now, interval)).toBe(false)
    for (const phase of ["starting", "catching-up", "stopped"] as const) {
      expect(Readiness.isReady(following({ phase }), now, interval), phase).toBe(false)
    }
  })

  it("unavailable while the service or the database is out, unless stopped or not yet started", () => {
    expect(Readiness.state(following({ serviceUnavailableSince: now - 1 }))).toBe("unavailable")
    expect(Readiness.state(following({ phase: "catching-up", databaseUnavailableSince: now - 1 }))).toBe(
      "unavailable"
    )
    expect(Readiness.isReady(following({ databaseUnavailableSince: now - 1 }), now, interval)).toBe(false)
    expect(Readiness.state(following({ phase: "stopped", serviceUnavailableSince: now - 1 }))).toBe("stopped")
    expect(Readiness.state(following({ phase: "starting" }))).toBe("starting")
  })

  it("the report: ready when every profile is, live while one runs; times as ISO, the earliest outage", () => {
    const acme = following({ name: "acme" })
    const globex = following({
      name: "globex",
      serviceUnavailableSince: now - 20_000,
      databaseUnavailableSince: now - 10_000
    })
    expect(Readiness.report([acme], now, interval)).toEqual({
      live: true,
      ready: true,
      profiles: [{
        name: "acme",
        state: "following",
        ready: true,
        lastSuccess: new Date(now - 5_000).toISOString(),
        unavailableSince: null
      }]
    })
    const both = Readiness.report([acme, globex], now, interval)
    expect([both.live, both.ready]).toEqual([true, false])
    expect(both.profiles[1]).toMatchObject({
      state: "unavailable",
      unavailableSince: new Date(now - 20_000).toISOString()
    })
    const stopped = Readiness.report([{ ...acme, phase: "stopped" }, { ...globex, phase: "stopped" }], now, interval)
    expect([stopped.live, stopped.ready]).toEqual([false, false])
    expect(Readiness.report([{ ...acme, phase: "stopped" }, acme], now, interval).live).toBe(true)
    // Before any profile has started: live, not ready.
    expect(Readiness.report([], now, interval)).toEqual({ live: true, ready: false, profiles: [] })
  })
})
