/**
 * The reference service for the behavioural suite, behind promises: it runs on its own Effect 3
 * runtime whichever line is under test, and hands the tests plain data only.
 */
import type { Faults, Store } from "@broker-history/server"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import { Effect, ManagedRuntime } from "effect"
import type { Settings } from "./Line.js"

/** A running service: its address, what it holds and its counters. */
export interface Service {
  readonly baseUrl: string
  readonly port: number
  readonly allTransfers: (filter?: Store.TransferFilter) => Promise<ReadonlyArray<Store.TransferRow>>
  readonly allDeposits: () => Promise<ReadonlyArray<Store.DepositRow>>
  readonly allSubAccounts: () => Promise<ReadonlyArray<Store.SubAccountRow>>
  readonly insertTransfers: (rows: ReadonlyArray<Store.TransferRow>) => Promise<void>
  /** Sets the status of stored transfers, as pending ones settle. */
  readonly settleTransfers: (
    settled: ReadonlyArray<{ readonly tranId: string; readonly status: string }>
  ) => Promise<void>
  readonly createSubAccount: (subAccount: ReferenceServer.NewSubAccount) => Promise<void>
  readonly setFaults: (faults: Faults.FaultOptions) => Promise<void>
  readonly stats: () => Promise<ReferenceServer.Stats>
}

/** A service started by `startReferenceService`, to be stopped by whoever started it. */
export interface Running extends Service {
  /** Stops the service: its port closed, its connections dropped, its database closed. */
  readonly stop: () => Promise<void>
}

/**
 * Starts a reference service on 127.0.0.1 (a limiter far above the tests' rates unless `options`
 * says otherwise), for a test that stops it and starts it again itself.
 */
export const startReferenceService = async (options: ReferenceServer.Options): Promise<Running> => {
  const runtime = ManagedRuntime.make(
    ReferenceServer.layer({ rateLimit: { limit: 100_000, window: "1 second" }, ...options })
  )
  try {
    const server = await runtime.runPromise(ReferenceServer.ReferenceServer)
    const run = <B, E>(effect: Effect.Effect<B, E>) => runtime.runPromise(effect)
    return {
      baseUrl: server.baseUrl,
      port: server.port,
      allTransfers: (filter) => run(server.store.allTransfers(filter)),
      allDeposits: () => run(server.store.allDeposits()),
      allSubAccounts: () => run(server.store.allSubAccounts()),
      insertTransfers: (rows) => run(server.store.insertTransfers(rows)),
      settleTransfers: (settled) => run(server.store.settleTransfers(settled)),
      createSubAccount: (subAccount) => run(Effect.asVoid(server.createSubAccount(subAccount))),
      setFaults: (faults) => run(server.setFaults(faults)),
      stats: () => run(server.stats),
      stop: () => runtime.dispose()
    }
  } catch (error) {
    await runtime.dispose()
    throw error
  }
}

/** Runs `use` with a reference service (see `startReferenceService`), stopped afterwards whatever happens. */
export const withReferenceService = async <A>(
  options: ReferenceServer.Options,
  use: (service: Service) => Promise<A>
): Promise<A> => {
  const service = await startReferenceService(options)
  try {
    return await use(service)
  } finally {
    await service.stop()
  }
}

/**
 * The client settings for `service`: the demo key, a budget far below the service's limiter and
 * fast retries, so the suite spends its time reading; `overrides` replace any of it.
 */
export const clientSettings = (service: Service, overrides: Partial<Settings> = {}): Settings => ({
  baseUrl: service.baseUrl,
  apiKey: ApiKeys.demo.apiKey,
  secretKey: ApiKeys.demo.secretKey,
  rateLimit: { limit: 5000, interval: "1 second" },
  retry: { maxRetries: 8, baseDelay: "5 millis", maxDelay: "50 millis" },
  ...overrides
})

/** The master account's SPOT → FUTURES transfers: the query the suite reads, and the service's filter for it. */
export const spotToFutures = {
  query: { fromAccountType: "SPOT", toAccountType: "FUTURES" },
  filter: { fromAccount: null, toAccount: null, fromAccountType: "SPOT", toAccountType: "FUTURES" }
} as const

/**
 * A SPOT → FUTURES transfer as the service stores it: id `tranId`, at `timestamp`, from the master to
 * `toAccount` (null: the master's own).
 */
export const transferRow = (tranId: number, timestamp: number, toAccount: string | null = null): Store.TransferRow => ({
  tranId: String(tranId),
  clientTranId: null,
  fromAccount: null,
  toAccount,
  asset: "USDT",
  amount: `${tranId}.10000000`,
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp
})
