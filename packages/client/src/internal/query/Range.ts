/**
 * A stream query's range and reading options, checked and with their defaults: `limit`,
 * `concurrency`, `resume`, `follow`, `since` and `until` (pinned here, once, to the server's now when
 * not given; when given, at most `untilAllowance` after it). Every check that needs no request comes
 * first: a bad option fails with `InvalidQuery` before any request. The server's time is asked
 * (once per clock) only to pin `until` or to check a `since` or `until` that may be after it, and
 * no page is requested before that.
 *
 * @internal
 */
import type { Endpoint } from "@broker-history/domain"
import * as DateTime from "effect/DateTime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { BrokerError } from "../../BrokerError.js"
import { InvalidQuery } from "../../BrokerError.js"
import * as Checkpoint from "../../Checkpoint.js"
import type * as ServerClock from "../../ServerClock.js"
import * as StreamOptions from "../../StreamOptions.js"
import type * as Walk from "../walk/Walk.js"

/**
 * How far `until` may be after the server's now: the caller's clock (with which `until` was likely
 * computed) may be ahead of the server's by this much. A later `until` would end the stream in a
 * future the service has not seen yet, so it is refused.
 */
export const untilAllowance = 60_000

const isoTime = (ms: number) => new Date(ms).toISOString()

/** What `FullHistory` needs of a query besides the endpoint and the record kind. */
export type Range = Pick<
  Walk.Options<unknown>,
  "since" | "until" | "limit" | "concurrency" | "maxWindow" | "resume" | "follow"
>

const decodeCheckpoint = Schema.decodeUnknownEither(Checkpoint.Checkpoint)

/** A date-time option as Unix ms. */
export const toMillis = (
  endpoint: string,
  parameter: string,
  input: DateTime.DateTime.Input
): Effect.Effect<number, InvalidQuery> => {
  const dt = typeof input === "number" && !Number.isSafeInteger(input) ? undefined : DateTime.make(input)
  if (dt === undefined || dt._tag === "None") {
    return Effect.fail(
      new InvalidQuery({ endpoint, parameter, rule: "must be a date-time (Date, ISO text, DateTime or Unix ms)" })
    )
  }
  const ms = DateTime.toEpochMillis(dt.value)
  return ms < 0
    ? Effect.fail(new InvalidQuery({ endpoint, parameter, rule: "must not be before 1970-01-01" }))
    : Effect.succeed(ms)
}

/** The stream's range and reading options, with defaults; `until` is pinned here, once. */
export const resolve = (
  endpoint: Endpoint.Endpoint,
  query: StreamOptions.ChangeOptions,
  maxWindow: number | undefined,
  clock: ServerClock.ServerClock["Type"]
): Effect.Effect<Range, BrokerError> =>
  Effect.gen(function*() {
    const fail = (parameter: string, rule: string) =>
      Effect.fail(new InvalidQuery({ endpoint: endpoint.name, parameter, rule }))
    const limit = query.limit ?? endpoint.maxLimit
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > endpoint.maxLimit) {
      return yield* fail("limit", `must be an integer from 1 to ${endpoint.maxLimit}`)
    }
    const concurrency = query.concurrency ?? 1
    if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 16) {
      return yield* fail("concurrency", "must be an integer from 1 to 16")
    }
    let resume: Checkpoint.Checkpoint | undefined
    if (query.resume !== undefined) {
      const decoded = decodeCheckpoint(query.resume)
      if (Either.isLeft(decoded)) {
        return yield* fail("resume", "must be a checkpoint { time, ids } from a change stream")
      }
      resume = decoded.right
    }
    let follow: Range["follow"]
    if (query.follow !== undefined) {
      const interval = Duration.decodeUnknown(query.follow.interval)
      if (interval._tag === "None" || !Duration.isFinite(interval.value) || Duration.toMillis(interval.value) <= 0) {
        return yield* fail("follow.interval", "must be a positive, finite duration")
      }
      const settlement = Duration.decodeUnknown(query.follow.settlement ?? StreamOptions.defaultSettlement)
      if (settlement._tag === "None" || !Duration.isFinite(settlement.value)) {
        return yield* fail("follow.settlement", "must be a finite duration")
      }
      follow = {
        interval: interval.value,
        settlement: Duration.toMillis(settlement.value),
        now: clock.serverNow
      }
    }
    const since0 = query.since === undefined ? undefined : yield* toMillis(endpoint.name, "since", query.since)
    const until0 = query.until === undefined ? undefined : yield* toMillis(endpoint.name, "until", query.until)
    if (since0 !== undefined && until0 !== undefined && since0 > until0) {
      return yield* fail("since", "must not be after until")
    }
    // Validated everything first: only now may a request (the server's time) be made. An `until`
    // not after the clock's estimate of the server's now (no request) is in the past; a later one
    // is checked against the server's time, as a `since` after it is below.
    if (until0 !== undefined && until0 > (yield* clock.now)) {
      const now = yield* clock.serverNow
      if (until0 > now + untilAllowance) {
        return yield* fail(
          "until",
          `must not be after the server's now (${isoTime(now)}) by more than 1 minute (allowed for clock skew); ` +
            `it is ${isoTime(until0)}: omit it to read up to the server's now`
        )
      }
    }
    const until = until0 ?? (yield* clock.serverNow)
    // Resuming without `since` continues from the checkpoint, however old: the default lookback
    // must never open a gap between a stored checkpoint and the records after it.
    const since = since0 ??
      (resume !== undefined ? resume.time : Math.max(0, until - Duration.toMillis(StreamOptions.defaultLookback)))
    if (since > until) return yield* fail("since", "must not be after until (the server's now)")
    return { since, until, limit, concurrency, maxWindow, resume, follow }
  })
