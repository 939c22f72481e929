// The walk against a service that refuses windows wider than a maximum it does not publish: what it
// logs of the widths it learns, and the causes it leaves alone.
import { Effect } from "effect"
import { ApiError } from "../../../src/BrokerError.js"
import * as FullHistory from "../../../src/FullHistory.js"
import { collect, describe, diedOnly, expect, it } from "../../support/line/Testing.js"
import type { Line } from "../../support/Logged.js"
import { logged } from "../../support/Logged.js"
import type { R } from "../../support/WalkRows.js"
import * as WalkRows from "../../support/WalkRows.js"

const day = 86_400_000

/**
 * An in-memory service over `rows` (newest first) that refuses a window wider than `max` ms with the
 * `ApiError` a real refusal produces (400, 33333), stating its maximum as the reference service does.
 */
const statesMaximum =
  (rows: ReadonlyArray<R>, max: number) => (startTime: number, endTime: number, page: number, limit: number) =>
    endTime - startTime + 1 > max
      ? Effect.fail(
        new ApiError({
          request: { endpoint: "transferHistory", startTime, endTime, page },
          status: 400,
          code: 33333,
          msg: `Param is error: endTime - startTime must not exceed ${max - 1} ms`
        })
      )
      : Effect.succeed(
        rows.filter((r) => r.t >= startTime && r.t <= endTime).sort((x, y) => y.t - x.t).slice(
          (page - 1) * limit,
          page * limit
        )
      )

/** The walk over `fetch`, a year back, 10 records a page. */
const options = (fetch: FullHistory.Options<R>["fetch"]): FullHistory.Options<R> =>
  WalkRows.options(fetch, {
    limit: 10,
    until: 365 * day - 1,
    endpoint: "transferHistory",
    maxWindowSetting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)"
  })

// What is learned of the widths, and the walk's output against refusing services, is tested once for
// both lines in packages/behaviour/test/walk; here, the walk's logs and causes.
describe("Walk: window widths, the logs and causes of the line", () => {
  it.effect("what is learned is said at debug level, annotated with the endpoint and the widths", () =>
    Effect.gen(function*() {
      const lines: Array<Line> = []
      const fetch = statesMaximum([{ id: "a", t: 5 }], 30 * day)
      yield* collect(FullHistory.records(options(fetch))).pipe(logged(lines))
      expect(lines).toEqual([
        {
          level: "DEBUG",
          message:
            "transferHistory: the service refused a window of 365d as too wide; windows are now planned at most 29d 23h 59m 59s 999ms wide",
          annotations: {
            endpoint: "transferHistory",
            refusedMillis: 365 * day,
            acceptedMillis: 0,
            widestMillis: 30 * day - 1
          }
        },
        {
          level: "DEBUG",
          message:
            "transferHistory: the service accepts windows of 29d 23h 59m 59s 999ms; windows are planned within it from now on",
          annotations: {
            endpoint: "transferHistory",
            acceptedMillis: 30 * day - 1,
            refusedMillis: 30 * day,
            widestMillis: 30 * day - 1
          }
        }
      ])
    }))

  it.effect("an interrupted walk's failure stays as it is: only a refusal of a window is looked at", () =>
    Effect.gen(function*() {
      const dies = () => Effect.die("boom")
      const exit = yield* Effect.exit(collect(FullHistory.records(options(dies))))
      expect(exit._tag === "Failure" && diedOnly(exit.cause)).toBe(true)
    }))
})
