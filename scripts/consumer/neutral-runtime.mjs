// Consumer check (g): a line's installed client (the project's line.mjs: the Effect 3 or the Effect 4
// line) on Node, Bun and Deno, against the reference service at BROKER_BASE_URL (run by run.sh under
// Node):
//   - the neutral path: one `transferHistory` page through `BrokerHistory.layer` over
//     `FetchHttpClient.layer`;
//   - the full histories through the README's ready layer, `BrokerHistory.layerConfig()` (the
//     BROKER_* variables): every deposit and every SPOT→FUTURES transfer from REFERENCE_SINCE to
//     REFERENCE_UNTIL (Unix ms), each record once and in ascending order (the line's key and
//     compare), and, as JSON lines, exactly the reference exports run.sh made of that range:
//     REFERENCE_DEPOSITS and REFERENCE_TRANSFERS are "<lines> <sha256 of the file>".
// Records coming back means the service accepted the WebCrypto HMAC signatures and fetch (or, for
// layerConfig on Node, the transport it picks there) works on this runtime. Imports nothing from Node.
import { Effect, Layer, Redacted, Stream } from "effect"
import * as HistoryOrder from "./history-order.mjs"
import { BrokerConfig, BrokerHistory, DepositRecord, FetchHttpClient, line, TransferRecord } from "./line.mjs"

const runtime = globalThis.Bun !== undefined
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno !== undefined
  ? `deno ${globalThis.Deno.version.deno}`
  : `node ${globalThis.process.versions.node}`
const env = (name) => globalThis.Deno !== undefined ? globalThis.Deno.env.get(name) : globalThis.process.env[name]

class Mismatch extends Error {}
const fail = (message) => {
  throw new Mismatch(message)
}
const required = (name) => env(name) ?? fail(`${name} is not set (run.sh sets it)`)

const neutral = () =>
  BrokerHistory.layer.pipe(
    Layer.provide(BrokerConfig.layer({
      baseUrl: required("BROKER_BASE_URL"),
      apiKey: Redacted.make(required("BROKER_API_KEY")),
      secretKey: Redacted.make(required("BROKER_SECRET_KEY")),
      retry: { maxRetries: 2 }
    })),
    Layer.provide(FetchHttpClient.layer)
  )

const page = Effect.gen(function*() {
  const history = yield* BrokerHistory.BrokerHistory
  return yield* history.transferHistory({ fromAccountType: "SPOT", toAccountType: "FUTURES", limit: 100 })
})

const fullHistories = (since, until) =>
  Effect.gen(function*() {
    const history = yield* BrokerHistory.BrokerHistory
    // runCollect gives a Chunk on Effect 3 and an array on Effect 4: Array.from reads both.
    const deposits = Array.from(yield* Stream.runCollect(history.deposits({ since, until })))
    const transfers = Array.from(
      yield* Stream.runCollect(history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", since, until }))
    )
    return { deposits, transfers }
  })

/** The records' JSON lines as the CLI exports them, as "<lines> <sha256>". */
const digest = async (records) => {
  const text = records.map((r) => JSON.stringify(r) + "\n").join("")
  const hash = new Uint8Array(
    await globalThis.crypto.subtle.digest("SHA-256", new globalThis.TextEncoder().encode(text))
  )
  return `${records.length} ${Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("")}`
}

/** Each record once (by key) and in ascending order, and the same records as the reference export. */
const check = async (name, records, order, reference) => {
  const disorder = HistoryOrder.problem(name, records, order)
  if (disorder !== undefined) fail(disorder)
  const read = await digest(records)
  if (read !== reference) {
    fail(
      `${name}: read ${read.split(" ")[0]} records that differ from the reference export's ${
        reference.split(" ")[0]
      } (JSON lines "<count> <sha256>": read ${read}, export ${reference})`
    )
  }
}

try {
  const started = Date.now()
  const first = await Effect.runPromise(Effect.provide(page, neutral()))
  if (first.length === 0) fail("transferHistory returned an empty page")
  const read = Date.now()
  const range = fullHistories(Number(required("REFERENCE_SINCE")), Number(required("REFERENCE_UNTIL")))
  const { deposits, transfers } = await Effect.runPromise(Effect.provide(range, BrokerHistory.layerConfig()))
  const readMs = Date.now() - read
  await check("deposits", deposits, DepositRecord, required("REFERENCE_DEPOSITS"))
  await check("transfers SPOT→FUTURES", transfers, TransferRecord, required("REFERENCE_TRANSFERS"))
  console.log(
    `neutral-runtime (${line}, ${runtime}): OK: a transferHistory page of ${first.length} over fetch; through ` +
      `BrokerHistory.layerConfig() ${deposits.length} deposits and ${transfers.length} SPOT→FUTURES transfers ` +
      `(${readMs} ms), once each, ascending, as the reference export (${Date.now() - started} ms in all)`
  )
} catch (error) {
  console.error(
    `neutral-runtime (${line}, ${runtime}): FAILED: ${
      error instanceof Mismatch ? error.message : error?.stack ?? error
    }`
  )
  if (globalThis.Deno !== undefined) globalThis.Deno.exit(1)
  globalThis.process.exit(1)
}
