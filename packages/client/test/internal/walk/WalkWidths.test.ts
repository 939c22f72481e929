// The walk against services that refuse windows wider than a maximum they do not publish: widths
// learned from the refusals, shared by the walks given the same `windowWidths`.
import { describe, expect, it } from "@effect/vitest"
import { Cause, Chunk, Clock, Effect, HashMap, Logger, LogLevel, Option, Stream } from "effect"
import { ApiError } from "../../../src/BrokerError.js"
import * as FullHistory from "../../../src/FullHistory.js"

interface R {
  readonly id: string
  readonly t: number
}

const day = 86_400_000

/** How the service words its refusal: stating its maximum (as the reference service), not, or wrongly. */
type Wording = "stated" | "plain" | "misstated"

const refusalText = (wording: Wording, max: number, width: number): string =>
  wording === "stated"
    ? `Param is error: endTime - startTime must not exceed ${max - 1} ms`
    : wording === "plain"
    ? "Param is error: time window too large"
    : `Param is error: the time range of ${width} ms is longer than ${3 * max} ms`

/**
 * An in-memory service over `rows` (newest first) that refuses a window wider than `max` ms with the
 * `ApiError` a real refusal produces (400, 33333), counting requests, refusals and the most requests
 * in flight at once. Rows are visible once the clock's `now(clock)` reaches their time. Past `cap`
 * requests it dies, so that a walk that crawls fails the test instead of running for hours.
 */
const service = (
  rows: ReadonlyArray<R>,
  max: number,
  wording: Wording,
  now: (clock: number) => number = () => Infinity,
  cap = 100_000
) => {
  const counts = { requests: 0, refused: 0, inFlight: 0, mostInFlight: 0, widest: 0 }
  const widths: Array<number> = []
  const fetch = (startTime: number, endTime: number, page: number, limit: number) =>
    Effect.suspend(() => {
      if (++counts.requests > cap) return Effect.dieMessage(`more than ${cap} requests`)
      counts.inFlight++
      counts.mostInFlight = Math.max(counts.mostInFlight, counts.inFlight)
      const width = endTime - startTime + 1
      widths.push(width)
      // Yield, so that windows fetched ahead are in flight together.
      return Effect.zipRight(
        Effect.yieldNow(),
        Effect.flatMap(Clock.currentTimeMillis, (clock) => {
          if (width > max) {
            counts.refused++
            return Effect.fail(
              new ApiError({
                request: { endpoint: "transferHistory", startTime, endTime, page },
                status: 400,
                code: 33333,
                msg: refusalText(wording, max, width)
              })
            )
          }
          counts.widest = Math.max(counts.widest, width)
          const visible = now(clock)
          return Effect.succeed(
            rows.filter((r) => r.t >= startTime && r.t <= endTime && r.t <= visible)
              .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
              .slice((page - 1) * limit, page * limit)
          )
        })
      ).pipe(Effect.ensuring(Effect.sync(() => void counts.inFlight--)))
    })
  return { fetch, counts, widths }
}

const options = (
  fetch: FullHistory.Options<R>["fetch"],
  overrides: Partial<FullHistory.Options<R>> = {}
): FullHistory.Options<R> => ({
  fetch,
  time: (r) => r.t,
  key: (r) => r.id,
  compare: (a, b) => a.t - b.t || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  fingerprint: (r) => r.id,
  limit: 10,
  maxWindow: undefined,
  since: 0,
  until: 365 * day - 1,
  concurrency: 1,
  endpoint: "transferHistory",
  maxWindowSetting: "maxWindow.transfers (BROKER_TRANSFER_MAX_WINDOW)",
  ...overrides
})

const collect = <A, E>(stream: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

// What is learned of the widths, and the walk's output against refusing services, is tested once for
// both lines in packages/behaviour/test/walk; here, what is this line's own: its logs and its causes.
describe("Walk: window widths, the logs and causes of the line", () => {
  it.effect("what is learned is said at debug level, annotated with the endpoint and the widths", () =>
    Effect.gen(function*() {
      const lines: Array<{ level: string; message: string; annotations: Record<string, unknown> }> = []
      const logger = Logger.make(({ annotations, logLevel, message }) => {
        lines.push({
          level: logLevel.label,
          message: Array.isArray(message) ? message.join(" ") : String(message),
          annotations: Object.fromEntries(HashMap.toEntries(annotations))
        })
      })
      const { fetch } = service([{ id: "a", t: 5 }], 30 * day, "stated")
      yield* collect(FullHistory.records(options(fetch))).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
        Logger.withMinimumLogLevel(LogLevel.Debug)
      )
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
      const dies = () => Effect.dieMessage("boom")
      const exit = yield* Effect.exit(collect(FullHistory.records(options(dies))))
      expect(exit._tag === "Failure" && Option.isNone(Cause.failureOption(exit.cause)) && Cause.isDie(exit.cause))
        .toBe(true)
    }))
})
