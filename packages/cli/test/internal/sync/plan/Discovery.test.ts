// The whole broker planned over the listed sub-accounts (each stream starting at its sub-account's
// creation, ids as a sync stores them), and the lines a dry run prints for them: text from the
// service with its control characters escaped.
import { describe, expect, it } from "@effect/vitest"
import * as Discovery from "../../../../src/internal/sync/plan/Discovery.js"
import * as Plan from "../../../../src/internal/sync/plan/Plan.js"
import * as ServiceText from "../../../../src/internal/sync/ServiceText.js"

const created = Date.UTC(2026, 0, 1)

describe("Discovery.plan", () => {
  it("master→sub and sub→master for every listed sub-account, the master's own: the ids of an explicit list", () => {
    const listed = [
      { subAccount: "a@x", note: "", timestamp: created },
      { subAccount: "b@x", note: "", timestamp: undefined }
    ]
    const planned = Discovery.plan(listed, ["SPOT", "FUTURE"])
    expect(planned.map((s) => s.id)).toEqual(
      Plan.transferStreams(Plan.defaultPairs(["a@x", "b@x"]), ["SPOT", "FUTURE"]).map((s) => s.id)
    )
    for (const s of planned) {
      const account = s.query.fromAccount ?? s.query.toAccount
      expect(s.startsAt, s.id).toBe(account === "a@x" ? created : undefined)
    }
  })
})

describe("Discovery lines", () => {
  it("a sub-account: when its history is read from, and its note", () => {
    expect(Discovery.subAccountLine({ subAccount: "a@x", note: "desk", timestamp: created }, 0)).toBe(
      "sub-account a@x: created 2026-01-01T00:00:00.000Z, read from then (note: desk)"
    )
    expect(Discovery.subAccountLine({ subAccount: "a@x", note: "", timestamp: created }, created + 1)).toBe(
      "sub-account a@x: created 2026-01-01T00:00:00.000Z, read from --since"
    )
    expect(Discovery.subAccountLine({ subAccount: "a@x", note: "", timestamp: undefined }, 0)).toBe(
      "sub-account a@x: creation time not given: read from --since"
    )
  })

  it("text from the service stays on one line, escaped and bounded", () => {
    expect(ServiceText.printable("a\nb\u001b[31mc\u2028", 80)).toBe("a\\u000ab\\u001b[31mc\\u2028")
    expect(ServiceText.printable("x".repeat(100), 10)).toBe(`${"x".repeat(10)}…`)
    const line = Discovery.subAccountLine(
      { subAccount: "evil\r\n@x", note: "n\u0007".repeat(100), timestamp: 0 },
      0
    )
    expect([...line].some((c) => c.charCodeAt(0) < 0x20)).toBe(false)
    expect(line.length).toBeLessThan(200)
  })
})
