/**
 * The live progress line on stderr (only when stderr is a terminal) and the final summary line:
 * records so far, the date of the newest record, records per second, and the client's requests,
 * retries and rate-limit waits read from its metrics (`BrokerHttpClient.metrics`, tagged by
 * endpoint).
 *
 * @internal
 */
import { BrokerHttpClient } from "@broker-history/client"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Schedule from "effect/Schedule"

/**
 * What the progress line shows: records so far, the time of the newest, the elapsed time, and the
 * client's requests, retries and rate-limit waits.
 */
export interface Snapshot {
  readonly label: string
  readonly records: number
  /** Time of the newest record seen (Unix ms), if any. */
  readonly latest: number | undefined
  readonly elapsedMillis: number
  readonly requests: number
  readonly retries: number
  readonly rateLimitWaits: number
}

const day = (ms: number | undefined) => ms === undefined ? "-" : new Date(ms).toISOString().slice(0, 10)

const rate = (s: Snapshot) => s.elapsedMillis <= 0 ? 0 : Math.round((s.records * 1000) / s.elapsedMillis)

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** The live progress line of a snapshot. */
export const line = (s: Snapshot): string =>
  `${s.label}: ${plural(s.records, "record")}, at ${day(s.latest)}, ${rate(s)} records/s, ${
    plural(s.requests, "request")
  }, ${plural(s.retries, "retry").replace("retrys", "retries")}, ${plural(s.rateLimitWaits, "rate-limit wait")}`

/** The summary line printed at the end of a command. */
export const summary = (s: Snapshot): string =>
  `${s.label}: ${plural(s.records, "record")} in ${(s.elapsedMillis / 1000).toFixed(1)} s (${rate(s)} records/s), ${
    plural(s.requests, "request")
  }, ${plural(s.retries, "retry").replace("retrys", "retries")}, ${plural(s.rateLimitWaits, "rate-limit wait")}`

/** Counts the records a command has handled and shows the progress line. */
export class Progress extends Context.Tag("@broker-history/cli/Progress")<Progress, {
  /** `records` more were handled; `latest` is the time of the newest of them. */
  readonly add: (records: number, latest?: number | undefined) => Effect.Effect<void>
  /** The current numbers. */
  readonly snapshot: Effect.Effect<Snapshot>
}>() {}

/**
 * Settings of a progress line: its label, the endpoints whose request metrics count, and whether it is
 * shown (default: when stderr is a terminal).
 */
export interface Options {
  readonly label: string
  /** The endpoints whose request metrics count. */
  readonly endpoints: ReadonlyArray<string>
  /** Show the live line and the summary on stderr. Default: when stderr is a terminal. */
  readonly live?: boolean | undefined
}

const metricTotal = (counter: typeof BrokerHttpClient.metrics.requests, endpoints: ReadonlyArray<string>) =>
  Effect.map(
    Effect.forEach(endpoints, (e) => Metric.value(Metric.tagged(counter, "endpoint", e))),
    (states) => states.reduce((sum, s) => sum + s.count, 0)
  )

/**
 * A progress line for one command: with `live` it redraws every 250 ms on stderr and, when the scope
 * closes, is replaced by the summary; otherwise it only counts. The client's requests are counted from
 * the layer's start, for `endpoints`.
 */
export const layer = (options: Options): Layer.Layer<Progress> =>
  Layer.scoped(
    Progress,
    Effect.gen(function*() {
      const live = options.live ?? process.stderr.isTTY === true
      const started = Date.now()
      const counters = {
        requests: BrokerHttpClient.metrics.requests,
        retries: BrokerHttpClient.metrics.retries,
        rateLimitWaits: BrokerHttpClient.metrics.rateLimitWaits
      }
      const totals = Effect.all({
        requests: metricTotal(counters.requests, options.endpoints),
        retries: metricTotal(counters.retries, options.endpoints),
        rateLimitWaits: metricTotal(counters.rateLimitWaits, options.endpoints)
      })
      // Metrics are process-wide: count from here.
      const baseline = yield* totals
      let records = 0
      let latest: number | undefined
      const snapshot = Effect.map(totals, (t): Snapshot => ({
        label: options.label,
        records,
        latest,
        elapsedMillis: Date.now() - started,
        requests: t.requests - baseline.requests,
        retries: t.retries - baseline.retries,
        rateLimitWaits: t.rateLimitWaits - baseline.rateLimitWaits
      }))
      if (live) {
        const draw = Effect.flatMap(snapshot, (s) =>
          Effect.sync(() => {
            const columns = process.stderr.columns > 0 ? process.stderr.columns : 120
            process.stderr.write(`\r\x1b[K${line(s).slice(0, Math.max(20, columns - 1))}`)
          }))
        yield* Effect.forkScoped(Effect.repeat(draw, Schedule.spaced("250 millis")))
        yield* Effect.addFinalizer(() =>
          Effect.flatMap(snapshot, (s) => Effect.sync(() => process.stderr.write(`\r\x1b[K${summary(s)}\n`)))
        )
      }
      return Progress.of({
        add: (n, time) =>
          Effect.sync(() => {
            records += n
            if (time !== undefined && (latest === undefined || time > latest)) latest = time
          }),
        snapshot
      })
    })
  )
