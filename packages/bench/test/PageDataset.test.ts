// The page server's dataset: every record's byte range holds its JSON, and pages are answered like
// the reference service (inclusive windows, newest first, offset pages).
import { describe, expect, it } from "@effect/vitest"
import * as PageDataset from "../src/PageDataset.js"
import * as PageRecords from "../src/PageRecords.js"

describe("PageDataset", () => {
  for (const kind of PageRecords.kinds) {
    it(`${kind} records: each byte range is the record's JSON, the buffer the array's body newest first`, () => {
      const shape: PageRecords.Shape = { pages: 2, start: 1_000, spacing: 10, kind }
      const data = PageDataset.makeDataset(shape)
      expect(data.count).toBe(2 * PageDataset.pageSize)
      for (const i of [0, 1, 499, 500, 999]) {
        const json = data.bytes.subarray(data.begin[i]!, data.end[i]!).toString("utf8")
        expect(JSON.parse(json)).toEqual(PageRecords.record(shape, i))
      }
      const all = JSON.parse(`[${data.bytes.toString("utf8")}]`) as Array<{ timestamp: number }>
      expect(all.map((r) => r.timestamp)).toEqual(Array.from({ length: 1_000 }, (_, i) => 1_000 + (999 - i) * 10))
    })
  }

  it("pages: the inclusive window, newest first, page by page; windows and the range", () => {
    const shape: PageRecords.Shape = { pages: 2, start: 0, spacing: 1 }
    expect(PageDataset.pageRange(shape, 0, 999, 1, 500)).toEqual([500, 999])
    expect(PageDataset.pageRange(shape, 0, 999, 2, 500)).toEqual([0, 499])
    expect(PageDataset.pageRange(shape, 0, 999, 3, 500)).toBeUndefined()
    expect(PageDataset.pageRange(shape, 10, 19, 1, 500)).toEqual([10, 19])
    expect(PageDataset.pageRange(shape, 10, 19, 1, 4)).toEqual([16, 19])
    expect(PageDataset.pageRange(shape, 2_000, 3_000, 1, 500)).toBeUndefined()
    expect(PageDataset.pageWindow(shape, 1)).toEqual([500, 999])
    expect(PageDataset.range(shape)).toEqual([0, 999])
  })
})
