// A transfer that starts PENDING and settles later, followed by `sync --follow`: stored once while
// pending, then updated in place to the status the service settles it with (the follower re-reads
// each stream's settlement window at every poll). The reference service settles a pending transfer
// at the first request after it is `after` old, as SUCCESS or, for a share of them, FAILED.
import type { Store } from "@broker-history/server"
import { PendingSettlement } from "@broker-history/testing/ServerInternals"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { cliEnv, spawn, until, useReferenceServer } from "./support/Harness.js"
import { subAccounts } from "./support/Scenario.js"
import { readTables } from "./support/Tables.js"

const after = 3_600_000
const { running, temp } = useReferenceServer({
  seed: { seed: 71, transfers: 400, deposits: 20, subAccounts: subAccounts.length },
  // Every pending transfer settles an hour after its time; half of them as FAILED.
  pendingSettlement: { after: "1 hour", failedShare: 0.5 }
})

/** A master→sub transfer, pending, with its time `at`. */
const pending = (at: number): Store.TransferRow => ({
  tranId: "97000000001",
  clientTranId: null,
  fromAccount: null,
  toAccount: subAccounts[0],
  asset: "USDT",
  amount: "42.00000000",
  fromAccountType: "SPOT",
  toAccountType: "FUTURES",
  fromSymbol: "",
  toSymbol: "",
  status: "PENDING",
  timestamp: at
})

describe("sync --follow: a transfer that starts PENDING", () => {
  it("is stored once while pending, then updated to the status it settles with", async () => {
    const db = Path.join(temp.dir, "pending.db")
    const env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "500" })
    const child = spawn(
      ["sync", "--db", db, "--sub-accounts", subAccounts.join(","), "--since", "7d", "--follow", "--interval", "1s"],
      env,
      120_000
    )
    await until(() => child.stdout().includes("caught up"), 60_000, "the catch-up")
    // Listed late (dated nearly an hour back, inside the settlement window) and due to settle 15 seconds
    // from now: the follower, re-reading its stream's settlement window every second, reads it pending first.
    const transfer = pending(Date.now() - after + 15_000)
    await running.run(running.server.store.insertTransfers([transfer]))
    const rows = async () => (await readTables(db)).transfers.filter((t) => t.tran_id === transfer.tranId)
    await until(async () => (await rows()).length > 0, 30_000, "the pending transfer")
    expect((await rows()).map((t) => t.status)).toEqual(["PENDING"])

    const settled = PendingSettlement.settledStatus(transfer.tranId, 0.5)
    await until(async () => (await rows())[0]?.status === settled, 60_000, `its settled status ${settled}`)
    // Updated in place: one row, every other column as it was.
    const [row] = await rows()
    expect(await rows()).toHaveLength(1)
    expect(row).toMatchObject({ amount: "42.00000000", to_account: subAccounts[0], timestamp: transfer.timestamp })
    expect((await running.run(running.server.store.allTransfers())).find((t) => t.tranId === transfer.tranId)?.status)
      .toBe(settled)
    child.process.kill("SIGTERM")
    const done = await child.done
    expect(done.stderr).toBe("")
    expect(done.code).toBe(0)
  }, 120_000)
})
