/**
 * The check that accepts a valid query without a schema interpreter: each line's domain compiles
 * its query schema's AST into the checks of its fields and of the whole (`Field`), and this loop
 * over a query's own keys makes them one check, true only for input the schema decodes to itself.
 *
 * @since 0.2.0
 */

/**
 * One field of a query: its name, whether it may be missing, and the check of its value.
 *
 * @example
 * ```ts
 * import type * as Accepts from "@broker-history/core/query/Accepts"
 *
 * const limit: Accepts.Field = { name: "limit", optional: true, accepts: (u) => typeof u === "number" }
 * assert.strictEqual(limit.accepts(20), true)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Field {
  readonly name: string
  readonly optional: boolean
  readonly accepts: (u: unknown) => boolean
}

/**
 * The check of a query made of `fields`: true for a plain object whose own keys are exactly known
 * fields (every required one present, no other key, no symbol), each value accepted by its field,
 * and that `whole` (the query's own cross-field rules) accepts.
 *
 * @example
 * ```ts
 * import * as Accepts from "@broker-history/core/query/Accepts"
 *
 * const accepts = Accepts.struct(
 *   [
 *     { name: "coin", optional: false, accepts: (u) => typeof u === "string" },
 *     { name: "limit", optional: true, accepts: (u) => typeof u === "number" }
 *   ],
 *   () => true
 * )
 * assert.strictEqual(accepts({ coin: "USDT" }), true)
 * assert.strictEqual(accepts({ coin: "USDT", page: 1 }), false)
 * assert.strictEqual(accepts({ limit: 20 }), false)
 * ```
 *
 * @since 0.2.0
 * @category constructors
 */
export const struct = (
  fields: ReadonlyArray<Field>,
  whole: (u: unknown) => boolean
): (u: unknown) => boolean => {
  const known = new Set(fields.map((f) => f.name))
  return (u) => {
    if (typeof u !== "object" || u === null || Array.isArray(u)) return false
    const record = u as Record<string, unknown>
    let present = 0
    for (const f of fields) {
      if (Object.hasOwn(record, f.name)) {
        present++
        if (!f.accepts(record[f.name])) return false
      } else if (!f.optional) {
        return false
      }
    }
    // Every own key must be a known one (the schema refuses excess properties).
    let own = 0
    for (const k in record) {
      if (!Object.hasOwn(record, k)) return false
      if (!known.has(k)) return false
      own++
    }
    return own === present && Object.getOwnPropertySymbols(record).length === 0 && whole(u)
  }
}
