// The flags every command shares: the range of --since and --until, each end read or named when wrong.
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Flags from "../../../src/internal/shared/Flags.js"

const day = 86_400_000

describe("Flags.range", () => {
  const now = 100 * day
  it("reads either end, or leaves it to the client", () => {
    expect(Flags.range(undefined, undefined, now)).toEqual(Either.right({ since: undefined, until: undefined }))
    expect(Flags.range("90d", "1970-01-31", now)).toEqual(Either.right({ since: 10 * day, until: 30 * day }))
    expect(Flags.range("5", "5", now)).toEqual(Either.right({ since: 5, until: 5 }))
  })

  it("names the flag that is wrong, --since before --until, then their order", () => {
    const message = (since: string | undefined, until: string | undefined) =>
      Either.match(Flags.range(since, until, now), { onLeft: (m) => m, onRight: () => undefined })
    expect(message("soon", "later")).toMatch(/^--since: /)
    expect(message(undefined, "later")).toMatch(/^--until: /)
    expect(message("6", "5")).toBe("--since must not be after --until")
  })
})
