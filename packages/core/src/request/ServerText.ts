/**
 * Text that came from the service (a refusal's `msg`, a body's start, a `Location`, a transport
 * failure's description), made safe to put in a message, a log line or a span: control characters
 * replaced, so a malicious service cannot drive the terminal or split a log line, and cut short, so a
 * 5 MB message is not printed whole.
 *
 * @since 0.2.0
 */

/**
 * Most characters of server text kept (UTF-16 code units), before the ellipsis.
 *
 * @example
 * ```ts
 * import * as ServerText from "@broker-history/core/request/ServerText"
 *
 * assert.strictEqual(ServerText.sanitize("x".repeat(1000)).length, ServerText.maxLength + 1)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const maxLength = 300

/**
 * What a control character is replaced with.
 *
 * @example
 * ```ts
 * import * as ServerText from "@broker-history/core/request/ServerText"
 *
 * assert.strictEqual(ServerText.sanitize("a\nb"), `a${ServerText.replacement}b`)
 * ```
 *
 * @since 0.2.0
 * @category constants
 */
export const replacement = "\uFFFD"

/**
 * C0 controls (ESC, CR, LF, BEL, TAB, …), DEL and C1 controls (CSI U+009B among them, which some
 * terminals obey), the line and paragraph separators (a line break to JavaScript, many log viewers and
 * editors), and the bidirectional embeddings, overrides and isolates (which reorder what a reader sees).
 */
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/**
 * `text` with every unsafe character replaced by U+FFFD and, when longer than `max`, its first `max`
 * characters (a surrogate pair is never split) followed by `…`. Only the kept part is scanned, so the
 * cost does not grow with `text`.
 *
 * @example
 * ```ts
 * import * as ServerText from "@broker-history/core/request/ServerText"
 *
 * assert.strictEqual(ServerText.sanitize("bad\u001b[2J key"), "bad\uFFFD[2J key")
 * assert.strictEqual(ServerText.sanitize("abcdef", 3), "abc…")
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const sanitize = (text: string, max: number = maxLength): string => {
  if (text.length <= max) return text.replace(unsafe, replacement)
  let end = max
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(0, end).replace(unsafe, replacement) + "…"
}

/**
 * What a value from the service is, in a few words, never rendered whole: its kind, an array's
 * length, up to three field names of an object, the start of a text; every part made safe with
 * `sanitize`. For error messages about a value that is not what was expected.
 *
 * @example
 * ```ts
 * import * as ServerText from "@broker-history/core/request/ServerText"
 *
 * assert.strictEqual(ServerText.summary([1, 2]), "an array of 2 elements")
 * assert.strictEqual(ServerText.summary({ a: 1, b: 2, c: 3, d: 4 }), "an object with fields a, b, c, …")
 * assert.strictEqual(ServerText.summary("x".repeat(100)), `text "${"x".repeat(40)}…"`)
 * ```
 *
 * @since 0.2.0
 * @category utils
 */
export const summary = (u: unknown): string => {
  if (u === null) return "null"
  if (u === undefined) return "nothing"
  if (Array.isArray(u)) return `an array of ${u.length} ${u.length === 1 ? "element" : "elements"}`
  if (typeof u === "string") return `text ${JSON.stringify(sanitize(u, 40))}`
  if (typeof u === "object") {
    const names: Array<string> = []
    let more = false
    for (const name in u) {
      if (names.length === 3) {
        more = true
        break
      }
      names.push(sanitize(name, 40))
    }
    return names.length === 0
      ? "an empty object"
      : `an object with fields ${names.join(", ")}${more ? ", …" : ""}`
  }
  return sanitize(String(u), 40)
}
