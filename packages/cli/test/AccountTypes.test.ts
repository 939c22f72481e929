// The exchange's account-type vocabulary on the command line: any word is sent in upper case (the
// spelling the exchange's pages use, FUTURE included), one outside the documented set after a single
// warning line on stderr, and the service judges it (its refusal is the command's failure, with the
// service's message). Every request is seen through a recording proxy: the exact spellings sent.
import { Endpoint } from "@broker-history/domain"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cli, cliEnv, useReferenceServer } from "./support/Harness.js"
import type { Proxy } from "./support/Polls.js"
import { recordingProxy } from "./support/Polls.js"
import { subAccounts } from "./support/Scenario.js"
import { readCheckpointRows } from "./support/Tables.js"

// The service spells the futures type as the exchange's broker example does, and accepts SPOT and FUTURE only.
const { running, temp } = useReferenceServer({
  seed: { seed: 41, transfers: 600, deposits: 50, subAccounts: subAccounts.length },
  futuresAccountType: "FUTURE"
})

let proxy: Proxy
beforeAll(async () => {
  proxy = await recordingProxy(running.server.baseUrl)
})
afterAll(() => proxy.close())

const env = () => cliEnv(proxy.baseUrl, { BROKER_RATE_LIMIT: "500" })

/** The account-type pairs of the transfer-history requests sent from request `from` on. */
const typesSent = (from: number) =>
  new Set(
    proxy.requests.slice(from).filter((r) => r.path === Endpoint.transferHistory.path).map((r) =>
      `${r.params.get("fromAccountType")}→${r.params.get("toAccountType")}`
    )
  )

const warning = (what: string) =>
  `broker-history: ${what} is not an account type the exchange documents (SPOT, FUTURES, FUTURE, ISOLATED_MARGIN): ` +
  "it is sent as written, and the service accepts or refuses it\n"

describe("account types", () => {
  it("sync --account-types spot,future: FUTURE as the broker endpoint spells it, no warning, exit 0", async () => {
    const db = Path.join(temp.dir, "future.db")
    const from = proxy.requests.length
    const result = await cli(
      ["sync", "--db", db, "--sub-accounts", subAccounts[0], "--account-types", "spot,future", "--since", "30d"],
      env()
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(typesSent(from)).toEqual(new Set(["SPOT→SPOT", "SPOT→FUTURE", "FUTURE→SPOT", "FUTURE→FUTURE"]))
    for (const row of await readCheckpointRows(db)) expect(row.stream).not.toContain("future")
  }, 60_000)

  it(
    "sync: an undocumented type is sent as written after one warning line; the service's refusal fails the sync",
    async () => {
      const db = Path.join(temp.dir, "margin.db")
      const from = proxy.requests.length
      const result = await cli(
        ["sync", "--db", db, "--sub-accounts", subAccounts[0], "--account-types", "spot,margin", "--since", "30d"],
        env()
      )
      const [first, ...rest] = result.stderr.split(/(?<=\n)/)
      expect(first).toBe(warning("MARGIN (--account-types)"))
      // This service knows SPOT and FUTURE only: it refuses, and says so.
      expect(result.code).toBe(1)
      expect(rest.join("")).toMatch(/^broker-history: .* was refused by the service \(400 .*AccountType must be/)
      expect([...typesSent(from)].some((t) => t.includes("MARGIN"))).toBe(true)
      expect([...typesSent(from)].some((t) => /margin/.test(t))).toBe(false)
    },
    60_000
  )

  it("a pairs file's undocumented type: warned once with the file named", async () => {
    const db = Path.join(temp.dir, "pairs-margin.db")
    const file = Path.join(temp.dir, "pairs-margin.txt")
    Fs.writeFileSync(file, `- ${subAccounts[0]} spot earn\n- ${subAccounts[1]} earn spot\n`)
    const result = await cli(["sync", "--db", db, "--pairs", file, "--since", "30d"], env())
    expect(result.stderr.split(/(?<=\n)/)[0]).toBe(warning(`EARN (--pairs ${file})`))
    expect(result.code).toBe(1)
  }, 60_000)

  it(
    "transfers --from-account-type: the warning, the exact spelling sent, the service's refusal (exit 1)",
    async () => {
      const from = proxy.requests.length
      const result = await cli(
        ["transfers", "--from-account-type", "isolated_margin", "--to-account-type", "spot", "--since", "30d"],
        env()
      )
      // Documented: no warning, sent as the exchange spells it; this service does not know it and refuses.
      expect(result.stderr).toMatch(
        /^broker-history: .* was refused by the service \(400 .*fromAccountType must be SPOT or FUTURE\)/
      )
      expect(result.code).toBe(1)
      expect(typesSent(from)).toEqual(new Set(["ISOLATED_MARGIN→SPOT"]))

      const next = proxy.requests.length
      const margin = await cli(
        ["transfers", "--from-account-type", "Margin", "--to-account-type", "spot", "--since", "30d"],
        env()
      )
      const [first, ...rest] = margin.stderr.split(/(?<=\n)/)
      expect(first).toBe(warning("MARGIN (--from-account-type)"))
      expect(margin.code).toBe(1)
      expect(rest.join("")).toMatch(/^broker-history: .* was refused by the service \(400 .*AccountType must be/)
      expect(typesSent(next)).toEqual(new Set(["MARGIN→SPOT"]))
    },
    60_000
  )
})
