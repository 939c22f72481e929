/**
 * Text that came from the service (a refusal's `msg`, a body's start, a `Location`, a transport
 * failure's description), made safe to put in a message, a log line or a span: control characters
 * replaced, so a malicious service cannot drive the terminal or split a log line, and cut short, so a
 * 5 MB message is not printed whole.
 *
 * @internal
 */

/** Most characters of server text kept (UTF-16 code units), before the ellipsis. */
export const maxLength = 300

/** What a control character is replaced with. */
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
 */
export const sanitize = (text: string, max: number = maxLength): string => {
  if (text.length <= max) return text.replace(unsafe, replacement)
  let end = max
  const last = text.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return text.slice(0, end).replace(unsafe, replacement) + "…"
}
