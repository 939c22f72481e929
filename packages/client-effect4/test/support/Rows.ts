// Transfer rows as the reference service stores them (`Store.TransferRow`), for integration tests
// that add records to its store: the master's own SPOT → FUTURES transfers, or to `toAccount`.
import type { Store } from "@broker-history/server"

/** Transfer `tranId` at `timestamp`, from the master (null) to `toAccount` (null: the master too). */
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
