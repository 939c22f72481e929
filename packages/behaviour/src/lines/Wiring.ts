/**
 * The part of an adapter that is the same on every line: the suite's `Client` over a line's
 * `BrokerHistory` service, given how the line runs one of its effects (`call`) and collects one of
 * its streams (`collect`), and which of the line's layers the settings ask for (`layerFor`). Queries
 * go to the line as the tests give them (sometimes wrong on purpose): the line checks them.
 */
import type { Call, Client, Outcome, ProxySetting, Run, Settings, Transport } from "../Line.js"
import { success } from "../Line.js"

/** A line's `BrokerHistory` service as the wiring sees it: `E` its effects, `S` its streams. */
export interface History<E, S> {
  readonly transferHistory: (query: never) => E
  readonly depositHistory: (query: never) => E
  readonly subAccountList: (query: never) => E
  readonly transfers: (query: never) => S
  readonly deposits: (query: never) => S
  readonly transferChanges: (query: never) => S
  readonly depositChanges: (query: never) => S
  readonly followTransfers: (streams: never, options: never) => S
  readonly subAccounts: (options: never) => S
  readonly availability: E
  readonly incomplete: E
}

/** The suite's client over `history`; `rest`: what the line reads its own way (its metrics, its logs). */
export const clientOf = <E, S>(
  history: History<E, S>,
  call: (effect: E, options?: Call) => Promise<Outcome<any>>,
  collect: (stream: S, run?: Run<any>) => Promise<Outcome<any>>,
  rest: Pick<Client, "incompleteCounter" | "logs">
): Client => ({
  transferHistory: (query, options) => call(history.transferHistory(query as never), options),
  depositHistory: (query, options) => call(history.depositHistory(query as never), options),
  subAccountList: (query, options) => call(history.subAccountList(query as never), options),
  transfers: (query, run) => collect(history.transfers(query as never), run),
  deposits: (query, run) => collect(history.deposits(query as never), run),
  transferChanges: (query, run) => collect(history.transferChanges(query as never), run),
  depositChanges: (query, run) => collect(history.depositChanges(query as never), run),
  followTransfers: (streams, options, run) => collect(history.followTransfers(streams as never, options as never), run),
  subAccounts: (options, run) => collect(history.subAccounts(options as never), run),
  availability: async () => success(await call(history.availability)),
  incomplete: async () => success(await call(history.incomplete)),
  ...rest
})

/** How a line builds its layer in each of the ways `Settings` ask for; `L` the line's layer. */
export interface Builds<L> {
  /** Over `transport`, as the line has it. */
  readonly transport: (transport: Transport) => L
  /** `BrokerHistory.layerConfig()`, with `variables` as its only config source. */
  readonly layerConfig: (variables: Readonly<Record<string, string>>) => L
  /** `NodeTransport.layerProxy(proxy, variables)`. */
  readonly layerProxy: (proxy: ProxySetting, variables: Readonly<Record<string, string | undefined>>) => L
  /** The platform client over undici over `NodeTransport.layerDispatcher(proxy, variables)`. */
  readonly platformProxy: (proxy: ProxySetting, variables: Readonly<Record<string, string | undefined>>) => L
}

/** The layer `settings` ask for: `layerConfig()`, a Node transport through `proxy`, or the transport. */
export const layerFor = <L>(settings: Settings, defaultTransport: Transport, builds: Builds<L>): L => {
  const { layerConfig, proxy, proxyVariables = process.env, transport = defaultTransport } = settings
  if (layerConfig !== undefined) return builds.layerConfig(layerConfig)
  if (proxy === undefined) return builds.transport(transport)
  switch (transport) {
    case "undici":
      return builds.layerProxy(proxy, proxyVariables)
    case "platformUndici":
      return builds.platformProxy(proxy, proxyVariables)
    default:
      throw new Error(`a proxy is for the Node transports, not ${transport}`)
  }
}
