/**
 * The service's log lines as text: one per request (method, path, outcome, duration), never a query
 * string, and the sub-account names in a line that stays readable.
 *
 * @internal
 */
import * as RawQuery from "../RawQuery.js"

/**
 * A request's path for the log: never its query string; control and non-ASCII characters escaped so
 * that a hostile path cannot forge log lines.
 */
export const loggablePath = (url: string): string => {
  const path = RawQuery.pathOfUrl(url)
  const shown = path.length > 200 ? path.slice(0, 200) + "..." : path
  return shown.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))
}

/** `GET /api/v3/ping 200 1ms`: the line of one request. */
export const requestLine = (method: string, url: string, outcome: string | number, elapsedMs: number): string =>
  `${method} ${loggablePath(url)} ${outcome} ${Math.round(elapsedMs)}ms`

/** A few names in full, more as the first and the last: the log line stays one readable line. */
export const compactList = (names: ReadonlyArray<string>): string =>
  names.length === 0
    ? "none"
    : `${names.length <= 3 ? names.join(", ") : `${names[0]} … ${names[names.length - 1]}`} (${names.length})`
