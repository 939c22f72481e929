// Reading the export flags: each value, or the message that names the flag; the first bad flag is
// the one reported, in the order the commands read them.
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as Query from "../../../src/internal/export/Query.js"

describe("Query filters", () => {
  const transfer = {
    fromAccountType: "spot",
    toAccountType: "Futures",
    fromAccount: undefined,
    toAccount: "a@x",
    clientTranId: "c1"
  }

  it("transfers: account types in the exchange's spelling, the rest as given", () => {
    expect(Query.transferFilters(transfer)).toEqual(
      Either.right({ ...transfer, fromAccountType: "SPOT", toAccountType: "FUTURES" })
    )
  })

  it("transfers: --from-account-type is reported before --to-account-type", () => {
    // Any word is an account type the service may judge; text that is no word is refused before sending.
    const both = Query.transferFilters({ ...transfer, fromAccountType: "x-1", toAccountType: "y z" })
    expect(Either.isLeft(both) && both.left).toMatch(/^--from-account-type: "x-1"/)
    const to = Query.transferFilters({ ...transfer, toAccountType: "y z" })
    expect(Either.isLeft(to) && to.left).toMatch(/^--to-account-type: "y z"/)
  })

  it("deposits: a status as its code; no status, every status", () => {
    expect(Query.depositFilters({ coin: "USDT", status: "success" })).toEqual(
      Either.right({ coin: "USDT", status: "5" })
    )
    expect(Query.depositFilters({ coin: undefined, status: undefined })).toEqual(
      Either.right({ coin: undefined, status: undefined })
    )
    const bad = Query.depositFilters({ coin: undefined, status: "done" })
    expect(Either.isLeft(bad) && bad.left).toMatch(/^--status: "done"/)
  })

  it("--csv-raw: raw CSV with --format csv, refused with any other format", () => {
    expect(Query.csvMode("csv", false)).toEqual(Either.right("escapeFormulas"))
    expect(Query.csvMode("json", false)).toEqual(Either.right("escapeFormulas"))
    expect(Query.csvMode("csv", true)).toEqual(Either.right("raw"))
    for (const format of ["ndjson", "json"] as const) {
      expect(Query.csvMode(format, true)).toEqual(Either.left("--csv-raw applies to --format csv only"))
    }
  })
})
