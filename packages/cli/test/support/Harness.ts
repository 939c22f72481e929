// Test support: the reference service in-process on 127.0.0.1 (port 0), the CLI as a child process
// pointed at it, and the service's own data in the shapes the CLI writes. Every child is tracked and
// killed (by its pid only) when a test ends; every wait is bounded.
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import type { Store } from "@broker-history/server"
import { WireFormat } from "@broker-history/testing/ServerInternals"
import { Context, Effect, Exit, Layer, Schema, Scope } from "effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { afterAll, afterEach, beforeAll, inject } from "vitest"
import * as Columns from "../../src/internal/sync/store/Columns.js"
import { packageDir } from "./PackageDir.js"

export { packageDir }
/** The workspace bin: the sources through tsx (what the tests of module loading run). */
export const bin = Path.join(packageDir, "bin/broker-history.mjs")
/** The published bin, built once for the run (`BundleOnce`): the program `cli` and `spawn` run. */
export const bundled = inject("cliBundle")

export interface Running {
  readonly server: ReferenceServer.Service
  readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
  readonly close: () => Promise<void>
}

/** Starts the reference service in this process; `close` stops it. */
export const startServer = async (options: ReferenceServer.Options): Promise<Running> => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(ReferenceServer.layer({ host: "127.0.0.1", port: 0, logRequests: false, ...options }), scope)
  )
  const server = Context.get(context, ReferenceServer.ReferenceServer)
  return {
    server,
    run: (effect) => Effect.runPromise(effect),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

/**
 * A test file's reference service: started before its tests (no rate limit that binds unless
 * `options` sets one), stopped after them with every child process killed, plus a temporary
 * directory removed at the end. `running` can be used as soon as the tests run.
 */
export const useReferenceServer = (options: ReferenceServer.Options) => {
  let started: Running | undefined
  const running: Running = {
    get server() {
      if (started === undefined) throw new Error("the reference service starts in beforeAll: use it inside a test")
      return started.server
    },
    run: (effect) => Effect.runPromise(effect),
    close: async () => {
      await started?.close()
    }
  }
  const temp = tempDir()
  beforeAll(async () => {
    started = await startServer({ rateLimit: { limit: 100_000, window: 10_000 }, ...options })
  }, 60_000)
  afterAll(async () => {
    killChildren()
    await started?.close()
    temp.cleanup()
  })
  afterEach(killChildren)
  return { running, temp }
}

/** The child's environment: no BROKER_* from the outside, the demo key, the given service. */
export const cliEnv = (baseUrl: string, extra: Record<string, string> = {}): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("BROKER_") && !k.startsWith("DEMO_")) env[k] = v
  }
  return {
    ...env,
    BROKER_BASE_URL: baseUrl,
    BROKER_API_KEY: ApiKeys.demo.apiKey,
    BROKER_SECRET_KEY: ApiKeys.demo.secretKey,
    ...extra
  }
}

const children = new Set<ChildProcess.ChildProcess>()

/** Kills every child still running (SIGKILL, by pid). Call in afterEach. */
export const killChildren = () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  }
  children.clear()
}

export interface Result {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface Child {
  readonly process: ChildProcess.ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  readonly done: Promise<Result>
}

/** Starts `broker-history args…` (`program`: the published bin unless given); killed with SIGKILL after `timeoutMs`. */
export const spawn = (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  timeoutMs = 60_000,
  program = bundled
): Child => {
  const child = ChildProcess.spawn(process.execPath, [program, ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d))
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d))
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
  const done = new Promise<Result>((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  })
  return { process: child, stdout: () => stdout, stderr: () => stderr, done }
}

/** Runs `broker-history args…` to the end (`program`: the published bin unless given). */
export const cli = (args: ReadonlyArray<string>, env: Record<string, string>, timeoutMs = 60_000, program = bundled) =>
  spawn(args, env, timeoutMs, program).done

/** Runs a shell pipeline (bash), bounded in time. */
export const shell = (script: string, env: Record<string, string>, timeoutMs = 60_000) =>
  new Promise<Result>((resolve) => {
    const child = ChildProcess.spawn("bash", ["-c", script], { env, stdio: ["ignore", "pipe", "pipe"] })
    children.add(child)
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, signal, stdout, stderr })
    })
  })

/** Waits until `check` holds, polling every 100 ms, at most `timeoutMs`. */
export const until = async (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A fresh temporary directory, removed by `cleanup`. */
export const tempDir = () => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-cli-"))
  return { dir, cleanup: () => Fs.rmSync(dir, { recursive: true, force: true }) }
}

const decodeTransfer = Schema.decodeUnknownSync(TransferRecord.TransferRecord)
const decodeDeposit = Schema.decodeUnknownSync(DepositRecord.DepositRecord)

/** A stored transfer as the client decodes what the service sends for it. */
export const transferOf = (row: Store.TransferRow) =>
  decodeTransfer(WireFormat.transfer(row, ReferenceServer.defaultMasterAccount))

/** A stored deposit as the client decodes what the service sends for it. */
export const depositOf = (row: Store.DepositRow) => decodeDeposit(WireFormat.deposit(row))

/** The service's transfers that the default sync plan covers (any transfer touching the master). */
export const expectedTransferRows = (rows: ReadonlyArray<Store.TransferRow>, since: number) =>
  rows.filter((t) => (t.fromAccount === null || t.toAccount === null) && t.timestamp >= since)
    .map((t) => normalize(Columns.transferRow(transferOf(t))))
    .sort(byKey)

/** The service's deposits from `since`. */
export const expectedDepositRows = (rows: ReadonlyArray<Store.DepositRow>, since: number) =>
  rows.filter((d) => d.insertTime >= since).map((d) => normalize(Columns.depositRow(depositOf(d)))).sort(byKey)

/** Numbers as numbers (PostgreSQL returns BIGINT as text), every other value as text. */
export const normalize = (row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(row).map((
      [k, v]
    ) => [k, k === "timestamp" || k === "insert_time" ? Number(v) : v === null ? null : String(v)])
  )

const keyOf = (row: Record<string, unknown>) =>
  "tran_id" in row ? String(row.tran_id) : JSON.stringify([row.tx_id, row.coin, row.network, row.address])

export const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0
