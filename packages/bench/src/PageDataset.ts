/**
 * The page server's dataset (`PageServer`): every record's JSON built once, newest first (the
 * reference service's order), into one buffer, so that any window's page is a contiguous byte range
 * of it; and the arithmetic of pages and windows over it (inclusive windows, newest first, offset
 * pages, as the reference service answers). Pure: values in, values out.
 *
 * @since 0.2.0
 */
import type { Shape } from "./PageRecords.js"
import { record } from "./PageRecords.js"

/** Records per page of the dataset (the endpoint's maximum `limit`). */
export const pageSize = 500

/**
 * The precomputed dataset: one JSON buffer (newest first) and each record's byte range in it.
 *
 * @example
 * import * as PageDataset from "@broker-history/bench/PageDataset"
 * const data = PageDataset.makeDataset({ pages: 2, start: 0, spacing: 1 })
 * data.count // 1000
 */
export interface Dataset {
  readonly shape: Shape
  readonly count: number
  readonly bytes: Buffer
  /** Byte offset of record i's first byte (ascending index). */
  readonly begin: Float64Array
  /** Byte offset just after record i's last byte. */
  readonly end: Float64Array
}

/** Builds the dataset (UTF-8; offsets are byte offsets). */
export const makeDataset = (shape: Shape): Dataset => {
  const count = shape.pages * pageSize
  const begin = new Float64Array(count)
  const end = new Float64Array(count)
  // Written straight into one buffer: a million records would come close to V8's string limit.
  let bytes = Buffer.allocUnsafe(Math.max(1024, count * (shape.kind === "long" ? 1100 : 320)))
  let offset = 0
  for (let i = count - 1; i >= 0; i--) {
    const json = JSON.stringify(record(shape, i))
    const length = Buffer.byteLength(json, "utf8")
    if (offset + length + 1 > bytes.length) {
      const bigger = Buffer.allocUnsafe(bytes.length * 2)
      bytes.copy(bigger, 0, 0, offset)
      bytes = bigger
    }
    if (i !== count - 1) offset += bytes.write(",", offset, "latin1")
    begin[i] = offset
    offset += bytes.write(json, offset, "utf8")
    end[i] = offset
  }
  return { shape, count, bytes: bytes.subarray(0, offset), begin, end }
}

/**
 * The ascending index range `[lo, hi]` of one page: records with `startTime <= t <= endTime`,
 * newest first, page `page` of `limit`; `undefined` when the page is empty.
 *
 * @example
 * import * as PageDataset from "@broker-history/bench/PageDataset"
 * PageDataset.pageRange({ pages: 2, start: 0, spacing: 1 }, 0, 999, 1, 500) // [500, 999]
 */
export const pageRange = (
  shape: Shape,
  startTime: number,
  endTime: number,
  page: number,
  limit: number
): readonly [number, number] | undefined => {
  const count = shape.pages * pageSize
  const first = Math.max(0, Math.ceil((startTime - shape.start) / shape.spacing))
  const last = Math.min(count - 1, Math.floor((endTime - shape.start) / shape.spacing))
  if (last < first) return undefined
  const hi = last - (page - 1) * limit
  const lo = Math.max(first, hi - limit + 1)
  return hi < lo ? undefined : [lo, hi]
}

/**
 * The window of page `k` (0-based) of the dataset: its first and last record's timestamps.
 *
 * @example
 * import * as PageDataset from "@broker-history/bench/PageDataset"
 * PageDataset.pageWindow({ pages: 2, start: 0, spacing: 1 }, 1) // [500, 999]
 */
export const pageWindow = (shape: Shape, k: number): readonly [number, number] => [
  shape.start + k * pageSize * shape.spacing,
  shape.start + ((k + 1) * pageSize - 1) * shape.spacing
]

/** The inclusive time range of the whole dataset. */
export const range = (shape: Shape): readonly [number, number] => [
  shape.start,
  shape.start + (shape.pages * pageSize - 1) * shape.spacing
]
