/**
 * The records of the page server's dataset (`PageServer`): `short` ASCII records (about 300 bytes of
 * JSON) or `long` ones with non-ASCII text (a memo of CJK, accented Latin, Cyrillic and emoji over
 * 200 characters in `clientTranId`, a long master account name; about 850 bytes), one every `spacing`
 * ms from `start`. Every record is a master SPOT → FUTURES transfer: what the contenders query (the
 * client refuses records outside its query). Pure: values in, values out.
 *
 * @since 0.2.0
 */
// The module alone: the page server process loads nothing else of the reference service.
import * as Prng from "@broker-history/core/random/Prng"

/**
 * The kinds of record the page server can serve: `short` (ASCII, about 300 bytes of JSON) or `long`
 * (non-ASCII memo and account name, about 850 bytes).
 *
 * @example
 * import * as PageRecords from "@broker-history/bench/PageRecords"
 * PageRecords.kinds // ["short", "long"]
 */
export const kinds = ["short", "long"] as const

/**
 * A kind of record.
 *
 * @example
 * import type * as PageRecords from "@broker-history/bench/PageRecords"
 * const kind: PageRecords.Kind = "long"
 */
export type Kind = typeof kinds[number]

/**
 * The shape of the dataset: `pages × 500` records of `kind` (default `short`), the first at
 * `start`, one every `spacing` ms.
 *
 * @example
 * import type * as PageRecords from "@broker-history/bench/PageRecords"
 * const shape: PageRecords.Shape = { pages: 2000, start: Date.UTC(2025, 0, 1), spacing: 1000, kind: "long" }
 */
export interface Shape {
  readonly pages: number
  readonly start: number
  readonly spacing: number
  readonly kind?: Kind | undefined
}

/** The default shape: 2,000 pages (1,000,000 records), one record a second from 2025-01-01. */
export const defaultShape: Shape = { pages: 2000, start: Date.UTC(2025, 0, 1), spacing: 1000 }

const assets = ["USDT", "BTC", "ETH", "USDC", "SOL", "XRP", "DOGE"] as const
const statuses = ["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "PENDING"] as const

const base36 = "0123456789abcdefghijklmnopqrstuvwxyz"

/** Deterministic 32-character client id for record `i` (the reference service's seeded generator). */
const clientId = (i: number): string => Prng.text(Prng.mulberry32(i + 1), base36, 32)

// Pieces of the long records' text: CJK, kana, Hangul, accented Latin, Cyrillic, emoji (some outside
// the Basic Multilingual Plane, so surrogate pairs in JavaScript strings and 4 bytes in UTF-8).
const memoWords = [
  "转账",
  "工资",
  "返佣",
  "月结",
  "手续费",
  "東京",
  "ソウル",
  "서울",
  "정산",
  "café",
  "Überweisung",
  "résumé",
  "перевод",
  "заметка",
  "ñandú",
  "façade",
  "💸",
  "🚀",
  "✅",
  "🧾",
  "€",
  "—",
  "·",
  " ",
  " ",
  " "
] as const

/** Pieces from `words` (seeded by `seed`) until the text is at least `length` characters long. */
const longText = (seed: number, words: ReadonlyArray<string>, length: number): string => {
  const next = Prng.mulberry32(seed)
  let out = ""
  while (out.length < length) out += Prng.pick(next, words)
  return out
}

const longMaster = "主账户-master-🏦-opérations-de-trésorerie-ＢＲＯＫＥＲ@经纪商.example.com"

/**
 * Record `i` of the dataset as the service sends it for the contenders' query (the master's own SPOT →
 * FUTURES transfers: the client refuses records outside its query): realistic field sizes, about 300
 * bytes of ASCII JSON; for `kind: "long"` a memo of over 200 non-ASCII characters in `clientTranId`
 * and a long non-ASCII master account name (seeded by `i`, about 850 bytes).
 *
 * @example
 * import * as PageRecords from "@broker-history/bench/PageRecords"
 * PageRecords.record(PageRecords.defaultShape, 0).tranId // "11945860693"
 */
export const record = (shape: Shape, i: number) => {
  const short = shortRecord(shape, i)
  if (shape.kind !== "long") return short
  return { ...short, clientTranId: longText(2 * i + 2, memoWords, 220), fromAccount: longMaster, toAccount: longMaster }
}

const shortRecord = (shape: Shape, i: number) => {
  const whole = (i * 7919) % 100_000
  const frac = String((i * 104_729) % 100_000_000).padStart(8, "0")
  return {
    tranId: String(11_945_860_693 + i),
    clientTranId: i % 4 === 0 ? clientId(i) : null,
    fromAccount: "master@broker.example.com",
    toAccount: "master@broker.example.com",
    asset: assets[i % assets.length],
    amount: `${whole}.${frac}`,
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    fromSymbol: i % 5 === 0 ? "BTCUSDT" : "",
    toSymbol: i % 5 === 0 ? "BTCUSDT" : "",
    status: statuses[i % statuses.length],
    timestamp: shape.start + i * shape.spacing
  }
}
