/**
 * Captures everything a program writes to logs (every level) and spans (attributes and events), so
 * tests can search it for secrets.
 *
 * @since 0.1.0
 */
import { Cause, Layer, Logger, LogLevel, Tracer } from "effect"

/**
 * Everything a program wrote to logs and spans, as text to search.
 *
 * @example
 * import type { Captured } from "@broker-history/testing/Capture"
 * const texts = (c: Captured) => [...c.logs, ...c.spans.map((s) => JSON.stringify(s))]
 */
export interface Captured {
  readonly logs: Array<string>
  readonly spans: Array<CapturedSpan>
}

/**
 * One span as recorded: name, kind, its parent's name (when the parent is a span of this program),
 * attributes, and events (the end, with its exit, is the last).
 *
 * @example
 * import type { CapturedSpan } from "@broker-history/testing/Capture"
 * const children = (spans: ReadonlyArray<CapturedSpan>, name: string) => spans.filter((s) => s.parent === name)
 */
export interface CapturedSpan {
  readonly name: string
  readonly kind: string
  readonly parent: string | undefined
  readonly attributes: Record<string, unknown>
  readonly events: Array<string>
  ended: boolean
}

/**
 * A logger and a tracer that record everything (all levels, all attributes and events).
 *
 * @example
 * import { capture } from "@broker-history/testing/Capture"
 * import { Effect } from "effect"
 * const { captured, layer } = capture()
 * Effect.runSync(Effect.logDebug("hello").pipe(Effect.provide(layer)))
 * captured.logs.length // 1
 */
export const capture = () => {
  const captured: Captured = { logs: [], spans: [] }
  const logger = Logger.make(({ annotations, cause, logLevel, message, spans }) => {
    captured.logs.push(
      JSON.stringify({
        level: logLevel.label,
        message,
        annotations: Object.fromEntries(annotations),
        spans: [...spans].map((s) => s.label),
        cause: Cause.isEmpty(cause) ? "" : Cause.pretty(cause, { renderErrorCause: true })
      })
    )
  })
  const tracer = Tracer.make({
    span(name, parent, context, links, startTime, kind) {
      const record: CapturedSpan = {
        name,
        kind,
        parent: parent._tag === "Some" && parent.value._tag === "Span" ? parent.value.name : undefined,
        attributes: {},
        events: [],
        ended: false
      }
      const attributes = new Map<string, unknown>()
      captured.spans.push(record)
      const span: Tracer.Span = {
        _tag: "Span",
        name,
        spanId: Math.random().toString(16).slice(2),
        traceId: "trace",
        parent,
        context,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled: true,
        kind,
        end(endTime, exit) {
          ;(span as any).status = { _tag: "Ended", startTime, endTime, exit }
          record.events.push(`end ${JSON.stringify(exit)}`)
          record.ended = true
        },
        attribute(key, value) {
          attributes.set(key, value)
          record.attributes[key] = value
        },
        event(eventName, _time, attributes) {
          record.events.push(`${eventName} ${JSON.stringify(attributes ?? {})}`)
        },
        addLinks() {}
      }
      return span
    },
    context: (f) => f()
  })
  const layer = Layer.mergeAll(
    Logger.replace(Logger.defaultLogger, logger),
    Logger.minimumLogLevel(LogLevel.All),
    Layer.setTracer(tracer)
  )
  return { captured, layer }
}

/**
 * Every text a failure shows: message, toString, JSON and the pretty cause.
 *
 * @example
 * import { errorTexts } from "@broker-history/testing/Capture"
 * errorTexts(new Error("boom")).some((t) => t.includes("boom")) // true
 */
export const errorTexts = (error: unknown): Array<string> => {
  const e = error as { message?: unknown; toString(): string }
  return [String(e.message), e.toString(), JSON.stringify(error), Cause.pretty(Cause.fail(error))]
}

/**
 * Everything captured plus every text of `errors`, as one text to search for secrets.
 *
 * @example
 * import { capture, haystack } from "@broker-history/testing/Capture"
 * const { captured } = capture()
 * haystack(captured, [new Error("boom")]).includes("boom") // true
 */
export const haystack = (captured: Captured, errors: ReadonlyArray<unknown>): string =>
  [...captured.logs, ...captured.spans.map((s) => JSON.stringify(s)), ...errors.flatMap(errorTexts)].join("\n")
