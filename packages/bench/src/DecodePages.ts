/**
 * The pages the decoding part decodes (`Decoding`): transfer pages of 500 records and deposit pages of
 * 1,000 (each endpoint's largest page), as the reference service answers them (`Seed` histories in
 * `WireFormat`), and transfer pages with one broken record each (an amount sent as a number). Every page
 * is parsed from its own JSON text, as the client parses an answer. Pure: values in, values out.
 *
 * @since 0.2.0
 */
import { Endpoint } from "@broker-history/domain"
import { ReferenceServer, Seed } from "@broker-history/server"
import { WireFormat } from "@broker-history/testing/ServerInternals"

/**
 * How many pages of each kind.
 *
 * @example
 * import type * as DecodePages from "@broker-history/bench/DecodePages"
 * const sizes: DecodePages.Sizes = { transferPages: 40, depositPages: 20, brokenPages: 4 }
 *
 * @since 0.2.0
 * @category models
 */
export interface Sizes {
  readonly transferPages: number
  readonly depositPages: number
  readonly brokenPages: number
}

/**
 * The kinds of page: valid transfer pages, valid deposit pages, transfer pages with one broken record.
 *
 * @example
 * import * as DecodePages from "@broker-history/bench/DecodePages"
 * DecodePages.kinds // ["transfers", "deposits", "broken"]
 *
 * @since 0.2.0
 * @category models
 */
export const kinds = ["transfers", "deposits", "broken"] as const

/**
 * A kind of page.
 *
 * @example
 * import type * as DecodePages from "@broker-history/bench/DecodePages"
 * const kind: DecodePages.Kind = "broken"
 *
 * @since 0.2.0
 * @category models
 */
export type Kind = typeof kinds[number]

/**
 * Every page of every kind, each a parsed JSON array.
 *
 * @example
 * import type * as DecodePages from "@broker-history/bench/DecodePages"
 * const records = (p: DecodePages.Pages) => p.transfers.length * 500
 *
 * @since 0.2.0
 * @category models
 */
export type Pages = { readonly [K in Kind]: ReadonlyArray<ReadonlyArray<unknown>> }

/** One history for every run: the same seed and end give the same records. */
const history = { seed: 9, end: Date.UTC(2026, 0, 1), subAccounts: 40 } as const

const paged = <A>(rows: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<unknown>> => {
  const pages: Array<ReadonlyArray<unknown>> = []
  for (let i = 0; i < rows.length; i += size) {
    pages.push(JSON.parse(JSON.stringify(rows.slice(i, i + size))) as ReadonlyArray<unknown>)
  }
  return pages
}

/**
 * Builds the pages: `transferPages` pages of 500 transfers, `depositPages` pages of 1,000 deposits,
 * and `brokenPages` transfer pages whose middle record's `amount` is a number (the schema wants text).
 *
 * @example
 * import * as DecodePages from "@broker-history/bench/DecodePages"
 * const pages = DecodePages.make({ transferPages: 1, depositPages: 1, brokenPages: 1 })
 * pages.deposits[0].length // 1000
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = (sizes: Sizes): Pages => {
  const transferSize = Endpoint.transferHistory.maxLimit
  const depositSize = Endpoint.depositHistory.maxLimit
  const transfers = Seed.transfers({
    ...history,
    transfers: (sizes.transferPages + sizes.brokenPages) * transferSize,
    deposits: 0
  }).map((row) => WireFormat.transfer(row, ReferenceServer.defaultMasterAccount))
  const deposits = Seed.deposits({ ...history, transfers: 0, deposits: sizes.depositPages * depositSize })
    .map(WireFormat.deposit)
  const valid = transfers.slice(0, sizes.transferPages * transferSize)
  const broken = transfers.slice(valid.length).map((record, i) =>
    i % transferSize === transferSize / 2 ? { ...record, amount: Number(record.amount) } : record
  )
  return {
    transfers: paged(valid, transferSize),
    deposits: paged(deposits, depositSize),
    broken: paged(broken, transferSize)
  }
}
