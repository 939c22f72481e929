/**
 * The reference service's request log (`--log`): one line per request, written when it is answered.
 * Pure: values in, values out.
 *
 * @since 0.2.0
 */

/** A request line of the service's log: when it was logged, the path, the status and the duration. */
const requestLine = /^(\S+) INFO GET (\S+) (\d{3}) (\d+)ms$/

/**
 * A request from its line of the service's log: its path, its status, when it was answered (the
 * line's time) and when it arrived (less the answer's duration), real ms; `undefined` for any other
 * line.
 *
 * @example
 * import * as ServiceLog from "@broker-history/bench/ServiceLog"
 * ServiceLog.request("1970-01-01T00:00:01.000Z INFO GET /api/v3/time 200 2ms")
 * // { path: "/api/v3/time", status: 200, answeredAt: 1000, arrivedAt: 998 }
 *
 * @since 0.2.0
 * @category parsing
 */
export const request = (
  line: string
):
  | { readonly path: string; readonly status: number; readonly answeredAt: number; readonly arrivedAt: number }
  | undefined =>
{
  const match = requestLine.exec(line)
  if (match === null) return undefined
  const answeredAt = Date.parse(match[1]!)
  return { path: match[2]!, status: Number(match[3]), answeredAt, arrivedAt: answeredAt - Number(match[4]) }
}

/**
 * A broker request from its line of the service's log: when it was answered (the line's time) and
 * when it arrived (less the answer's duration), real ms; `undefined` for any other line.
 *
 * @example
 * import * as ServiceLog from "@broker-history/bench/ServiceLog"
 * ServiceLog.brokerRequest("1970-01-01T00:00:01.000Z INFO GET /api/v3/broker/sub-account/universalTransfer 200 5ms")
 * // { answeredAt: 1000, arrivedAt: 995 }
 */
export const brokerRequest = (
  line: string
): { readonly answeredAt: number; readonly arrivedAt: number } | undefined => {
  const parsed = request(line)
  return parsed === undefined || !parsed.path.includes("/broker/")
    ? undefined
    : { answeredAt: parsed.answeredAt, arrivedAt: parsed.arrivedAt }
}

/**
 * When the service received a signed request (real ms), from its log line; `undefined` for any
 * other line.
 *
 * @example
 * import * as ServiceLog from "@broker-history/bench/ServiceLog"
 * ServiceLog.arrivalOf("1970-01-01T00:00:01.000Z INFO GET /api/v3/broker/sub-account/universalTransfer 200 5ms") // 995
 */
export const arrivalOf = (line: string): number | undefined => brokerRequest(line)?.arrivedAt
