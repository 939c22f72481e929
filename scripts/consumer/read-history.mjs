// Consumer check (a): the INSTALLED packages, run with plain Node (no tsx, no TypeScript loader).
// Starts the installed `broker-history serve`, reads the full deposit history and one transfer
// history through the client over both transports (undici and fetch), checks they agree, are
// ascending and unique, and that the installed CLI's `deposits` export counts the same deposits.
// Run from the scratch project that has the tarballs installed: `node read-history.mjs`.
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import { DepositRecord, TransferRecord } from "@broker-history/domain"
import { ApiKeys } from "@broker-history/server"
import { FetchHttpClient } from "@effect/platform"
import { Cause, Chunk, Effect, Exit, Layer, Redacted, Stream } from "effect"
import { execFile, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as HistoryOrder from "./history-order.mjs"

const bin = fileURLToPath(new URL("./node_modules/.bin/broker-history", import.meta.url))
const serveArgs = [
  "serve",
  "--port",
  "0",
  "--transfers",
  "3000",
  "--deposits",
  "1500",
  "--sub-accounts",
  "3",
  "--seed",
  "7",
  // The client below allows itself 500 requests a second: give the service the same budget.
  "--rate-limit",
  "500",
  "--rate-window-ms",
  "1000",
  "--no-log"
]
const startTimeoutMs = 60_000
const cliTimeoutMs = 180_000
const subAccount = "sub001@broker.test"

class Mismatch extends Error {}
const check = (ok, message) => {
  if (!ok) throw new Mismatch(message)
}

/** Starts the installed CLI's reference service; resolves with its base URL once it logs it. */
const startServer = () =>
  new Promise((resolve, reject) => {
    const child = spawn(bin, serveArgs, { stdio: ["ignore", "pipe", "pipe"] })
    let seen = ""
    const timer = globalThis.setTimeout(() => {
      reject(new Error(`serve did not log "listening on" within ${startTimeoutMs} ms; output:\n${seen}`))
    }, startTimeoutMs)
    // The listening line may come on stdout or stderr (and in either log format): read both.
    const onData = (data) => {
      seen = (seen + data.toString()).slice(-20_000)
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(seen)
      if (match !== null) {
        globalThis.clearTimeout(timer)
        resolve({ child, baseUrl: match[1] })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.on("error", (error) => {
      globalThis.clearTimeout(timer)
      reject(error)
    })
    child.on("exit", (code, signal) => {
      globalThis.clearTimeout(timer)
      reject(new Error(`serve exited (code ${code}, signal ${signal}) before listening; output:\n${seen}`))
    })
    servers.push(child)
  })

const servers = []
const stopServers = () => {
  for (const child of servers) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
  }
}
// Last resort (an uncaught failure, process.exit, or run.sh's timeout): never leave the service running.
process.on("exit", () => {
  for (const child of servers) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  }
})
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`read-history: ${signal}, stopping`)
    process.exit(1)
  })
}

/** Both histories, each collected from its full-history stream. */
const readBoth = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  const deposits = yield* Stream.runCollect(history.deposits({ since: 0 }))
  const transfers = yield* Stream.runCollect(history.transfers({
    fromAccountType: "SPOT",
    toAccountType: "FUTURES",
    toAccount: subAccount,
    since: 0
  }))
  return { deposits: Chunk.toReadonlyArray(deposits), transfers: Chunk.toReadonlyArray(transfers) }
})

/** Runs `program` over `layer`; a failure is thrown with its full cause, nested `cause`s included. */
const run = async (program, layer) => {
  const exit = await Effect.runPromiseExit(Effect.provide(program, layer))
  if (Exit.isSuccess(exit)) return exit.value
  const reasons = []
  for (let e of [...Cause.failures(exit.cause), ...Cause.defects(exit.cause)]) {
    for (let depth = 0; e?.cause !== undefined && depth < 5; depth++) {
      e = e.cause
      reasons.push(`  caused by: ${e?.stack ?? String(e)}`)
    }
  }
  throw new Error([Cause.pretty(exit.cause), ...reasons].join("\n"))
}

const checkOrder = (name, records, order) => {
  const disorder = HistoryOrder.problem(name, records, order)
  check(disorder === undefined, disorder)
}

const sameRecords = (name, a, b) => {
  check(a.length === b.length, `${name}: undici read ${a.length} records, fetch read ${b.length}`)
  for (let i = 0; i < a.length; i++) {
    const x = JSON.stringify(a[i])
    const y = JSON.stringify(b[i])
    check(x === y, `${name}: record ${i} differs between undici and fetch:\n  ${x}\n  ${y}`)
  }
}

/** The installed CLI's `deposits --since 0` (NDJSON on stdout), as parsed records. */
const cliDeposits = (baseUrl) =>
  new Promise((resolve, reject) => {
    execFile(bin, ["deposits", "--since", "0"], {
      env: {
        ...process.env,
        BROKER_BASE_URL: baseUrl,
        BROKER_API_KEY: ApiKeys.demo.apiKey,
        BROKER_SECRET_KEY: ApiKeys.demo.secretKey,
        BROKER_RATE_LIMIT: "500",
        BROKER_RATE_LIMIT_INTERVAL: "1s"
      },
      timeout: cliTimeoutMs,
      maxBuffer: 256 * 1024 * 1024
    }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`broker-history deposits failed (${error.code ?? error.signal}): ${stderr.trim()}`))
        return
      }
      try {
        resolve(stdout.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line)))
      } catch (cause) {
        reject(new Error(`broker-history deposits wrote a line that is not JSON: ${cause}`))
      }
    })
  })

const main = async () => {
  const started = Date.now()
  const { baseUrl } = await startServer()
  console.log(`read-history: installed CLI serves on ${baseUrl} (${Date.now() - started} ms to start)`)

  const config = BrokerConfig.layer({
    baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    rateLimit: { limit: 500, interval: "1 second" }
  })
  const undiciLive = BrokerHistory.layerUndici.pipe(Layer.provide(config))
  const fetchLive = BrokerHistory.layer.pipe(Layer.provide(config), Layer.provide(FetchHttpClient.layer))

  let t = Date.now()
  const viaUndici = await run(readBoth, undiciLive)
  const undiciMs = Date.now() - t
  t = Date.now()
  const viaFetch = await run(readBoth, fetchLive)
  const fetchMs = Date.now() - t

  check(viaUndici.deposits.length > 0, "deposits: the stream returned no records")
  check(viaUndici.transfers.length > 0, `transfers SPOT→FUTURES to ${subAccount}: the stream returned no records`)
  checkOrder("deposits (undici)", viaUndici.deposits, DepositRecord)
  checkOrder("transfers (undici)", viaUndici.transfers, TransferRecord)
  checkOrder("deposits (fetch)", viaFetch.deposits, DepositRecord)
  checkOrder("transfers (fetch)", viaFetch.transfers, TransferRecord)
  sameRecords("deposits", viaUndici.deposits, viaFetch.deposits)
  sameRecords("transfers", viaUndici.transfers, viaFetch.transfers)
  for (const r of viaUndici.transfers) {
    check(
      r.toAccount === subAccount && r.fromAccountType === "SPOT" && r.toAccountType === "FUTURES",
      `transfers: a record outside the query: ${JSON.stringify(r)}`
    )
  }

  t = Date.now()
  const exported = await cliDeposits(baseUrl)
  const cliMs = Date.now() - t
  check(exported.length > 0, "broker-history deposits --since 0 wrote no records")
  check(
    exported.length === viaUndici.deposits.length,
    `broker-history deposits --since 0 wrote ${exported.length} records, the client stream read ${viaUndici.deposits.length}`
  )
  const streamed = new Set(viaUndici.deposits.map(DepositRecord.key))
  const missing = exported.filter((r) => !streamed.has(DepositRecord.key(r)))
  check(missing.length === 0, `broker-history deposits wrote ${missing.length} deposit(s) the stream did not read`)

  console.log(
    `read-history: OK: ${viaUndici.deposits.length} deposits and ${viaUndici.transfers.length} transfers ` +
      `(SPOT→FUTURES to ${subAccount}), identical over undici (${undiciMs} ms) and fetch (${fetchMs} ms), ` +
      `ascending and unique; CLI deposits export: ${exported.length} lines (${cliMs} ms)`
  )
}

try {
  await main()
} catch (error) {
  const text = error instanceof Mismatch ? error.message : (error?.stack ?? String(error))
  console.error(`read-history: FAILED: ${text}`)
  process.exitCode = 1
} finally {
  stopServers()
}
