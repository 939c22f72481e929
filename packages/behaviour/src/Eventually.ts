/**
 * Waiting for something a test cannot be told about (a request hanging, a record arriving, sockets
 * closing): polled, with a bound for a hung test rather than a time asserted.
 */

/**
 * Polls `check` every 10 ms until `holds` says yes, and returns what it saw last; fails naming `what`
 * (and that last value) if it has not held within `withinMillis`.
 */
export const eventually = async <A>(
  what: string,
  check: () => A | Promise<A>,
  holds: (a: A) => boolean,
  withinMillis = 15_000
): Promise<A> => {
  const deadline = Date.now() + withinMillis
  for (;;) {
    const last = await check()
    if (holds(last)) return last
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${withinMillis} ms (last seen: ${JSON.stringify(last)})`)
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
