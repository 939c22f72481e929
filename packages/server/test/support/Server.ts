/**
 * A real reference service for a group of tests: `layer` of @effect/vitest over
 * `ReferenceServer.layer(options)`, on 127.0.0.1 port 0, with the live clock (the service stamps
 * arrivals and checks timestamps against real time, so the test clock would not do).
 */
import { layer } from "@effect/vitest"
import { ReferenceServer } from "../../src/index.js"

/** `layer(ReferenceServer.layer(options), { excludeTestServices: true })`. */
export const withServer = (options?: ReferenceServer.Options) =>
  layer(ReferenceServer.layer(options), { excludeTestServices: true })

/** A rate limit no test reaches, for tests about something else. */
export const unlimited = { limit: 1_000_000, window: "10 seconds" } as const
