// Two broker keys of one reference service as a profiles file (acme: the demo key, master↔sub for two
// sub-accounts; globex: a second key, one sub→sub pair and one SPOT→FUTURES route), and each
// profile's expected rows.
import type { Store } from "@broker-history/server"
import { ApiKeys } from "@broker-history/server"
import { expect } from "vitest"
import * as Columns from "../../src/internal/sync/store/Columns.js"
import type { Running } from "./Harness.js"
import { cliEnv, expectedDepositRows, normalize, transferOf } from "./Harness.js"
import { subAccounts } from "./Scenario.js"
import { readTables } from "./Tables.js"

/** The second key the service accepts (start it with `keys: [ApiKeys.demo, secondKey]`). */
export const secondKey: ApiKeys.ApiKey = {
  apiKey: "mx0vglSECONDKEY000000000000000000",
  secretKey: "0123456789abcdef0123456789abcdef",
  permissions: ApiKeys.permissions
}

/** The child's environment: both keys in their own variables, and no single key. */
export const profilesEnv = (baseUrl: string, overrides: Record<string, string> = {}) => {
  const { BROKER_API_KEY: _, BROKER_SECRET_KEY: __, ...env } = cliEnv(baseUrl, {
    BROKER_RATE_LIMIT: "200",
    ACME_API_KEY: ApiKeys.demo.apiKey,
    ACME_SECRET_KEY: ApiKeys.demo.secretKey,
    GLOBEX_API_KEY: secondKey.apiKey,
    GLOBEX_SECRET_KEY: secondKey.secretKey,
    ...overrides
  })
  return env
}

export const profilesYaml = `profiles:
  - name: acme
    apiKeyEnv: ACME_API_KEY
    secretKeyEnv: ACME_SECRET_KEY
    subAccounts: [${subAccounts[0]}, ${subAccounts[1]}]
    rateLimit: { limit: 100, interval: 1s }
  - name: globex
    apiKeyEnv: GLOBEX_API_KEY
    secretKeyEnv: GLOBEX_SECRET_KEY
    pairs:
      - ${subAccounts[2]} ${subAccounts[3]}
      - "- ${subAccounts[0]} SPOT FUTURES"
    rateLimit: { limit: 100, interval: 1s }
`

export const acmeRoutes = (t: Store.TransferRow) =>
  (t.fromAccount === null && (t.toAccount === null || t.toAccount === subAccounts[0] ||
    t.toAccount === subAccounts[1])) ||
  (t.toAccount === null && (t.fromAccount === subAccounts[0] || t.fromAccount === subAccounts[1]))

export const globexRoutes = (t: Store.TransferRow) =>
  (t.fromAccount === subAccounts[2] && t.toAccount === subAccounts[3]) ||
  (t.fromAccount === null && t.toAccount === subAccounts[0] && t.fromAccountType === "SPOT" &&
    t.toAccountType === "FUTURES")

/** One profile's tables equal the service's records of its routes from `since`, and all its deposits. */
export const expectProfile = async (
  running: Running,
  db: string,
  profile: string,
  routes: (t: Store.TransferRow) => boolean,
  since: number
) => {
  const tables = await readTables(db, profile)
  const transfers = (await running.run(running.server.store.allTransfers()))
    .filter((t) => routes(t) && t.timestamp >= since)
    .map((t) => normalize(Columns.transferRow(transferOf(t))))
  const deposits = expectedDepositRows(await running.run(running.server.store.allDeposits()), since)
  expect(transfers.length).toBeGreaterThan(0)
  expect(tables.transfers.map((t) => t.tran_id).sort()).toEqual(transfers.map((t) => t.tran_id).sort())
  expect(tables.deposits).toEqual(deposits)
  return tables
}
