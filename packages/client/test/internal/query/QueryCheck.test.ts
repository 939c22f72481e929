import type * as CoreQueryCheck from "@broker-history/core/query/QueryCheck"
import * as QueryCheck from "../../../src/internal/query/QueryCheck.js"
import { describe, expect, it } from "../../support/line/Testing.js"

interface R {
  readonly id: string
  readonly t: number
}

const query = (start: number, end: number): CoreQueryCheck.Query<R> => ({
  start,
  end,
  limit: 500,
  time: (x) => x.t,
  key: (x) => x.id,
  filters: []
})

describe("QueryCheck: the error of an answer with a record outside its query", () => {
  it("refusal: ResponseDecodeError OutsideQuery with the request, the description and the record", () => {
    const records = [{ id: "a", t: 1 }, { id: "b", t: 7 }]
    const request = { endpoint: "transferHistory", startTime: 0, endTime: 5, page: 2 }
    const error = QueryCheck.check(records, query(0, 5), request)!
    expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery", status: 200, request })
    expect(error.excerpt).toBe(JSON.stringify(records[1]))
    expect(error.message).toContain(`record "b" at 1970-01-01T00:00:00.007Z is outside the query's window`)
    expect(QueryCheck.check([records[0]!], query(0, 5), request)).toBeUndefined()
  })
})
