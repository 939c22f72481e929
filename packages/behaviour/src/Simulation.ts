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
  /** Runs the page call `history[method](query)` in the simulation (settling as the time moves). */
  readonly call: (method: PageMethod, query?: unknown) => Promise<Outcome<unknown>>
  readonly availability: () => Promise<Availability>
  /** The gauge `BrokerHttpClient.metrics.rateLimitCurrent`: the rate (per second) the budget allows now. */
  readonly rateLimitCurrent: () => Promise<number>
  readonly logs: ReadonlyArray<LogLine>
  /** Every signed request (the server-time requests aside), in order. */
  readonly requests: ReadonlyArray<Seen>
  /** The times (ms) of the server-time requests. */
  readonly timeRequests: ReadonlyArray<number>
}

/** The layer's settings as the tests give them: `BrokerConfig.Options` without the credentials. */
export type Settings = Readonly<Record<string, unknown>>

/** One line's simulation, under the suite's name for the line. */
export interface SimulationLine {
  readonly name: string
  /**
   * Runs `script` on a virtual clock starting at `start` (ms), with one `BrokerHistory` layer over
   * `service` (signing synchronously, fast retries unless `settings` say otherwise); the streams still
   * running when it returns are interrupted.
   */
  readonly run: (
    service: Service,
    options: { readonly start: number; readonly settings?: Settings | undefined },
    script: (sim: Sim) => Promise<void>
  ) => Promise<void>
}
