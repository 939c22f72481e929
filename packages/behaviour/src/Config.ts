/**
 * What the settings tests ask of a line: its `BrokerConfig.resolve` over options and its
 * `BrokerConfig.layerConfig()` over environment variables, the resolved settings given back as plain
 * data (durations in ms, the retry schedule as the number of retries it allows), and the delays its
 * schedules choose. Each line implements it in a small adapter (`config/`).
 */
import type * as Settings from "@broker-history/core/config/Settings"
import type { Failure } from "./Line.js"

/** Resolved settings as data: durations in ms, the credentials as the line keeps them. */
export interface Resolved {
  readonly baseUrl: string
  readonly apiKeyHeader: string
  readonly recvWindow: number | undefined
  readonly requestTimeout: number
  /** How many retries the retry schedule allows a request that keeps failing with a ServerError. */
  readonly retries: number
  readonly rateLimit: { readonly limit: number; readonly interval: number; readonly margin: number }
  readonly maxWindow: { readonly deposits: number; readonly transfers: number | undefined }
  readonly maxRetryAfter: number
  readonly followMaxDelay: number
  readonly maxResponseBytes: number
  readonly maxPagesPerMillisecond: number
  readonly onIncomplete: string
  /** The secret key revealed, and every way the settings show without revealing it. */
  readonly secretKey: { readonly value: string; readonly shown: ReadonlyArray<string> }
}

/** The settings, or the `ConfigError` as its text. */
export type Resolution =
  | { readonly _tag: "Success"; readonly settings: Resolved }
  | { readonly _tag: "Failure"; readonly text: string }

/** One line's settings, under the suite's name for the line. */
export interface ConfigLine {
  readonly name: string
  /**
   * `BrokerConfig.resolve(options)`: `apiKey` and `secretKey` as text (made the line's redacted
   * values here), the rest given to the line as it is (a schedule from `schedule`, or not one on purpose).
   */
  readonly resolve: (options: Readonly<Record<string, unknown>>) => Resolution
  /** The settings `BrokerConfig.layerConfig()` reads from the environment `variables`. */
  readonly fromVariables: (variables: Readonly<Record<string, string>>) => Resolution
  /** The line's `Schedule.recurs(n)`, for a `retry.schedule` option. */
  readonly recurs: (n: number) => unknown
  /**
   * The delays (ms) of the line's schedules, stepped without waiting, up to where each ends: the
   * default retry schedule for `count` ServerErrors, `Outage.backoff(base, cap)` for `count` inputs,
   * and a follow stream's backoff (`RideOut.schedule`) for the `failures` given as data.
   */
  readonly delays: {
    readonly retryDefault: (count: number) => ReadonlyArray<number>
    readonly outageBackoff: (baseDelay: string, maxDelay: string, count: number) => ReadonlyArray<number>
    readonly rideOut: (
      retry: { readonly baseDelay: number; readonly maxRetryAfter: number; readonly followMaxDelay: number },
      failures: ReadonlyArray<Pick<Failure, "_tag" | "fields">>
    ) => ReadonlyArray<number>
  }
}

/**
 * A line's resolved settings as data, given how the line reads its durations (`millis`), reveals its
 * secrets (`reveal`) and counts the retries of its schedules (`retries`).
 */
export const asData = <D, S, K>(
  settings: Settings.Resolved<D, S, K>,
  line: {
    readonly millis: (duration: D) => number
    readonly reveal: (secret: K) => string
    readonly retries: (schedule: S) => number
  }
): Resolved => ({
  baseUrl: settings.baseUrl,
  apiKeyHeader: settings.apiKeyHeader,
  recvWindow: settings.recvWindow,
  requestTimeout: line.millis(settings.requestTimeout),
  retries: line.retries(settings.retry.schedule),
  rateLimit: {
    limit: settings.rateLimit.limit,
    interval: line.millis(settings.rateLimit.interval),
    margin: line.millis(settings.rateLimit.margin)
  },
  maxWindow: {
    deposits: line.millis(settings.maxWindow.deposits),
    transfers: settings.maxWindow.transfers === undefined ? undefined : line.millis(settings.maxWindow.transfers)
  },
  maxRetryAfter: line.millis(settings.retry.maxRetryAfter),
  followMaxDelay: line.millis(settings.retry.followMaxDelay),
  maxResponseBytes: settings.maxResponseBytes,
  maxPagesPerMillisecond: settings.maxPagesPerMillisecond,
  onIncomplete: settings.onIncomplete,
  secretKey: { value: line.reveal(settings.secretKey), shown: [String(settings.secretKey), JSON.stringify(settings)] }
})
