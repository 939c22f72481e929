// The export encoders on their own: whatever the records, each format reads back as those records,
// and the text does not depend on how the stream cut them into chunks.
import { describe, expect, it } from "@effect/vitest"
import { parse as parseCsv } from "csv-parse/sync"
import { FastCheck as fc } from "effect"
import type { Format } from "../../../src/internal/export/Encoding.js"
import * as Encoding from "../../../src/internal/export/Encoding.js"

const columns = ["id", "note", "time"] as const
const record = fc.record({ id: fc.string(), note: fc.string(), time: fc.nat() })
const records = fc.array(record, { maxLength: 20 })
const format = fc.constantFrom<Format>("ndjson", "csv", "json")

/** The whole text of `rs` in one run. */
const text = (encode: Encoding.Encoder, rs: ReadonlyArray<object>) =>
  encode.start + Encoding.encodeRun(encode, rs, 0, () => 0).text + encode.end(rs.length)

describe("Encoding", () => {
  it.prop("json: one array of the records", { rs: records }, ({ rs }) => {
    expect(JSON.parse(text(Encoding.encoder("json", columns), rs))).toEqual(rs)
  })

  it.prop("ndjson: one record a line", { rs: records }, ({ rs }) => {
    const lines = text(Encoding.encoder("ndjson", columns), rs).split("\n")
    expect(lines.pop()).toBe("")
    expect(lines.map((line) => JSON.parse(line))).toEqual(rs)
  })

  it.prop("csv raw: the header, then each record's fields in column order", { rs: records }, ({ rs }) => {
    const rows = parseCsv(text(Encoding.encoder("csv", columns, "raw"), rs), { relax_column_count: true })
    expect(rows).toEqual([columns, ...rs.map((r) => [r.id, r.note, String(r.time)])])
  })

  it.prop(
    "a run that follows others: the same text as one run, with its count and last time",
    { format, rs: records, cut: fc.nat() },
    ({ cut, format, rs }) => {
      const encode = Encoding.encoder(format, columns)
      const at = rs.length === 0 ? 0 : cut % (rs.length + 1)
      const head = Encoding.encodeRun(encode, rs.slice(0, at), 0, (r) => r.time)
      const tail = Encoding.encodeRun(encode, rs.slice(at), at, (r) => r.time)
      expect(head.text + tail.text).toBe(Encoding.encodeRun(encode, rs, 0, (r) => r.time).text)
      expect([head.count, tail.count]).toEqual([at, rs.length - at])
      expect(tail.latest).toBe(at < rs.length ? rs[rs.length - 1].time : undefined)
    }
  )

  it("an empty export: nothing, a header, an empty array", () => {
    expect((["ndjson", "csv", "json"] as const).map((f) => text(Encoding.encoder(f, columns), []))).toEqual([
      "",
      "id,note,time\r\n",
      "[]\n"
    ])
  })
})
