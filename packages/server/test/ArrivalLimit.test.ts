import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import * as fc from "fast-check"
import type { Store } from "../src/index.js"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import * as RateLimit from "../src/internal/limit/RateLimit.js"
import { signedGet, transfersPath } from "./support/Requests.js"
import { withServer } from "./support/Server.js"

const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]] as const

/** How many times, in ascending `times`, more than `limit` fall within one window. */
const overLimit = (times: ReadonlyArray<number>, limit: number, windowMillis: number): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let n = 0
  for (let i = limit; i < sorted.length; i++) if (sorted[i]! - sorted[i - limit]! < windowMillis) n++
  return n
}

describe("RateLimit: requests checked out of arrival order", () => {
  // Arrival times, and the order they are checked in: each request's check delayed by up to a window.
  const arrivals = fc.array(
    fc.record({ at: fc.integer({ min: 0, max: 5_000 }), delay: fc.integer({ min: 0, max: 1_000 }) }),
    { maxLength: 60 }
  )

  it.prop(
    "property: the accepted never exceed the limit in any window of their arrival times",
    { requests: arrivals, limit: fc.integer({ min: 1, max: 5 }) },
    ({ limit, requests }) => {
      const limiter = RateLimit.make({ limit, window: "1 second" })
      const checked = [...requests].sort((a, b) => a.at + a.delay - (b.at + b.delay))
      const accepted = checked.filter((r) => limiter.take("key", r.at).allowed).map((r) => r.at)
      expect(overLimit(accepted, limit, 1_000)).toBe(0)
    }
  )

  it.prop(
    "property: arrivals within the limit are all accepted, in whatever order they are checked",
    { requests: arrivals, limit: fc.integer({ min: 1, max: 5 }) },
    ({ limit, requests }) => {
      // Keep, in arrival order, the requests a limiter checking on arrival would accept.
      const within: Array<{ readonly at: number; readonly delay: number }> = []
      for (const r of [...requests].sort((a, b) => a.at - b.at)) {
        if (overLimit([...within.map((w) => w.at), r.at], limit, 1_000) === 0) within.push(r)
      }
      const limiter = RateLimit.make({ limit, window: "1 second" })
      const checked = within.sort((a, b) => a.at + a.delay - (b.at + b.delay))
      expect(checked.filter((r) => !limiter.take("key", r.at).allowed)).toEqual([])
    }
  )
})

describe("the service limits requests when they arrive", () => {
  withServer({
    seed: { seed: 3, transfers: 50, deposits: 0 },
    rateLimit: { limit: 1, window: "1 second" }
  })("a key lookup that stalls", (it) => {
    /**
     * Runs `effect` with the server's first key lookup held until `release` is called: `arrived`
     * completes once that request has arrived and its lookup has begun.
     */
    const withStalledLookup = <A, E, R>(
      effect: (
        stalled: { readonly arrived: Effect.Effect<void>; readonly release: Effect.Effect<boolean> }
      ) => Effect.Effect<A, E, R>
    ) =>
      Effect.gen(function*() {
        const server = yield* ReferenceServer.ReferenceServer
        const store = server.store as { findKey: Store.Service["findKey"] }
        const findKey = store.findKey
        const arrived = yield* Deferred.make<void>()
        const gate = yield* Deferred.make<void>()
        let first = true
        store.findKey = (apiKey) =>
          Effect.suspend(() => {
            if (!first) return findKey(apiKey)
            first = false
            return Deferred.succeed(arrived, undefined).pipe(
              Effect.zipRight(Deferred.await(gate)),
              Effect.zipRight(findKey(apiKey))
            )
          })
        return yield* effect({ arrived: Deferred.await(arrived), release: Deferred.succeed(gate, undefined) }).pipe(
          Effect.ensuring(Effect.sync(() => {
            store.findKey = findKey
          }))
        )
      })

    const send = (baseUrl: string) => signedGet(baseUrl, transfersPath, route, ApiKeys.demo)

    /**
     * The statuses of two requests: the first stalled in its key lookup, the second sent `gap` after
     * the first arrived; the first is checked against the limit only after the second was answered.
     */
    const stalledPair = (gap: "1 second" | undefined) =>
      withStalledLookup(({ arrived, release }) =>
        Effect.gen(function*() {
          const { baseUrl } = yield* ReferenceServer.ReferenceServer
          // Wait out the window of the previous test's requests.
          yield* Effect.sleep("1 second")
          const first = yield* Effect.fork(send(baseUrl))
          yield* arrived
          if (gap !== undefined) yield* Effect.sleep(gap)
          const second = yield* send(baseUrl)
          yield* release
          return [(yield* Fiber.join(first)).status, second.status]
        })
      )

    it.effect("a request sent a window after the stalled one is checked first: both are answered, no 429", () =>
      // One window after the first request arrived: within the limit of 1 per second.
      Effect.map(stalledPair("1 second"), (statuses) => expect(statuses).toEqual([200, 200])))

    it.effect("two requests arriving within one window: one of them is refused however late it is checked", () =>
      Effect.map(stalledPair(undefined), (statuses) => expect([...statuses].sort()).toEqual([200, 429])))
  })
})
