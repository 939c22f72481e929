// The command line itself, end to end (the CLI as a child process against the reference service on
// 127.0.0.1): values refused before any request (an --until after the service's now, demo counts, a
// flag without its value), --format in any letter case, --wizard without a terminal, and --help as
// plain text that names the program.
import * as Fs from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { cli, cliEnv, useReferenceServer } from "./support/Harness.js"

const { running, temp } = useReferenceServer({ seed: { seed: 9, transfers: 300, deposits: 200, subAccounts: 2 } })

const env = (extra: Record<string, string> = {}) => {
  const base = cliEnv(running.server.baseUrl, extra)
  for (const name of ["NO_COLOR", "FORCE_COLOR"]) if (!(name in extra)) delete base[name]
  return base
}

/** Requests the service has received so far. */
const requests = async () => (await running.run(running.server.stats)).requests

const ansi = new RegExp(String.fromCharCode(27) + "\\[", "g")

const transfers = ["transfers", "--from-account-type", "SPOT", "--to-account-type", "FUTURES"]

describe("--until after the service's now", () => {
  it(
    "beyond the allowance for clock skew: a usage error (exit 2) naming until and the service's now, no page requested",
    async () => {
      const before = await requests()
      const until = new Date(Date.now() + 2 * 86_400_000).toISOString()
      const result = await cli(["deposits", "--since", "30d", "--until", until], env())
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toMatch(
        /^broker-history: Invalid depositHistory query: until must not be after the server's now \(/
      )
      expect(result.stderr).toContain(`by more than 1 minute (allowed for clock skew); it is ${until}`)
      expect(result.stdout).toBe("")
      // At most the request for the service's time: no page.
      expect((await requests()) - before).toBeLessThanOrEqual(1)
    },
    60_000
  )

  it("within the allowance: read as given", async () => {
    const until = new Date(Date.now() + 20_000).toISOString()
    const result = await cli(["deposits", "--since", "30d", "--until", until], env())
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
  }, 60_000)
})

describe("ten digits in --since / --until", () => {
  it("are Unix seconds: refused with the Unix ms to write, before any request", async () => {
    const before = await requests()
    const result = await cli([...transfers, "--since", "1735689600"], env())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      "broker-history: --since: \"1735689600\" looks like Unix seconds (2025-01-01T00:00:00.000Z): write " +
        "1735689600000 for Unix ms (ten digits are refused, as Unix ms they would be a time in 1970)\n"
    )
    expect(await requests()).toBe(before)
  }, 60_000)
})

describe("client settings refused before any request", () => {
  it(
    "--rate-limit 1e9 (the budget would remember a billion requests) (exit 2), and a secret with whitespace around it (exit 3, credentials)",
    async () => {
      const before = await requests()
      const huge = await cli([...transfers, "--rate-limit", "1e9"], env())
      expect(huge.code, huge.stderr).toBe(2)
      expect(huge.stderr).toBe(
        "broker-history: BROKER_RATE_LIMIT (or --rate-limit): must be a whole number of requests from 1 to 10000 (for more, shorten the interval)\n"
      )
      const spaced = await cli(transfers, env({ BROKER_SECRET_KEY: "secret\n" }))
      expect(spaced.code, spaced.stderr).toBe(3)
      expect(spaced.stderr).toContain("BROKER_SECRET_KEY (or --secret-key): has leading or trailing whitespace")
      expect((await requests()) - before).toBe(0)
    },
    30_000
  )
})

describe("demo counts", () => {
  it.each([
    [["--transfers", "-5"], "--transfers must be an integer >= 1, got \"-5\""],
    [["--deposits", "0"], "--deposits must be an integer >= 1, got \"0\""],
    [["--concurrency", "0"], "--concurrency must be an integer >= 1, got \"0\""],
    [["--transfers", "1.5"], "--transfers must be an integer >= 1, got \"1.5\""],
    [["--seed", "-1"], "--seed must be an integer >= 0, got \"-1\""]
  ])("demo %j: exit 2 before the service starts", async (args, message) => {
    const result = await cli(["demo", ...args], env(), 30_000)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toBe(`broker-history: ${message}\n`)
    expect(result.stdout).toBe("")
  }, 40_000)

  it("a bad DEMO_* variable is refused the same way, naming it", async () => {
    const result = await cli(["demo"], env({ DEMO_TRANSFERS: "-5", DEMO_DEPOSITS: "1" }), 30_000)
    expect(result.code, result.stderr).toBe(2)
    expect(result.stderr).toBe("broker-history: DEMO_TRANSFERS must be an integer >= 1, got \"-5\"\n")
  }, 40_000)
})

describe("--format", () => {
  it("any letter case: CSV, Ndjson", async () => {
    const csv = await cli(["deposits", "--since", "3y", "--format", "CSV"], env())
    expect(csv.stderr).toBe("")
    expect(csv.code).toBe(0)
    expect(csv.stdout.split("\r\n")[0]).toMatch(/^amount,coin,/)
    const ndjson = await cli(["deposits", "--since", "3y", "--format", "Ndjson"], env())
    expect(ndjson.code).toBe(0)
    expect(JSON.parse(ndjson.stdout.split("\n")[0]).coin).toBeTypeOf("string")
  }, 60_000)

  it("anything else: exit 2 with the formats", async () => {
    const result = await cli(["deposits", "--format", "xml"], env())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe("broker-history: --format: \"xml\" is not a format; use one of ndjson, csv, json\n")
  }, 60_000)
})

describe("a flag without its value", () => {
  const db = () => Path.join(temp.dir, "never.db")
  it.each([
    [[...transfers, "--since"], "--since needs a value (see broker-history transfers --help)"],
    [
      ["transfers", "--since", "--from-account-type", "SPOT", "--to-account-type", "SPOT"],
      "--since needs a value, but --from-account-type follows it (see broker-history transfers --help)"
    ],
    [
      ["deposits", "--since", "--until", "5"],
      "--since needs a value, but --until follows it (see broker-history deposits --help)"
    ],
    [["deposits", "--since="], "--since needs a value (see broker-history deposits --help)"],
    [["deposits", "--format"], "--format needs a value: ndjson | csv | json (see broker-history deposits --help)"],
    [["serve", "--port"], "--port needs a value: INTEGER (see broker-history serve --help)"],
    [["demo", "--seed"], "--seed needs a value: INTEGER (see broker-history demo --help)"],
    [
      ["--log-level"],
      "--log-level needs a value: all | trace | debug | info | warning | error | fatal | none (see broker-history --help)"
    ]
  ])("%j: exit 2, naming the flag", async (args, message) => {
    const before = await requests()
    const result = await cli(args, env())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`broker-history: ${message}\n`)
    expect(await requests()).toBe(before)
  }, 60_000)

  it("sync --reset-stream at the end is refused, not ignored: nothing is opened or sent", async () => {
    const before = await requests()
    const result = await cli(["sync", "--db", db(), "--reset-stream"], env())
    expect(result.code).toBe(2)
    expect(result.stderr).toBe("broker-history: --reset-stream needs a value (see broker-history sync --help)\n")
    expect(Fs.existsSync(db())).toBe(false)
    expect(await requests()).toBe(before)
  }, 60_000)
})

describe("--wizard", () => {
  it("with stdin closed (not a terminal): a message and exit 2, not a wait for answers", async () => {
    for (const args of [["deposits", "--wizard"], ["--wizard"]]) {
      // The harness's child has stdin on /dev/null.
      const result = await cli(args, env(), 20_000)
      expect(result.signal, args.join(" ")).toBe(null)
      expect(result.code).toBe(2)
      expect(result.stderr).toBe(
        "broker-history: --wizard asks its questions on a terminal, and stdin is not one: give the flags on the " +
          "command line instead (see --help)\n"
      )
      expect(result.stdout).toBe("")
    }
  }, 60_000)
})

describe("--help", () => {
  const help = async (args: ReadonlyArray<string>, extra: Record<string, string> = {}) => {
    const result = await cli([...args, "--help"], env(extra))
    expect(result.code, args.join(" ")).toBe(0)
    return result.stdout
  }

  it("plain text when stdout is not a terminal: no ANSI escapes, USAGE with the program name", async () => {
    for (const command of ["transfers", "deposits", "sync", "serve", "demo"]) {
      const text = await help([command])
      expect(text.match(ansi), command).toBe(null)
      const usage = text.split("\n").filter((line) => line.startsWith(`broker-history ${command} `))
      expect(usage.length, command).toBe(1)
      expect(text).not.toMatch(/^\$ /m)
    }
    const root = await help([])
    expect(root.match(ansi)).toBe(null)
    expect(root).toMatch(/^broker-history <command>/m)
  }, 60_000)

  it("no filler lines for undocumented values", async () => {
    for (const command of ["transfers", "sync", "serve", "demo"]) {
      const text = await help([command])
      for (const filler of ["A user-defined piece of text.", "An integer.", "A true or false value."]) {
        expect(text.includes(filler), `${command}: ${filler}`).toBe(false)
      }
      // What each flag means is still there.
      expect(text).toMatch(/This setting is optional\./)
    }
  }, 60_000)

  it("a repeatable flag is optional in USAGE: it may be given zero times", async () => {
    const text = await help(["sync"])
    const usage = text.split("\n").find((line) => line.startsWith("broker-history sync "))!
    expect(usage).toContain(" [--reset-stream text]... ")
    expect(usage).not.toMatch(/ --reset-stream/)
    // Serve's repeatable --key too.
    expect((await help(["serve"])).split("\n").find((line) => line.startsWith("broker-history serve "))).toContain(
      " [--key API:SECRET:PERMS]... "
    )
  }, 60_000)
})
