/**
 * How an export's records become text (see `Command`): the output formats, the columns of each record
 * kind and an encoder per format. Pure: records in, text out.
 *
 * @internal
 */
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Csv from "./Csv.js"

/**
 * An output format: `ndjson` (one JSON record a line, the default), `csv` (a header row and RFC 4180
 * rows) or `json` (one array).
 */
export type Format = "ndjson" | "csv" | "json"

/** Transfer fields in the order the service sends them, which is also the CSV header. */
export const transferColumns: ReadonlyArray<keyof TransferRecord.TransferRecord> = [
  "tranId",
  "clientTranId",
  "fromAccount",
  "toAccount",
  "asset",
  "amount",
  "fromAccountType",
  "toAccountType",
  "fromSymbol",
  "toSymbol",
  "status",
  "timestamp"
]

/** Deposit fields in the order the service sends them, which is also the CSV header. */
export const depositColumns: ReadonlyArray<keyof DepositRecord.DepositRecord> = [
  "amount",
  "coin",
  "network",
  "status",
  "address",
  "addressTag",
  "txId",
  "unlockConfirm",
  "confirmTimes",
  "insertTime",
  "memo"
]

/**
 * The text of one format: what comes first, each record (knowing whether it is the first), and what
 * comes last (knowing how many there were).
 */
export interface Encoder {
  readonly start: string
  readonly record: (record: object, first: boolean) => string
  readonly end: (count: number) => string
}

/** The encoder of `format`; `columns` are the CSV header and the order of each row's fields. */
export const encoder = (format: Format, columns: ReadonlyArray<string>, csv: Csv.Mode = "escapeFormulas"): Encoder => {
  switch (format) {
    case "ndjson":
      return { start: "", record: (r) => JSON.stringify(r) + "\n", end: () => "" }
    case "csv":
      return { start: Csv.row(columns, csv), record: (r) => Csv.recordRow(columns, r, csv), end: () => "" }
    case "json":
      return {
        start: "[",
        record: (r, first) => (first ? "\n" : ",\n") + JSON.stringify(r),
        end: (count) => count === 0 ? "]\n" : "\n]\n"
      }
  }
}

/**
 * The text of `records`, which follow `before` records already written, with how many there were and
 * the time of the last (`undefined` when there were none).
 */
export const encodeRun = <A extends object>(
  encode: Encoder,
  records: Iterable<A>,
  before: number,
  time: (record: A) => number
): { readonly text: string; readonly count: number; readonly latest: number | undefined } => {
  let text = ""
  let count = before
  let latest: number | undefined
  for (const record of records) {
    text += encode.record(record, count === 0)
    count++
    latest = time(record)
  }
  return { text, count: count - before, latest }
}
