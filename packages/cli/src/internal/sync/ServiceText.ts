/**
 * Text that came from the service (a sub-account's name or note), made safe to print on a line of
 * the command's output: characters that could drive a terminal, split a line or reorder it escaped as
 * `\uXXXX`, and the text cut short.
 *
 * @internal
 */

/**
 * C0 and C1 controls (ESC, CR, LF, CSI, …), DEL, the line and paragraph separators, and the
 * bidirectional overrides and isolates: what could drive a terminal, split a line or reorder it.
 */
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

/** Text from the service as one printable line: unsafe characters escaped (`\u001b`), at most `max` characters. */
export const printable = (text: string, max: number): string => {
  const escaped = text.slice(0, max + 1).replace(unsafe, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped
}
