/**
 * CSV as RFC 4180 describes it: a header row, CRLF line ends, and a field quoted (with its quotes
 * doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 *
 * Values come from outside (memos, addresses, client ids), and a spreadsheet runs a cell that starts
 * with `=`, `+`, `-`, `@`, TAB or CR as a formula. By default such a value is written with a `'`
 * before it, as `csv-stringify`'s `escape_formulas` does, so it opens as text; a negative decimal
 * number (`-12.50`) is left as it is, so amounts stay numbers. `raw` writes every value unchanged.
 *
 * @internal
 */

/**
 * How fields are written: `escapeFormulas` (the default) neutralises the values a spreadsheet would
 * run as formulas, `raw` writes them as received.
 */
export type Mode = "escapeFormulas" | "raw"

const formulaStart = /^[=+\-@\t\r]/
const negativeDecimal = /^-\d+(\.\d+)?$/

/**
 * One field: empty for `null`/`undefined`, the text otherwise, a formula neutralised (unless `raw`),
 * quoted (quotes doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 */
export const field = (value: unknown, mode: Mode = "escapeFormulas"): string => {
  if (value === null || value === undefined) return ""
  let text = typeof value === "string" ? value : String(value)
  if (mode === "escapeFormulas" && formulaStart.test(text) && !negativeDecimal.test(text)) text = "'" + text
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/** One row of fields, CRLF-terminated. */
export const row = (values: ReadonlyArray<unknown>, mode: Mode = "escapeFormulas"): string =>
  values.map((value) => field(value, mode)).join(",") + "\r\n"

/** The row of a record: its values in `columns` order. */
export const recordRow = (columns: ReadonlyArray<string>, record: object, mode: Mode = "escapeFormulas"): string =>
  row(columns.map((c) => (record as Record<string, unknown>)[c]), mode)
