/**
 * Rows for tests that write the reference service's store directly: a transfer with every column
 * filled, chosen by its id and time, any other column overridden.
 */
import type { Store } from "../../src/index.js"

/** A SPOT → FUTURES transfer of 1 USDT from the master to `sub@x`, with `overrides` applied. */
export const transferRow = (
  tranId: string,
  timestamp: number,
  overrides: Partial<Store.TransferRow> = {}
): Store.TransferRow => ({
  tranId,
  clientTranId: null,
  fromAccount: null,
  toAccount: "sub@x",
  asset: "USDT",
  amount: "1.00000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "SUCCESS",
  timestamp,
  ...overrides
})
