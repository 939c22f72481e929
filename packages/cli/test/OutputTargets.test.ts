// `--out` writes to what the user named, end to end (the CLI as a child process against the reference
// service on 127.0.0.1): a symlink's target, a FIFO, a device or an open descriptor written straight
// into, a file the user could not write refused before any request, the owner, group and mode kept,
// temporary files of killed runs removed and those of live runs kept; and an interrupted export ends
// with 130 (SIGINT) / 143 (SIGTERM) and one line saying the output is incomplete. Tests that need root
// (device nodes, other owners and groups, running the CLI as another user) skip when not root.
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { Child, Result, Running } from "./support/Harness.js"
import { bundled, cli, cliEnv, killChildren, shell, spawn, startServer, until } from "./support/Harness.js"

let running: Running
let env: Record<string, string>
let deposits: number
// World-readable, so that the CLI run as another user can reach the directories made for it.
const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-out-"))
Fs.chmodSync(root, 0o755)

const isRoot = process.getuid?.() === 0
// Any ids without a name will do: a user that owns nothing else, a group it is not a member of.
const other = { uid: 4242, gid: 4242 }
const otherGroup = 4343

beforeAll(async () => {
  running = await startServer({
    seed: { seed: 21, transfers: 0, deposits: 1500, subAccounts: 2 },
    rateLimit: { limit: 100_000, window: 10_000 }
  })
  deposits = (await running.run(running.server.store.allDeposits())).length
  env = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200" })
}, 60_000)

const others = new Set<ChildProcess.ChildProcess>()

afterEach(() => {
  killChildren()
  for (const child of others) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  others.clear()
})

afterAll(async () => {
  await running?.close()
  Fs.rmSync(root, { recursive: true, force: true })
})

const exportArgs = (out: string) => ["deposits", "--since", "3y", "--out", out]
const listing = (dir: string) => Fs.readdirSync(dir).sort()
const lineCount = (text: string) => text.trimEnd().split("\n").length
const requests = async () => (await running.run(running.server.stats)).requests
const previous = "{\"a previous\":\"export\"}\n"

/** A fresh directory under `root`, owned by `owner` when given. */
const freshDir = (owner?: { uid: number; gid: number }) => {
  const dir = Fs.mkdtempSync(Path.join(root, "out-"))
  Fs.chmodSync(dir, 0o755)
  if (owner !== undefined) Fs.chownSync(dir, owner.uid, owner.gid)
  return dir
}

/** `broker-history args…` run as `user` (root only), bounded in time and killed after the test. */
const cliAs = (user: { uid: number; gid: number }, args: ReadonlyArray<string>) =>
  new Promise<Result>((resolve) => {
    const child = ChildProcess.spawn(process.execPath, [bundled, ...args], {
      env: { ...env, HOME: root },
      stdio: ["ignore", "pipe", "pipe"],
      uid: user.uid,
      gid: user.gid
    })
    others.add(child)
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      others.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  })

/** The export of `out` run as the other user when root (the only way to meet a permission), else as this one. */
const cliAsOther = (out: string) => isRoot ? cliAs(other, exportArgs(out)) : cli(exportArgs(out), env)
const owner = isRoot ? other : { uid: process.getuid!(), gid: process.getgid!() }

/** A slow export (one request a second) into `out`: still running when the test acts on it. */
const slowExport = (out: string | undefined): Child =>
  spawn(["deposits", "--since", "1y", ...(out === undefined ? [] : ["--out", out])], {
    ...env,
    BROKER_RATE_LIMIT: "1"
  })

/** `cat FIFO`, its output read as it comes; killed after the test. */
const readFifo = (fifo: string) => {
  const child = ChildProcess.spawn("cat", [fifo], { stdio: ["ignore", "pipe", "ignore"] })
  others.add(child)
  let text = ""
  child.stdout.setEncoding("utf8").on("data", (d: string) => (text += d))
  const done = new Promise<string>((resolve) => child.on("close", () => resolve(text)))
  return { text: () => text, done }
}

/** Waits until `dir` holds a temporary file of `base` other than `except`, with records in it; its name. */
const temporaryOf = async (dir: string, base: string, except: ReadonlyArray<string> = []) => {
  let found: string | undefined
  await until(
    () => {
      found = listing(dir).find((name) =>
        name.startsWith(`.${base}.`) && name.endsWith(".tmp") && !except.includes(name) &&
        Fs.statSync(Path.join(dir, name)).size > 0
      )
      return found !== undefined
    },
    30_000,
    `records in a temporary file of ${base}`
  )
  return found!
}

describe("--out follows symlinks and writes straight into what is not a regular file", () => {
  it("a symlink: its target gets the export, the link stays a link", async () => {
    const dir = freshDir()
    const target = Path.join(dir, "target.ndjson")
    const link = Path.join(dir, "link.ndjson")
    Fs.writeFileSync(target, previous)
    Fs.symlinkSync("target.ndjson", link)
    const result = await cli(exportArgs(link), env)
    expect(result.code, result.stderr).toBe(0)
    expect(Fs.lstatSync(link).isSymbolicLink()).toBe(true)
    expect(Fs.readlinkSync(link)).toBe("target.ndjson")
    expect(lineCount(Fs.readFileSync(target, "utf8"))).toBe(deposits)
    expect(listing(dir)).toEqual(["link.ndjson", "target.ndjson"])
  })

  it("a dangling symlink: its target is created, the link stays a link", async () => {
    const dir = freshDir()
    Fs.mkdirSync(Path.join(dir, "exports"))
    const link = Path.join(dir, "latest.ndjson")
    Fs.symlinkSync("exports/deposits.ndjson", link)
    const result = await cli(exportArgs(link), env)
    expect(result.code, result.stderr).toBe(0)
    expect(Fs.lstatSync(link).isSymbolicLink()).toBe(true)
    expect(lineCount(Fs.readFileSync(Path.join(dir, "exports/deposits.ndjson"), "utf8"))).toBe(deposits)
    expect(listing(dir)).toEqual(["exports", "latest.ndjson"])
    expect(listing(Path.join(dir, "exports"))).toEqual(["deposits.ndjson"])
  })

  it("a FIFO: the export goes straight into it, no temporary file, the FIFO stays", async () => {
    const dir = freshDir()
    const fifo = Path.join(dir, "pipe")
    ChildProcess.execFileSync("mkfifo", [fifo])
    const reader = readFifo(fifo)
    const result = await cli(exportArgs(fifo), env)
    expect(result.code, result.stderr).toBe(0)
    expect(lineCount(await reader.done)).toBe(deposits)
    expect(Fs.lstatSync(fifo).isFIFO()).toBe(true)
    expect(listing(dir)).toEqual(["pipe"])
  })

  for (const path of ["/dev/fd/1", "/proc/self/fd/1", "/dev/stdout"]) {
    it(`${path}: the records on stdout`, async () => {
      const result = await cli(exportArgs(path), env)
      expect(result.code, result.stderr).toBe(0)
      expect(lineCount(result.stdout)).toBe(deposits)
    })
  }

  it("a descriptor opened for appending (/dev/fd/3 of 3>>FILE): the export is appended to FILE", async () => {
    const dir = freshDir()
    const log = Path.join(dir, "appended.ndjson")
    Fs.writeFileSync(log, previous)
    const args = exportArgs("/dev/fd/3").map((a) => `'${a}'`).join(" ")
    const result = await shell(`exec 3>>'${log}'; '${process.execPath}' '${bundled}' ${args}`, env)
    expect(result.code, result.stderr).toBe(0)
    const text = Fs.readFileSync(log, "utf8")
    expect(text.startsWith(previous)).toBe(true)
    expect(lineCount(text)).toBe(deposits + 1)
    expect(listing(dir)).toEqual(["appended.ndjson"])
  })

  it.skipIf(!isRoot)("a character device (root): written straight into, the device node stays", async () => {
    const dir = freshDir()
    const device = Path.join(dir, "null")
    try {
      ChildProcess.execFileSync("mknod", [device, "c", "1", "3"], { stdio: "ignore" })
    } catch {
      return // no CAP_MKNOD here (a container without it): nothing to test
    }
    const result = await cli(exportArgs(device), env)
    expect(result.code, result.stderr).toBe(0)
    const stat = Fs.lstatSync(device)
    expect(stat.isCharacterDevice()).toBe(true)
    expect(stat.rdev).toBe(Fs.statSync("/dev/null").rdev)
    expect(listing(dir)).toEqual(["null"])
  })
})

describe("--out refuses what the user could not write, before any request", () => {
  it("a read-only file (0444): exit 1, says what to do, the file as it was", async () => {
    const dir = freshDir(owner)
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    Fs.chownSync(file, owner.uid, owner.gid)
    Fs.chmodSync(file, 0o444)
    const before = await requests()
    const result = await cliAsOther(file)
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toBe(
      `broker-history: cannot write ${file}: permission denied; make it writable (chmod u+w ${file}) or give another --out path\n`
    )
    expect(await requests()).toBe(before)
    expect(Fs.readFileSync(file, "utf8")).toBe(previous)
    expect(Fs.statSync(file).mode & 0o777).toBe(0o444)
    expect(listing(dir)).toEqual(["deposits.ndjson"])
  })

  it.skipIf(!isRoot)("a writable file in a directory the user cannot write: exit 1, says why, as it was", async () => {
    const dir = freshDir()
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    Fs.chownSync(file, other.uid, other.gid)
    const before = await requests()
    const result = await cliAs(other, exportArgs(file))
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^broker-history: cannot write .*: its directory .* is not writable/)
    expect(result.stderr).toContain("give an --out path in a directory you can write")
    expect(await requests()).toBe(before)
    expect(Fs.readFileSync(file, "utf8")).toBe(previous)
  })
})

describe("--out keeps the replaced file's owner, group and mode", () => {
  it.skipIf(!isRoot)("another user's file (root): owner, group and mode kept", async () => {
    const dir = freshDir()
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    Fs.chownSync(file, other.uid, otherGroup)
    Fs.chmodSync(file, 0o640)
    const result = await cli(exportArgs(file), env)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe("")
    const stat = Fs.statSync(file)
    expect([stat.uid, stat.gid, stat.mode & 0o7777]).toEqual([other.uid, otherGroup, 0o640])
    expect(lineCount(Fs.readFileSync(file, "utf8"))).toBe(deposits)
    expect(listing(dir)).toEqual(["deposits.ndjson"])
  })

  it.skipIf(!isRoot)(
    "a group the user is not in cannot be kept: replaced with the user's group, one line says so",
    async () => {
      const dir = freshDir(other)
      const file = Path.join(dir, "deposits.ndjson")
      Fs.writeFileSync(file, previous)
      Fs.chownSync(file, other.uid, otherGroup)
      Fs.chmodSync(file, 0o664)
      const result = await cliAs(other, exportArgs(file))
      expect(result.code, result.stderr).toBe(0)
      expect(result.stderr).toBe(
        `broker-history: note: ${file} now belongs to ${other.uid}:${other.gid} (it was ${other.uid}:${otherGroup}): ` +
          `only root can give a file to another user or to a group you are not in; as root: chown ${other.uid}:${otherGroup} ${file}\n`
      )
      const stat = Fs.statSync(file)
      expect([stat.uid, stat.gid, stat.mode & 0o7777]).toEqual([other.uid, other.gid, 0o664])
      expect(lineCount(Fs.readFileSync(file, "utf8"))).toBe(deposits)
    }
  )

  it("a file with other hard links: it is replaced, the other names keep the previous export, one line says so", async () => {
    const dir = freshDir()
    const file = Path.join(dir, "deposits.ndjson")
    const snapshot = Path.join(dir, "snapshot.ndjson")
    Fs.writeFileSync(file, previous)
    Fs.linkSync(file, snapshot)
    const result = await cli(exportArgs(file), env)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toBe(
      `broker-history: note: ${file} had 1 other hard link; ${file} now holds the new export, the other names keep the previous content\n`
    )
    expect(lineCount(Fs.readFileSync(file, "utf8"))).toBe(deposits)
    expect(Fs.readFileSync(snapshot, "utf8")).toBe(previous)
    expect(listing(dir)).toEqual(["deposits.ndjson", "snapshot.ndjson"])
  })
})

describe("temporary files of --out", () => {
  it("a killed run's (kill -9) is removed by the next run for the same file; a live run's is kept", async () => {
    const dir = freshDir()
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    // Names that only look like temporary files of the export, and one of a run on another host.
    const lookalikes = [".deposits.ndjson.bak", ".deposits.ndjson.12-x.tmp", ".deposits.ndjson.1-a.other-host.tmp"]
    for (const name of lookalikes) Fs.writeFileSync(Path.join(dir, name), "keep")

    const killed = slowExport(file)
    const left = await temporaryOf(dir, "deposits.ndjson", lookalikes)
    killed.process.kill("SIGKILL")
    await killed.done
    expect(listing(dir)).toContain(left)

    const live = slowExport(file)
    const kept = await temporaryOf(dir, "deposits.ndjson", [...lookalikes, left])
    const result = await cli(exportArgs(file), env)
    expect(result.code, result.stderr).toBe(0)
    expect(lineCount(Fs.readFileSync(file, "utf8"))).toBe(deposits)
    expect(listing(dir)).toEqual([...lookalikes, kept, "deposits.ndjson"].sort())
    live.process.kill("SIGKILL")
    await live.done
  }, 90_000)
})

describe("an interrupted export exits 130 (SIGINT) / 143 (SIGTERM) and says the output is incomplete", () => {
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    it(`on stdout, ${signal}: exit ${code}, one line on stderr`, async () => {
      const child = slowExport(undefined)
      await until(() => child.stdout().length > 0, 30_000, "records on stdout")
      child.process.kill(signal)
      const result = await child.done
      expect(result.code, result.stderr).toBe(code)
      expect(result.stderr).toBe("broker-history: interrupted: the export on stdout is incomplete\n")
    }, 60_000)
  }

  it("--out FILE, SIGTERM: exit 143, the file left untouched, its temporary file removed", async () => {
    const dir = freshDir()
    const file = Path.join(dir, "deposits.ndjson")
    Fs.writeFileSync(file, previous)
    const child = slowExport(file)
    await temporaryOf(dir, "deposits.ndjson")
    child.process.kill("SIGTERM")
    const result = await child.done
    expect(result.code, result.stderr).toBe(143)
    expect(result.stderr).toBe(`broker-history: interrupted: the export is incomplete; ${file} was left untouched\n`)
    expect(Fs.readFileSync(file, "utf8")).toBe(previous)
    expect(listing(dir)).toEqual(["deposits.ndjson"])
  }, 60_000)

  it("--out FIFO, SIGINT: exit 130, says what was written is incomplete", async () => {
    const dir = freshDir()
    const fifo = Path.join(dir, "pipe")
    ChildProcess.execFileSync("mkfifo", [fifo])
    const reader = readFifo(fifo)
    const child = slowExport(fifo)
    await until(() => reader.text().length > 0, 30_000, "records through the FIFO")
    child.process.kill("SIGINT")
    const result = await child.done
    expect(result.code, result.stderr).toBe(130)
    expect(result.stderr).toBe(`broker-history: interrupted: the export written to ${fifo} is incomplete\n`)
    await reader.done
    expect(Fs.lstatSync(fifo).isFIFO()).toBe(true)
  }, 60_000)
})
