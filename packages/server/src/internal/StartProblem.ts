/**
 * What a start failure's cause says, in a sentence: the innermost message of the cause chain, and for
 * a socket that could not listen, the usual Node error codes in words with what to do about each.
 *
 * @internal
 */

// The platform wraps Node's error (ServeError, whose own message is empty): the detail sits at the
// end of the `cause` chain.
const causeChain = (cause: unknown): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  for (let at = cause; at !== undefined && at !== null && chain.length < 10; at = (at as { cause?: unknown }).cause) {
    chain.push(at)
    if (typeof at !== "object") break
  }
  return chain
}

/** The last non-empty message along the `cause` chain, else the cause as text. */
export const innermostMessage = (cause: unknown): string => {
  const messages = causeChain(cause).map((c) => c instanceof Error ? c.message : typeof c === "object" ? "" : String(c))
    .filter((m) => m !== "")
  return messages.at(-1) ?? String(cause)
}

/** Why a socket could not listen, and which flag to change. */
export const listenProblem = (cause: unknown): string => {
  const code = causeChain(cause).map((c) => (c as { code?: unknown } | null)?.code).find((c) => typeof c === "string")
  switch (code) {
    case "EADDRINUSE":
      return "the address is already in use (EADDRINUSE); choose another --port or stop the process using it"
    case "EACCES":
      return "permission denied (EACCES); ports below 1024 need privileges: choose another --port"
    case "EADDRNOTAVAIL":
      return "the address is not one of this machine's (EADDRNOTAVAIL); choose another --host, such as 127.0.0.1"
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host name does not resolve (${code}); choose another --host, such as 127.0.0.1`
    default:
      return innermostMessage(cause)
  }
}
