// `transfers` and `sync` (the CLI as a child process) against a service on 127.0.0.1 that stops
// paging a crowded millisecond: 1,200 transfers in one millisecond, pages past 2 empty. Without
// --on-incomplete the command stops with IncompleteHistory, exit 5; with --on-incomplete warn it
// writes the 1,000 records served, a warning line, a summary that counts it, and exits 5.
import * as Fs from "node:fs"
import * as Path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { cli, cliEnv, killChildren, tempDir } from "./support/Harness.js"
import { cappedService } from "./support/Misbehaving.js"

const T = Date.now() - 3_600_000
const sub = "sub001@broker.test"
const rows = [
  { tranId: "1", timestamp: T - 60_000, toAccount: sub },
  ...Array.from({ length: 1_200 }, (_, i) => ({ tranId: String(10_000 + i), timestamp: T, toAccount: sub })),
  { tranId: "2", timestamp: T + 60_000, toAccount: sub }
]
const transfers = [
  "transfers",
  "--from-account-type",
  "SPOT",
  "--to-account-type",
  "FUTURES",
  "--to-account",
  sub,
  "--since",
  String(T - 86_400_000)
]

let service: Awaited<ReturnType<typeof cappedService>>
let env: Record<string, string>
const temp = tempDir()
beforeAll(async () => {
  service = await cappedService(rows, 2)
  env = cliEnv(service.baseUrl)
})
afterEach(killChildren)
afterAll(async () => {
  killChildren()
  await service.close()
  temp.cleanup()
})

describe("a crowded millisecond the service does not page through", () => {
  it("transfers: stops with IncompleteHistory, one sentence, exit 5", async () => {
    const result = await cli(transfers, env)
    expect(result.code).toBe(5)
    expect(result.stderr).toBe(
      `broker-history: transferHistory (window ${new Date(T).toISOString()}..${new Date(T).toISOString()}, page 3): ` +
        `the millisecond ${new Date(T).toISOString()} holds more records than were served: 1000 records in 2 pages, ` +
        "then page 3 came back empty. Records of that millisecond may be missing; the service does not page through " +
        `this millisecond; report it to the service, or set BROKER_ON_INCOMPLETE to "warn" to go on ` +
        "without them; on the command line: --on-incomplete warn.\n"
    )
  })

  it("transfers --on-incomplete warn: the records served, a warning line, the final sentence counts it, exit 5", async () => {
    const result = await cli([...transfers, "--on-incomplete", "warn"], env)
    expect(result.code).toBe(5)
    const lines = result.stdout.trimEnd().split("\n").map((l) => JSON.parse(l).tranId)
    expect(lines).toHaveLength(1_002)
    expect([lines[0], lines[1_001]]).toEqual(["1", "2"])
    const stderr = result.stderr.trimEnd().split("\n")
    expect(stderr).toHaveLength(2)
    for (
      const part of [
        "level=WARN",
        `the millisecond ${new Date(T).toISOString()} (1000 records in 2 pages, then page 3 came back empty)`,
        `millisecond=${new Date(T).toISOString()}`,
        "received=1000",
        "pages=2",
        "reason=EmptyPage",
        "endpoint=transferHistory"
      ]
    ) expect(stderr[0]).toContain(part)
    expect(stderr[1]).toBe(
      "broker-history: finished, but the history is incomplete: the service did not serve every record of 1 crowded " +
        "millisecond (each named in a warning above); raise BROKER_MAX_PAGES_PER_MILLISECOND where a warning says " +
        "PageLimit, otherwise report it to the service"
    )
  })

  it("sync --on-incomplete warn with two profiles: the summary of the profile that met it counts it, exit 5", async () => {
    const db = Path.join(temp.dir, "incomplete.db")
    const profiles = Path.join(temp.dir, "profiles.yaml")
    Fs.writeFileSync(
      profiles,
      `profiles:
  - { name: acme, apiKeyEnv: ACME_API_KEY, secretKeyEnv: ACME_SECRET_KEY, pairs: ["- ${sub} SPOT FUTURES"] }
  - { name: globex, apiKeyEnv: GLOBEX_API_KEY, secretKeyEnv: GLOBEX_SECRET_KEY, pairs: ["- sub002@broker.test SPOT FUTURES"] }
`
    )
    const { BROKER_API_KEY: _, BROKER_SECRET_KEY: __, ...rest } = env
    const result = await cli(
      ["sync", "--db", db, "--profiles", profiles, "--since", String(T - 86_400_000), "--on-incomplete", "warn"],
      {
        ...rest,
        ACME_API_KEY: "acme-key",
        ACME_SECRET_KEY: "acme-secret",
        GLOBEX_API_KEY: "globex-key",
        GLOBEX_SECRET_KEY: "globex-secret"
      }
    )
    expect(result.code).toBe(5)
    const out = result.stdout.trimEnd().split("\n")
    const acme = out.find((l) => l.startsWith("profile acme: synced"))!
    const globex = out.find((l) => l.startsWith("profile globex: synced"))!
    expect(acme).toContain("applied 1002 transfer and 0 deposit records")
    expect(acme).toContain("; incomplete: 1 crowded millisecond not served whole (see its warning)")
    expect(globex).not.toContain("; incomplete:")
    const stderr = result.stderr.trimEnd().split("\n")
    expect(stderr.filter((l) => l.includes("level=WARN") && l.includes("reason=EmptyPage"))).toHaveLength(1)
    expect(stderr.at(-1)).toContain(
      "broker-history: finished, but the history is incomplete: the service did not serve every record of 1 crowded millisecond"
    )
  })
})
