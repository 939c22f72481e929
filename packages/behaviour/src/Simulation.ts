/**
 * What the clock tests ask of a line: its `BrokerHistory` over a scripted service (a plain function
 * from a request to an answer), on the line's virtual clock, driven by a plain script that starts
 * streams, moves the time on and reads what came out, what was logged and what was requested. Each
 * line implements it in a small adapter (`simulation/`) over its test support's mock transport and
 * virtual clock, so that one test source runs the follow and outage behaviour against both.
 */
import type { Outcome } from "./Line.js"
import type { End } from "./Walk.js"

/**
 * A request as the scripted service sees it (`at`: its virtual time, ms), and what the service
 * answers: a status and JSON body (or raw text), or a transport failure. The lines' mock transports
 * (their test support's `MockService`) take the same plain values.
 */
export type { Answer, Seen } from "../../client/test/support/MockService.js"
import type { Answer, Seen } from "../../client/test/support/MockService.js"

/** The scripted service: every signed request's answer, and optionally the server-time endpoint's. */
export interface Service {
  readonly answer: (seen: Seen) => Answer
  /** An answer to the n-th `/api/v3/time` request, sent at `at`, instead of the time (`undefined`: the time). */
  readonly time?: ((n: number, at: number) => Answer | undefined) | undefined
  /** Every answer (the server time's too) comes this long (ms) after its request; `seen.at` is then. */
  readonly latencyMillis?: number | undefined
}

/** A log line of the line: its level in capitals, its message, its annotations. */
export interface LogLine {
  readonly level: string
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** The layer's `availability`, as data. */
export interface Availability {
  readonly lastSuccess: number | undefined
  readonly unavailableSince: number | undefined
  readonly lastFailure: string | undefined
}

/** The `BrokerHistory` streams a script may start (each taking the line's plain query and options). */
export type StreamMethod =
  | "transfers"
  | "deposits"
  | "transferChanges"
  | "depositChanges"
  | "followTransfers"
  | "followDeposits"
  | "subAccounts"

/** The `BrokerHistory` page calls a script may make. */
export type PageMethod = "transferHistory" | "depositHistory" | "subAccountList"

/**
 * The lines' counters a script may read (`BrokerHistory.recordsReceived`, `incompleteMilliseconds`,
 * `BrokerHttpClient.metrics.requests`, `retries`), each for one endpoint: process-wide, so compare two
 * readings.
 */
export type Counter = "recordsReceived" | "incompleteMilliseconds" | "requests" | "retries"

/** A stream made but not run yet: each `run` runs it again (ending after `take` elements if given). */
export interface Opened {
  readonly run: (take?: number) => Handle
}

/** A span as the line's tracer saw it (`@broker-history/testing/Capture`'s record). */
export interface CapturedSpan {
  readonly name: string
  readonly kind: string
  readonly parent: string | undefined
  readonly attributes: Readonly<Record<string, unknown>>
  /** Its events as text, the last being its end with its exit. */
  readonly events: ReadonlyArray<string>
  readonly ended: boolean
}

/** What a capturing run recorded: every span, and every text a secret could leak into. */
export interface Captured {
  readonly spans: ReadonlyArray<CapturedSpan>
  /** Every log line (every level, with its cause), every span, and every text of the calls' failures. */
  readonly text: () => string
}

/** A started stream: what it emitted so far and, once it ended, how. */
export interface Handle {
  readonly emitted: ReadonlyArray<unknown>
  /** How it ended, or `undefined` while it runs. */
  readonly end: () => End | undefined
  /** Interrupts it, resolving once it has ended. */
  readonly interrupt: () => Promise<void>
}

/** The running simulation, for the script. */
export interface Sim {
  /** Moves the time on by `millis`, every fiber running until suspended before and after each wake-up. */
  readonly adjust: (millis: number) => Promise<void>
  /** Starts `history[method](...args)` in the simulation, collecting what it emits. */
  readonly start: (method: StreamMethod, ...args: ReadonlyArray<unknown>) => Handle
  /** As `start`, the stream ending after its first `n` elements. */
  readonly take: (n: number, method: StreamMethod, ...args: ReadonlyArray<unknown>) => Handle
  /** As `start`, without running it: nothing is sent until its `run`. */
  readonly open: (method: StreamMethod, ...args: ReadonlyArray<unknown>) => Opened
  /**
   * Runs the page call `history[method](query)` in the simulation (settling as the time moves), in a
   * span named `span` when given (the caller's).
   */
  readonly call: (
    method: PageMethod,
    query?: unknown,
    options?: { readonly span?: string | undefined }
  ) => Promise<Outcome<unknown>>
  readonly availability: () => Promise<Availability>
  /** The gauge `BrokerHttpClient.metrics.rateLimitCurrent`: the rate (per second) the budget allows now. */
  readonly rateLimitCurrent: () => Promise<number>
  /** The line's `counter` for `endpoint`, now. */
  readonly counter: (counter: Counter, endpoint: string) => Promise<number>
  /** What was logged (empty when capturing: see `captured`). */
  readonly logs: ReadonlyArray<LogLine>
  /** With `capture`, what the line's logger and tracer recorded; otherwise undefined. */
  readonly captured: Captured | undefined
  /** Every signed request (the server-time requests aside), in order. */
  readonly requests: ReadonlyArray<Seen>
  /** The times (ms) of the server-time requests. */
  readonly timeRequests: ReadonlyArray<number>
}

/** The layer's settings as the tests give them: `BrokerConfig.Options` without the credentials. */
export type Settings = Readonly<Record<string, unknown>>

/**
 * The application's own `HttpClient` in place of the mock's: the mock's wrapped to fail on every
 * status but 2xx (`HttpClient.filterStatusOk`), or one that fails every request with a transport
 * error of its own `description`.
 */
export type AppClient =
  | { readonly _tag: "StatusOk" }
  | { readonly _tag: "Failing"; readonly description: string }

/** How a run is observed and carried, beyond its start and settings. */
export interface RunOptions {
  readonly start: number
  readonly settings?: Settings | undefined
  /** Record every log line and span as `sim.captured` (instead of `sim.logs`). */
  readonly capture?: boolean | undefined
  /** `false`: the tracer disabled for the whole run (`Effect.withTracerEnabled(false)`). */
  readonly tracing?: boolean | undefined
  readonly client?: AppClient | undefined
  /**
   * The settings read by `BrokerConfig.layerConfig` from `variables` (the `BROKER_*` ones) instead of
   * `settings`, the credentials from the variables `names` gives when given (the user's own `Config`);
   * the layer then signs as it does by default.
   */
  readonly config?: {
    readonly variables: Readonly<Record<string, string>>
    readonly names?: { readonly apiKey: string; readonly secretKey: string } | undefined
  } | undefined
}

/**
 * A retry schedule as plain data, for the line to make its own `Schedule` of: `recurs` retries,
 * `spaced` ms apart, only while the failure's tag is `whileTag`; or retries without end.
 */
export type ScheduleSpec =
  | {
    readonly recurs: number
    readonly spaced?: number | undefined
    readonly whileTag?: string | undefined
  }
  | { readonly forever: true }

/** One line's simulation, under the suite's name for the line. */
export interface SimulationLine {
  readonly name: string
  /**
   * Runs `script` on a virtual clock starting at `start` (ms), with one `BrokerHistory` layer over
   * `service` (signing synchronously, fast retries unless `settings` say otherwise); the streams still
   * running when it returns are interrupted.
   */
  readonly run: (service: Service, options: RunOptions, script: (sim: Sim) => Promise<void>) => Promise<void>
  /** The line's own `Duration` of `millis`, for an option that takes one. */
  readonly duration: (millis: number) => unknown
  /** The line's own `Schedule` for `spec`, for `retry` or `retry.schedule`. */
  readonly schedule: (spec: ScheduleSpec) => unknown
}

/** The credentials of the lines' mock transport (their `test/support/MockService.ts`). */
export const credentials = { apiKey: "mock-api-key-3f9a1c", secretKey: "mock-secret-key-9b7e2d41" } as const

/**
 * Moves the time on by `stepMillis` until `promise` settles (at most `maxSteps` times), and returns
 * its value: for a call that waits on the virtual clock (retries, the budget).
 */
export const settled = async <A>(sim: Sim, promise: Promise<A>, stepMillis = 1_000, maxSteps = 10_000): Promise<A> => {
  let done = false
  const watched = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error })
  ).finally(() => {
    done = true
  })
  for (let i = 0; i < maxSteps && !done; i++) await sim.adjust(stepMillis)
  const outcome = await watched
  if (outcome.ok) return outcome.value
  throw outcome.error
}
