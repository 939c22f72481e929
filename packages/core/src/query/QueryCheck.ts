/**
 * Whether an answer holds only what its query asked for: every record inside the query's time window
 * and matching its filters (accounts and account types of a transfer query, coin and status of a
 * deposit query). A record outside is refused, never emitted or dropped: a service that ignores the
 * window or a filter would otherwise send the walk through the whole history for every window (it
 * narrows a window whose page is full of records that are not in it) or hand the caller records of
 * another query. One linear scan over the decoded records, allocating nothing unless a record is
 * outside.
 *
 * @since 0.2.0
 */
import * as ServerText from "../request/ServerText.js"

/**
 * A filter every record of an answer must match (public as `FullHistory.Filter`).
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 * interface R {
 *   readonly id: string
 *   readonly t: number
 *   readonly to: string
 * }
 * const query: QueryCheck.Query<R> = {
 *   start: 0,
 *   end: 99,
 *   limit: 500,
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   filters: [{ field: "toAccount", read: (r) => r.to, value: "sub1" }]
 * }
 *
 * const filter: QueryCheck.Filter<R> = query.filters[0]!
 * assert.strictEqual(filter.read({ id: "a", t: 1, to: "sub1" }), "sub1")
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Filter<A> {
  /** The record's field, as error messages name it. */
  readonly field: string
  readonly read: (record: A) => string
  /** The value the query asked for; `undefined`: one account, named alike by every record of an answer. */
  readonly value: string | undefined
}

/** Most characters of a record's JSON kept in the error's excerpt. */
const excerptLength = 200
/** Most characters of one value quoted in a description. */
const valueLength = 64

/**
 * What an answer is checked against: the inclusive window (±∞ where the query set no bound), the most
 * records a page may hold, and the filters.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 * interface R {
 *   readonly id: string
 *   readonly t: number
 *   readonly to: string
 * }
 * const query: QueryCheck.Query<R> = {
 *   start: 0,
 *   end: 99,
 *   limit: 500,
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   filters: [{ field: "toAccount", read: (r) => r.to, value: "sub1" }]
 * }
 *
 * assert.strictEqual(QueryCheck.firstOutside([{ id: "a", t: 1, to: "sub1" }], query), undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Query<A> {
  readonly start: number
  readonly end: number
  /** The page size asked for (or the endpoint's largest): an answer with more is not a page of this query. */
  readonly limit: number
  readonly time: (record: A) => number
  readonly key: (record: A) => string
  readonly filters: ReadonlyArray<Filter<A>>
}

/**
 * The first record of an answer that its query did not ask for, and what it breaks.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 * interface R {
 *   readonly id: string
 *   readonly t: number
 *   readonly to: string
 * }
 * const query: QueryCheck.Query<R> = {
 *   start: 0,
 *   end: 99,
 *   limit: 500,
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   filters: [{ field: "toAccount", read: (r) => r.to, value: "sub1" }]
 * }
 *
 * const outside: QueryCheck.Outside | undefined = QueryCheck.firstOutside([{ id: "a", t: 1, to: "sub2" }], query)
 * assert.strictEqual(outside?.index, 0)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Outside {
  readonly index: number
  readonly description: string
}

/**
 * The first record of `records` outside `query`, or undefined when every record is inside. A field a
 * record leaves empty says nothing and passes (the decoder reads a missing or null text as `""`). A
 * filter without a value (an account the query omitted: the master account, whose name the client does
 * not know) passes when every record of the answer names one account there.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 * interface R {
 *   readonly id: string
 *   readonly t: number
 *   readonly to: string
 * }
 * const query: QueryCheck.Query<R> = {
 *   start: 0,
 *   end: 99,
 *   limit: 500,
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   filters: [{ field: "toAccount", read: (r) => r.to, value: "sub1" }]
 * }
 *
 * const records = [{ id: "a", t: 1, to: "sub1" }, { id: "b", t: 120, to: "sub1" }]
 * assert.strictEqual(
 *   QueryCheck.firstOutside(records, query)?.description,
 *   `record "b" at 1970-01-01T00:00:00.120Z is outside the query's window 1970-01-01T00:00:00.000Z..1970-01-01T00:00:00.099Z`
 * )
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const firstOutside = <A>(records: ReadonlyArray<A>, query: Query<A>): Outside | undefined => {
  const { end, filters, limit, start, time } = query
  if (records.length > limit) {
    return {
      index: limit,
      description: `the answer holds ${records.length} records, more than the ${limit} a page of this query may hold`
    }
  }
  const n = filters.length
  // For each filter without a value, the record that first named its account (−1: none yet): one
  // array per answer, none per record.
  const named: Array<number> = new Array<number>(n).fill(-1)
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    const t = time(record)
    if (!(t >= start && t <= end)) {
      return {
        index: i,
        description: `${label(query, record)} is outside the query's window ${stamp(start)}..${stamp(end)}`
      }
    }
    for (let f = 0; f < n; f++) {
      const filter = filters[f]!
      const value = filter.read(record)
      if (value === "") continue
      if (filter.value !== undefined) {
        if (value !== filter.value) {
          return {
            index: i,
            description: `${label(query, record)} has ${filter.field} ${quote(value)}, not ${
              quote(filter.value)
            } as the query asked`
          }
        }
        continue
      }
      const first = named[f]!
      if (first === -1) {
        named[f] = i
      } else {
        const expected = filter.read(records[first]!)
        if (value !== expected) {
          return {
            index: i,
            description: `${label(query, record)} has ${filter.field} ${quote(value)} where ${
              label(query, records[first]!)
            } of the same answer has ${
              quote(expected)
            }: the query omitted ${filter.field}, which means the master account, one account`
          }
        }
      }
    }
  }
  return undefined
}

/**
 * Which request an answer came from, as an error names it: the endpoint, the window and the page.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 *
 * const request: QueryCheck.Request = { endpoint: "transferHistory", startTime: 0, endTime: 99, page: 2 }
 * assert.strictEqual(request.page, 2)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Request {
  readonly endpoint: string
  readonly startTime?: number
  readonly endTime?: number
  readonly page?: number
}

/**
 * What a page call's query may hold of a window and a page.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 *
 * const page: QueryCheck.PageQuery = { startTime: 0, page: 1 }
 * assert.strictEqual(page.endTime, undefined)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface PageQuery {
  readonly startTime?: number | undefined
  readonly endTime?: number | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}

/**
 * What a page call's answer is checked against, and the request its error names: the window the
 * query gave (a bound it did not give is open: the service's default, such as the deposit endpoint's
 * last 10 days, is not known here) and the query's filters.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 *
 * interface R {
 *   readonly id: string
 *   readonly t: number
 * }
 * const kind = {
 *   endpoint: { maxLimit: 500 },
 *   time: (r: R) => r.t,
 *   key: (r: R) => r.id,
 *   recordFilters: () => []
 * }
 * const { query, request } = QueryCheck.ofPage("transferHistory", { startTime: 0, page: 2 }, kind)
 * assert.deepStrictEqual([query.start, query.end, query.limit], [0, Number.POSITIVE_INFINITY, 500])
 * assert.deepStrictEqual(request, { endpoint: "transferHistory", startTime: 0, page: 2 })
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const ofPage = <Q extends PageQuery, A>(
  endpoint: string,
  query: Q,
  kind: {
    readonly endpoint: { readonly maxLimit: number }
    readonly time: (record: A) => number
    readonly key: (record: A) => string
    readonly recordFilters: (query: Q) => ReadonlyArray<Filter<A>>
  }
): { readonly query: Query<A>; readonly request: Request } => ({
  query: {
    start: query.startTime ?? Number.NEGATIVE_INFINITY,
    end: query.endTime ?? Number.POSITIVE_INFINITY,
    limit: query.limit ?? kind.endpoint.maxLimit,
    time: kind.time,
    key: kind.key,
    filters: kind.recordFilters(query)
  },
  request: {
    endpoint,
    ...(query.startTime === undefined ? {} : { startTime: query.startTime }),
    ...(query.endTime === undefined ? {} : { endTime: query.endTime }),
    ...(query.page === undefined ? {} : { page: query.page })
  }
})

/**
 * The excerpt an error quotes of an answer with a record outside its query: the record's JSON,
 * sanitized and shortened.
 *
 * @example
 * ```ts
 * import * as QueryCheck from "@broker-history/core/query/QueryCheck"
 * interface R {
 *   readonly id: string
 *   readonly t: number
 *   readonly to: string
 * }
 * const query: QueryCheck.Query<R> = {
 *   start: 0,
 *   end: 99,
 *   limit: 500,
 *   time: (r) => r.t,
 *   key: (r) => r.id,
 *   filters: [{ field: "toAccount", read: (r) => r.to, value: "sub1" }]
 * }
 *
 * const records = [{ id: "a", t: 120, to: "sub1" }]
 * const outside = QueryCheck.firstOutside(records, query)!
 * assert.strictEqual(QueryCheck.excerpt(records, outside), `{"id":"a","t":120,"to":"sub1"}`)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const excerpt = <A>(records: ReadonlyArray<A>, outside: Outside): string =>
  ServerText.sanitize(JSON.stringify(records[outside.index]) ?? "", excerptLength)

const label = <A>(query: Query<A>, record: A): string =>
  `record ${quote(query.key(record))} at ${stamp(query.time(record))}`

const quote = (text: string): string => JSON.stringify(ServerText.sanitize(text, valueLength))

/** A time as ISO text (with the number when it is not a valid date), or `*` for an open bound. */
const stamp = (ms: number): string => {
  if (ms === Number.NEGATIVE_INFINITY || ms === Number.POSITIVE_INFINITY) return "*"
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString()
}
