/**
 * A stream's range, from its decoded options (`StreamQuery`): `until` pinned here, once, to the
 * server's now when not given, and when given at most `untilAllowance` after it; `since` defaulted
 * from `until` or the checkpoint. These are the rules of the options that need the server's time:
 * it is asked (once per clock) only to pin `until` or to check a `since` or `until` that may be
 * after it, and no page is requested before that.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { BrokerError } from "../../BrokerError.js"
import type * as ServerClock from "../../ServerClock.js"
import * as StreamOptions from "../../StreamOptions.js"
import type * as Effects from "../line/Effects.js"
import type * as Walk from "../walk/Walk.js"
import * as OptionRules from "./OptionRules.js"

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

/** The stream's range and reading options, with defaults; `until` is pinned here, once. */
export const resolve = (
  endpoint: string,
  query: Pick<OptionRules.Decoded<unknown>, "range" | "follow">,
  maxWindow: number | undefined,
  clock: Effects.ServiceOf<ServerClock.ServerClock>
): Effect.Effect<Range, BrokerError> =>
  Effect.gen(function*() {
    const { concurrency, limit, resume, since: given, until: pinned } = query.range
    // An `until` not after the clock's estimate of the server's now (no request) is in the past; a
    // later one is checked against the server's time, as a `since` after it is below.
    if (pinned !== undefined && pinned > (yield* clock.now)) {
      const now = yield* clock.serverNow
      if (pinned > now + untilAllowance) {
        return yield* OptionRules.invalid(
          endpoint,
          "until",
          `must not be after the server's now (${isoTime(now)}) by more than 1 minute (allowed for clock skew); ` +
            `it is ${isoTime(pinned)}`,
          "omit it to read up to the server's now"
        )
      }
    }
    const until = pinned ?? (yield* clock.serverNow)
    // Resuming without `since` continues from the checkpoint, however old: the default lookback
    // must never open a gap between a stored checkpoint and the records after it.
    const since = given ??
      (resume !== undefined ? resume.time : Math.max(0, until - Duration.toMillis(StreamOptions.defaultLookback)))
    if (since > until) {
      return yield* OptionRules.invalid(endpoint, "since", "must not be after until (the server's now)")
    }
    const follow = query.follow === undefined ? undefined : {
      interval: Duration.millis(query.follow.interval),
      settlement: query.follow.settlement,
      now: clock.serverNow
    }
    return { since, until, limit, concurrency, maxWindow, resume, follow }
  })
