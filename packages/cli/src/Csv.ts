/**
 * CSV as RFC 4180 describes it: a header row, CRLF line ends, and a field quoted (with its quotes
 * doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 *
 * @since 0.1.0
 */

/**
 * One field: empty for `null`/`undefined`, the text otherwise, quoted when it has to be.
 *
 * @example
 * import { Csv } from "@broker-history/cli"
 * Csv.field('say "hi", twice') // '"say ""hi"", twice"'
 */
export const field = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  const text = typeof value === "string" ? value : String(value)
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/**
 * One row, CRLF-terminated.
 *
 * @example
 * import { Csv } from "@broker-history/cli"
 * Csv.row(["a", 1, null]) // "a,1,\r\n"
 */
export const row = (values: ReadonlyArray<unknown>): string => values.map(field).join(",") + "\r\n"

/**
 * The row of a record: its values in `columns` order.
 *
 * @example
 * import { Csv } from "@broker-history/cli"
 * Csv.recordRow(["b", "a"], { a: 1, b: "x,y" }) // "\"x,y\",1\r\n"
 */
export const recordRow = (columns: ReadonlyArray<string>, record: object): string =>
  row(columns.map((c) => (record as Record<string, unknown>)[c]))

/**
 * Reads CSV text back into rows (the inverse of `row`, for tests and tools).
 *
 * @example
 * import { Csv } from "@broker-history/cli"
 * Csv.parse('a,"b ""c"""\r\n') // [["a", 'b "c"']]
 */
export const parse = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let fields: Array<string> = []
  let current = ""
  let quoted = false
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (quoted) {
      if (c === "\"") {
        if (text[i + 1] === "\"") {
          current += "\""
          i += 2
          continue
        }
        quoted = false
      } else {
        current += c
      }
      i++
      continue
    }
    if (c === "\"") quoted = true
    else if (c === ",") {
      fields.push(current)
      current = ""
    } else if (c === "\r" && text[i + 1] === "\n") {
      fields.push(current)
      rows.push(fields)
      fields = []
      current = ""
      i++
    } else if (c === "\n") {
      fields.push(current)
      rows.push(fields)
      fields = []
      current = ""
    } else current += c
    i++
  }
  if (current !== "" || fields.length > 0) {
    fields.push(current)
    rows.push(fields)
  }
  return rows
}
