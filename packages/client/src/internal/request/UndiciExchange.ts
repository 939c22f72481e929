/**
 * The undici carrier of `Exchange`, for Node: one `request` per attempt settled from its promise,
 * instead of the platform client's per-request fibers, scope, URL object and cached body effect,
 * which together cost more per page than parsing the page. The request itself (its deadline, its
 * abort, the body counted against the limit) is core's `UndiciRequest`, shared with the Effect 4
 * line; this module turns its outcomes into this line's errors.
 *
 * @internal
 */
import * as UndiciRequest from "@broker-history/core/request/UndiciRequest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as BrokerError from "../../BrokerError.js"
import * as Effects from "../line/Effects.js"
import * as Answer from "./Answer.js"
import type { Exchange } from "./Exchange.js"

/**
 * Over an undici `Dispatcher`, driven directly (`UndiciRequest`). The deadline covers connect,
 * headers and the whole body; it is wall-clock time (this carrier talks to a real network, the
 * `TestClock` does not drive it). Interrupting the attempt aborts the request, which releases its
 * connection. undici's `request` does not follow redirects. A body over `maxBytes` (declared, or
 * counted as it arrives) is not read further, its connection is closed, and the attempt fails.
 */
export const make = (dispatcher: UndiciRequest.Dispatcher, timeout: Duration.Duration, maxBytes: number): Exchange => {
  const send = UndiciRequest.make(dispatcher, Duration.toMillis(timeout), maxBytes)
  const timeoutText = `no complete answer within ${Duration.format(timeout)}`
  return (origin, pathAndQuery, headers, ctx, attempt) =>
    Effects.callback<Answer.Reply, BrokerError.TransportError | BrokerError.ResponseDecodeError>((resume) => {
      const cancel = send(origin, pathAndQuery, headers, {
        reply: (reply) => resume(Effect.succeed(reply)),
        timeout: () =>
          resume(Effect.fail(
            new BrokerError.TransportError({
              request: ctx,
              reason: "Timeout",
              description: timeoutText,
              attempts: attempt
            })
          )),
        tooLarge: (status, declared) => resume(Effect.fail(Answer.tooLarge(ctx, status, maxBytes, declared, attempt))),
        failed: (stage, cause) => resume(Effect.fail(Answer.transportCause(ctx, stage, cause, attempt)))
      })
      return Effect.sync(cancel)
    })
}
