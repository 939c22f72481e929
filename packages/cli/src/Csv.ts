/**
 * CSV as RFC 4180 describes it: a header row, CRLF line ends, and a field quoted (with its quotes
 * doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 *
 * Values come from outside (memos, addresses, client ids), and a spreadsheet runs a cell that starts
 * with `=`, `+`, `-`, `@`, TAB or CR as a formula. By default such a value is written with a `'`
 * before it, as `csv-stringify`'s `escape_formulas` does, so it opens as text; a negative decimal
 * number (`-12.50`) is left as it is, so amounts stay numbers. `raw` writes every value unchanged.
 *
 * @since 0.1.0
 */

/**
 * How fields are written: `escapeFormulas` (the default) neutralises the values a spreadsheet would
 * run as formulas, `raw` writes them as received.
 *
 * @example
 * ```ts
 * import { Csv } from "@broker-history/cli"
 *
 * const memo = "=HYPERLINK(\"http://x\")"
 * const modes: ReadonlyArray<Csv.Mode> = ["escapeFormulas", "raw"]
 * assert.deepStrictEqual(modes.map((mode) => Csv.field(memo, mode)), [
 *   `"'=HYPERLINK(""http://x"")"`,
 *   `"=HYPERLINK(""http://x"")"`
 * ])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Mode = "escapeFormulas" | "raw"

const formulaStart = /^[=+\-@\t\r]/
const negativeDecimal = /^-\d+(\.\d+)?$/

/**
 * One field: empty for `null`/`undefined`, the text otherwise, a formula neutralised (unless `raw`),
 * quoted (quotes doubled) when it holds a comma, a quote, CR or LF, or starts or ends with a space.
 *
 * @example
 * ```ts
 * import { Csv } from "@broker-history/cli"
 *
 * assert.strictEqual(Csv.field('say "hi", twice'), '"say ""hi"", twice"')
 * assert.strictEqual(Csv.field(" padded"), '" padded"')
 * assert.strictEqual(Csv.field(null), "")
 * assert.strictEqual(Csv.field("=1+1"), "'=1+1")
 * assert.strictEqual(Csv.field("-12.50"), "-12.50") // a negative amount stays a number
 * assert.strictEqual(Csv.field("=1+1", "raw"), "=1+1")
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const field = (value: unknown, mode: Mode = "escapeFormulas"): string => {
  if (value === null || value === undefined) return ""
  let text = typeof value === "string" ? value : String(value)
  if (mode === "escapeFormulas" && formulaStart.test(text) && !negativeDecimal.test(text)) text = "'" + text
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, "\"\"")}"` : text
}

/**
 * One row of fields, CRLF-terminated.
 *
 * @example
 * ```ts
 * import { Csv } from "@broker-history/cli"
 *
 * assert.strictEqual(Csv.row(["a", 1, null, "x,y"]), 'a,1,,"x,y"\r\n')
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const row = (values: ReadonlyArray<unknown>, mode: Mode = "escapeFormulas"): string =>
  values.map((value) => field(value, mode)).join(",") + "\r\n"

/**
 * The row of a record: its values in `columns` order.
 *
 * @example
 * ```ts
 * import { Csv } from "@broker-history/cli"
 *
 * const columns = ["coin", "amount", "memo"]
 * assert.strictEqual(Csv.row(columns) + Csv.recordRow(columns, { amount: "1.5", coin: "USDT", memo: null }), "coin,amount,memo\r\nUSDT,1.5,\r\n")
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const recordRow = (columns: ReadonlyArray<string>, record: object, mode: Mode = "escapeFormulas"): string =>
  row(columns.map((c) => (record as Record<string, unknown>)[c]), mode)
