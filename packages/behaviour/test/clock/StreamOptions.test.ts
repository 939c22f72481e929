// The stream options through BrokerHistory on both lines: any options object, valid or not, either
// starts the stream (a page is requested) or fails with InvalidQuery naming one of the options it got
// wrong, before any request. Which options are wrong is worked out here from how each value was drawn.
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { StreamMethod } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"

const NOW = Date.UTC(2026, 0, 1)

/** A valid value of an option, and the number the rules across options compare (ms). */
interface Valid {
  readonly value: unknown
  readonly ms?: number
}

/** A value that breaks an option's rule, and the option the error must name (default: that option). */
interface Invalid {
  readonly value: unknown
  readonly named?: string
}

/** How one option is drawn: valid values and invalid ones. */
interface Option {
  readonly valid: fc.Arbitrary<Valid>
  readonly invalid: fc.Arbitrary<Invalid>
}

const good = <A>(arb: fc.Arbitrary<A>, ms?: (a: A) => number): fc.Arbitrary<Valid> =>
  arb.map((value) => (ms === undefined ? { value } : { value, ms: ms(value) }))
const bad = (...values: ReadonlyArray<unknown>): fc.Arbitrary<Invalid> =>
  fc.constantFrom(...values).map((value) => ({ value }))

const dateTime: Option = {
  valid: fc.integer({ min: 0, max: NOW }).chain((ms) =>
    fc.constantFrom<unknown>(ms, new Date(ms), new Date(ms).toISOString()).map((value) => ({ value, ms }))
  ),
  invalid: bad(-1, 1.5, Number.NaN, "yesterday-ish", true, {}, { time: 5, ids: [] }, null, new Date(Number.NaN))
}
const integer = (min: number, max: number): Option => ({
  valid: good(fc.integer({ min, max })),
  invalid: bad(min - 1, max + 1, min + 0.5, String(min), null)
})
const resume: Option = {
  valid: good(
    fc.record({ time: fc.integer({ min: 0, max: NOW }), ids: fc.array(fc.string(), { maxLength: 3 }) }),
    (c) => c.time
  ),
  invalid: bad({ time: -1, ids: [] }, { time: 1 }, { time: 1.5, ids: [] }, { time: 1, ids: [1] }, "checkpoint", 5, null)
}
/** The options that take a duration, with the line's own `Duration` among the valid values. */
const withDurations = (lineDuration: (millis: number) => unknown) => {
  const positive = fc.constantFrom<unknown>("30 seconds", 1, 1_500, lineDuration(2_000), "1 minute", [1, 0])
  const settlement: Option = {
    valid: good(fc.constantFrom<unknown>(0, "2 days", lineDuration(3_600_000), BigInt(5_000_000))),
    invalid: bad(-1, "-1 days", "forever", Number.POSITIVE_INFINITY)
  }
  const follow: Option = {
    valid: good(fc.record({ interval: positive, settlement: settlement.valid.map((v) => v.value) }, {
      requiredKeys: ["interval"]
    })),
    invalid: fc.constantFrom<Invalid>(
      { value: 5, named: "follow" },
      { value: null, named: "follow" },
      { value: {}, named: "follow.interval" },
      { value: { interval: 0 }, named: "follow.interval" },
      { value: { interval: "-1 seconds" }, named: "follow.interval" },
      { value: { interval: Number.POSITIVE_INFINITY }, named: "follow.interval" },
      { value: { interval: "1 second", settlement: -5 }, named: "follow.settlement" },
      { value: { interval: "1 second", extra: 1 }, named: "follow.extra" }
    )
  }
  const scheduleOptions = {
    minInterval: duration(1_000, 5_000),
    maxInterval: duration(2_000, 60_000),
    concurrency: integer(1, 64),
    settlement
  }
  return { follow, scheduleOptions }
}
/** Text: an optional filter must not be empty or start or end with spaces; a required one not empty. */
const text = (...valid: ReadonlyArray<string>): Option => ({
  valid: good(fc.constantFrom(...valid)),
  invalid: bad("", " a", 5, null)
})
const requiredText = (...valid: ReadonlyArray<string>): Option => ({
  valid: good(fc.constantFrom(...valid)),
  invalid: bad("", 5, null)
})
const duration = (...ms: ReadonlyArray<number>): Option => ({
  valid: good(fc.constantFrom(...ms), (n) => n),
  invalid: bad(0, -1, "soon", Number.POSITIVE_INFINITY)
})

const rangeOptions = (maxLimit: number) => ({
  since: dateTime,
  until: dateTime,
  resume,
  limit: integer(1, maxLimit),
  concurrency: integer(1, 16)
})

const transferOptions = {
  fromAccountType: requiredText("SPOT", "FUTURES", "MARGIN"),
  toAccountType: requiredText("SPOT", "FUTURES"),
  fromAccount: text("a@broker.test"),
  toAccount: text("sub1@broker.test"),
  clientTranId: { valid: good(fc.constant("a".repeat(32))), invalid: bad("x", "", 32) },
  ...rangeOptions(500)
}
const transferRequired = ["fromAccountType", "toAccountType"]
const depositOptions = { coin: text("USDT", "BTC"), status: text("1", "5"), ...rangeOptions(1000) }

/** At most one mistake: an option's invalid value, an option these streams do not have, a required one left out. */
interface Mistake {
  readonly name: string
  readonly value: unknown
  readonly missing?: boolean
  readonly named?: string
}

/** Valid options (each given or not) and at most one mistake, which the error must name. */
interface Query {
  readonly drawn: Partial<Record<string, Valid>>
  readonly mistake: Mistake | undefined
}

const mistakeOf = (
  options: Record<string, Option>,
  unknown: ReadonlyArray<string>,
  required: ReadonlyArray<string>
): fc.Arbitrary<Mistake> =>
  fc.oneof(
    ...Object.entries(options).map(([name, o]) => o.invalid.map((i): Mistake => ({ name, ...i }))),
    fc.constantFrom(...unknown).map((name): Mistake => ({ name, value: 1 })),
    ...(required.length === 0
      ? []
      : [fc.constantFrom(...required).map((name) => ({ name, value: undefined, missing: true }))])
  )

const queryOf = (
  options: Record<string, Option>,
  unknown: ReadonlyArray<string>,
  required: ReadonlyArray<string> = []
): fc.Arbitrary<Query> =>
  fc.record({
    drawn: fc.record(
      Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.valid])),
      { requiredKeys: [...required] }
    ) as fc.Arbitrary<Partial<Record<string, Valid>>>,
    mistake: fc.option(mistakeOf(options, unknown, required), { nil: undefined })
  })

const valueOf = ({ drawn, mistake }: Query): Record<string, unknown> => {
  const value: Record<string, unknown> = Object.fromEntries(Object.entries(drawn).map(([name, v]) => [name, v!.value]))
  if (mistake?.missing === true) delete value[mistake.name]
  else if (mistake !== undefined) value[mistake.name] = mistake.value
  return value
}

/**
 * The option the error must name: the mistake's; without one, a rule across options broken
 * (`since` after `until`, or after the checkpoint's time when only `until` is given; `maxInterval`
 * shorter than `minInterval`); undefined when the query is valid.
 */
const named = ({ drawn, mistake }: Query): string | undefined => {
  if (mistake !== undefined) return mistake.named ?? mistake.name
  const [since, until, checkpoint] = [drawn.since?.ms, drawn.until?.ms, drawn.resume?.ms]
  if (until !== undefined && (since ?? checkpoint ?? 0) > until) return "since"
  if ((drawn.maxInterval?.ms ?? 300_000) < (drawn.minInterval?.ms ?? 1_000)) return "maxInterval"
  return undefined
}

describe.each(Simulations.all)("stream options through BrokerHistory ($name, property)", (line) => {
  const { follow, scheduleOptions } = withDurations(line.duration)

  /**
   * Runs `method(...args)` over an empty service at NOW until every fiber waits (it failed, ended,
   * or requested a page and waits for more), and checks it: failed with InvalidQuery naming `name`,
   * having sent nothing; or, with no name, not failed.
   */
  const expectOutcome = async (
    method: StreamMethod,
    args: ReadonlyArray<unknown>,
    name: string | undefined,
    endpoint: string
  ) => {
    await line.run({ answer: () => ({ status: 200, body: [] }) }, { start: NOW }, async (sim) => {
      const stream = sim.start(method, ...args)
      await sim.adjust(0)
      const end = stream.end()
      const error = end?._tag === "Failure" ? end.failure : undefined
      if (name === undefined) {
        expect(end === undefined || end._tag === "Done", JSON.stringify(end)).toBe(true)
        return
      }
      expect(error, JSON.stringify(end)).toMatchObject({ _tag: "InvalidQuery", fields: { endpoint, parameter: name } })
      expect(error?.message).toContain(`query: ${name} `)
      expect(sim.requests.length + sim.timeRequests.length).toBe(0)
    })
  }

  it("transfers: any options either start the stream or fail with InvalidQuery naming the wrong one, sending nothing", () =>
    fc.assert(
      fc.asyncProperty(
        queryOf(transferOptions, ["pageSize", "startTime", "page", "coin", "follow"], transferRequired),
        fc.integer({ min: 0, max: 19 }),
        async (query, root) => {
          // Now and then not an object of options at all.
          const input = root === 0 ? null : root === 1 ? [valueOf(query)] : valueOf(query)
          await expectOutcome("transfers", [input], root < 2 ? "query" : named(query), "transferHistory")
        }
      )
    ))

  it("transferChanges, with or without follow: the same, follow's options named by their path", () =>
    fc.assert(
      fc.asyncProperty(
        queryOf({ ...transferOptions, follow }, ["pageSize", "endTime", "interval"], transferRequired),
        (query) => expectOutcome("transferChanges", [valueOf(query)], named(query), "transferHistory")
      )
    ))

  it("deposits: the same with the deposit filters and page size", () =>
    fc.assert(
      fc.asyncProperty(
        queryOf(depositOptions, ["pageSize", "fromAccountType", "limt"]),
        (query) => expectOutcome("deposits", [valueOf(query)], named(query), "depositHistory")
      )
    ))

  it("followTransfers: its options first, then each stream's query, named streams[i]", () =>
    fc.assert(
      fc.asyncProperty(
        queryOf(scheduleOptions, ["interval", "since"]),
        queryOf(transferOptions, ["pageSize", "follow"], transferRequired),
        fc.constantFrom("options", "query"),
        (drawnOptions, drawnQuery, wrong) => {
          // At most one mistake, in the options or in the second stream's query.
          const options = wrong === "options" ? drawnOptions : { ...drawnOptions, mistake: undefined }
          const query = wrong === "query" ? drawnQuery : { ...drawnQuery, mistake: undefined }
          const first = { stream: "a", query: { fromAccountType: "SPOT", toAccountType: "FUTURES" } }
          const inQuery = named(query)
          return expectOutcome(
            "followTransfers",
            [[first, { stream: "b", query: valueOf(query) }], valueOf(options)],
            named(options) ?? (inQuery && `streams[1].${inQuery}`),
            "transferHistory"
          )
        }
      )
    ))

  it("subAccounts: maxSubAccounts in range, nothing else", () =>
    fc.assert(
      fc.asyncProperty(
        queryOf({ maxSubAccounts: integer(1, 1_000_000) }, ["limit", "page"]),
        (options) => expectOutcome("subAccounts", [valueOf(options)], named(options), "subAccountList")
      )
    ))
})
