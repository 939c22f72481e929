// Reading the export flags: each value, or the message that names the flag; the first bad flag is
// the one reported, in the order the commands read them.
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as ExportQuery from "../../src/internal/ExportQuery.js"

const day = 86_400_000

describe("ExportQuery.range", () => {
  const now = 100 * day
  it("reads either end, or leaves it to the client", () => {
    expect(ExportQuery.range(undefined, undefined, now)).toEqual(Either.right({ since: undefined, until: undefined }))
    expect(ExportQuery.range("90d", "1970-01-31", now)).toEqual(Either.right({ since: 10 * day, until: 30 * day }))
    expect(ExportQuery.range("5", "5", now)).toEqual(Either.right({ since: 5, until: 5 }))
  })

  it("names the flag that is wrong, --since before --until, then their order", () => {
    const message = (since: string | undefined, until: string | undefined) =>
      Either.match(ExportQuery.range(since, until, now), { onLeft: (m) => m, onRight: () => undefined })
    expect(message("soon", "later")).toMatch(/^--since: /)
    expect(message(undefined, "later")).toMatch(/^--until: /)
    expect(message("6", "5")).toBe("--since must not be after --until")
  })
})

describe("ExportQuery filters", () => {
  const transfer = {
    fromAccountType: "spot",
    toAccountType: "Futures",
    fromAccount: undefined,
    toAccount: "a@x",
    clientTranId: "c1"
  }

  it("transfers: account types in the exchange's spelling, the rest as given", () => {
    expect(ExportQuery.transferFilters(transfer)).toEqual(
      Either.right({ ...transfer, fromAccountType: "SPOT", toAccountType: "FUTURES" })
    )
  })

  it("transfers: --from-account-type is reported before --to-account-type", () => {
    // Any word is an account type the service may judge; text that is no word is refused before sending.
    const both = ExportQuery.transferFilters({ ...transfer, fromAccountType: "x-1", toAccountType: "y z" })
    expect(Either.isLeft(both) && both.left).toMatch(/^--from-account-type: "x-1"/)
    const to = ExportQuery.transferFilters({ ...transfer, toAccountType: "y z" })
    expect(Either.isLeft(to) && to.left).toMatch(/^--to-account-type: "y z"/)
  })

  it("deposits: a status as its code; no status, every status", () => {
    expect(ExportQuery.depositFilters({ coin: "USDT", status: "success" })).toEqual(
      Either.right({ coin: "USDT", status: "5" })
    )
    expect(ExportQuery.depositFilters({ coin: undefined, status: undefined })).toEqual(
      Either.right({ coin: undefined, status: undefined })
    )
    const bad = ExportQuery.depositFilters({ coin: undefined, status: "done" })
    expect(Either.isLeft(bad) && bad.left).toMatch(/^--status: "done"/)
  })

  it("--csv-raw: raw CSV with --format csv, refused with any other format", () => {
    expect(ExportQuery.csvMode("csv", false)).toEqual(Either.right("escapeFormulas"))
    expect(ExportQuery.csvMode("json", false)).toEqual(Either.right("escapeFormulas"))
    expect(ExportQuery.csvMode("csv", true)).toEqual(Either.right("raw"))
    for (const format of ["ndjson", "json"] as const) {
      expect(ExportQuery.csvMode(format, true)).toEqual(Either.left("--csv-raw applies to --format csv only"))
    }
  })
})
