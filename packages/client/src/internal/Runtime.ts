/**
 * Which runtime this is, as the ready layers choose their transport (`BrokerHistory.layerUndici`,
 * `layerConfig`: undici on Node, fetch on Bun and Deno), and what they say when the runtime cannot
 * carry what was asked for.
 *
 * @internal
 */

const versions = (): Record<string, string | undefined> | undefined =>
  (globalThis as { readonly process?: { readonly versions?: Record<string, string | undefined> } }).process?.versions

const onDeno = (): boolean => (globalThis as { readonly Deno?: unknown }).Deno !== undefined

/** Whether this is Node itself (Bun and Deno carry `process.versions.node` too, with an undici that does not work). */
export const onNode = (): boolean => {
  const v = versions()
  return v?.node !== undefined && v.bun === undefined && v.deno === undefined && !onDeno()
}

/** The runtime's name, when it is not Node. */
export const name = (): string => {
  const v = versions()
  return v?.bun !== undefined ? "Bun" : v?.deno !== undefined || onDeno() ? "Deno" : "not Node"
}

/** Why `BrokerHistory.layerUndici` refuses this runtime. */
export const undiciElsewhere = (): string =>
  `BrokerHistory.layerUndici needs Node's undici, and this is ${name()}: use BrokerHistory.layerConfig() ` +
  `(it picks fetch here) or BrokerHistory.layer with FetchHttpClient.layer`

/** Why a proxy URL (the `variable`) is refused on this runtime. */
export const proxyElsewhere = (variable: string): string =>
  `${variable} names a proxy, which only the Node transport can use, and this is ${name()}: set the ` +
  `runtime's own proxy variables (HTTPS_PROXY) instead, or leave ${variable} unset`

/** The defect of a Node transport module that did not load; `needs` is what it takes besides Node. */
export const transportNotLoaded = (cause: unknown, needs: string): Error =>
  new Error(
    `BrokerHistory could not load the Node transport (${
      String((cause as Error | undefined)?.message ?? cause).split("\n")[0]
    }): it needs Node${needs}; elsewhere use BrokerHistory.layer with FetchHttpClient.layer`,
    { cause }
  )
