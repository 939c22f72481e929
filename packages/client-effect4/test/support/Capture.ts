/**
 * Captures everything a program writes to logs (every level) and spans (attributes and events), so
 * tests can search it for secrets: `@broker-history/testing/Capture` for Effect 4 (that one records
 * an Effect 3 program).
 */
import type { Captured, CapturedSpan } from "@broker-history/testing/Capture"
import { Cause, Layer, Logger, References, Tracer } from "effect"

export type { Captured, CapturedSpan } from "@broker-history/testing/Capture"

/** A logger and a tracer that record everything (all levels, all attributes and events). */
export const capture = () => {
  const captured: Captured = { logs: [], spans: [] }
  const logger = Logger.make(({ cause, fiber, logLevel, message }) => {
    captured.logs.push(
      JSON.stringify({
        level: logLevel,
        message,
        annotations: fiber.getRef(References.CurrentLogAnnotations),
        spans: fiber.getRef(References.CurrentLogSpans).map(([label]) => label),
        cause: cause.reasons.length === 0 ? "" : Cause.pretty(cause)
      })
    )
  })
  const tracer = Tracer.make({
    span({ annotations, kind, links, name, parent, sampled, startTime }) {
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
        annotations,
        status: { _tag: "Started", startTime },
        attributes,
        links,
        sampled,
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
    }
  })
  const layer = Layer.mergeAll(
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All"),
    Layer.succeed(Tracer.Tracer, tracer)
  )
  return { captured, layer }
}

/** Every text a failure shows: message, toString, JSON and the pretty cause. */
export const errorTexts = (error: unknown): Array<string> => {
  const e = error as { message?: unknown; toString(): string }
  return [String(e.message), e.toString(), JSON.stringify(error), Cause.pretty(Cause.fail(error))]
}

/** Everything captured plus every text of `errors`, as one text to search for secrets. */
export const haystack = (captured: Captured, errors: ReadonlyArray<unknown>): string =>
  [...captured.logs, ...captured.spans.map((s) => JSON.stringify(s)), ...errors.flatMap(errorTexts)].join("\n")
