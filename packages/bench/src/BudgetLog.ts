/**
 * The client budget's debug log lines in a benchmark run (the saturation part's `logCuts`): every
 * refusal the budget counted, with its evidence and the level before and after, and every raise of
 * the level by an acceptance, kept by a logger and written as lines against the transport's record.
 *
 * @since 0.2.0
 */
import * as HashMap from "effect/HashMap"
import * as Logger from "effect/Logger"

/**
 * What the client's budget logged of one refusal or raise (its debug log lines), `at` the time of the
 * log line.
 *
 * @example
 * import type * as BudgetLog from "@broker-history/bench/BudgetLog"
 * const level = (e: BudgetLog.Event) => e.annotations["level"]
 */
export interface Event {
  readonly at: number
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/**
 * A logger that keeps the client budget's debug lines (refusals counted, raises of the level) in
 * `events` and drops every other line.
 *
 * @example
 * import * as BudgetLog from "@broker-history/bench/BudgetLog"
 * import { Logger } from "effect"
 * const events: Array<BudgetLog.Event> = []
 * const layer = Logger.replace(Logger.defaultLogger, BudgetLog.logger(events))
 */
export const logger = (events: Array<Event>) =>
  Logger.make(({ annotations, date, message }) => {
    const text = Array.isArray(message) ? message.join(" ") : String(message)
    if (text.startsWith("broker rate limit")) {
      events.push({
        at: date.getTime(),
        message: text,
        annotations: Object.fromEntries(HashMap.toEntries(annotations))
      })
    }
  })

const level = (n: unknown) =>
  typeof n === "number" ? (Number.isFinite(n) ? String(Math.round(n * 100) / 100) : "bound") : "?"

/**
 * The budget's events of one run as lines, times in seconds after the run's first request; with each
 * refusal, what the transport's record shows: the requests answered other than 429 that started
 * within one interval (and one interval plus the margin) before the refused one.
 *
 * @example
 * import * as BudgetLog from "@broker-history/bench/BudgetLog"
 * BudgetLog.describe([], [{ started: 0, answered: 150, status: 200 }], 1000, 25) // []
 */
export const describe = (
  events: ReadonlyArray<Event>,
  signed: ReadonlyArray<{ readonly started: number; readonly status: number }>,
  intervalMillis: number,
  marginMillis: number
): Array<string> => {
  const first = Math.min(...signed.map((e) => e.started))
  const s = (t: unknown) => typeof t === "number" ? ((t - first) / 1000).toFixed(3) : "?"
  const acceptedWithin = (sentAt: number, span: number) =>
    signed.filter((e) => e.status !== 429 && e.started < sentAt && e.started >= sentAt - span).length
  return events.map((e) => {
    const a = e.annotations
    if (e.message.endsWith("raised")) {
      return `${s(e.at)} s raised by an acceptance (sent ${s(a["sentAt"])} s): accepted most ${
        a["acceptedMost"]
      }, level ${level(a["levelBefore"])} -> ${level(a["level"])}`
    }
    const sentAt = a["sentAt"] as number
    return `${s(a["at"])} s refused${a["cut"] === true ? ", cut" : ""} (sent ${s(sentAt)} s): before it ${
      a["sentBefore"]
    }, accepted most ${a["acceptedMost"]}; level ${level(a["levelBefore"])} -> ${level(a["level"])}, allowed ${
      level(a["allowedBefore"])
    } -> ${level(a["allowed"])}, spread ${a["spreadMillis"]} ms; transport: accepted ${
      acceptedWithin(sentAt, intervalMillis)
    } in the interval before it, ${
      acceptedWithin(sentAt, intervalMillis + marginMillis)
    } in the interval + ${marginMillis} ms`
  })
}
