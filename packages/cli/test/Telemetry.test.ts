// `--otlp-endpoint` and OTEL_EXPORTER_OTLP_ENDPOINT end to end: the CLI as a child process against the
// reference service, exporting to a loopback OTLP/HTTP receiver that records every request. Off by
// default: then nothing is sent to it and no OpenTelemetry module is loaded.
import { ApiKeys, Seed } from "@broker-history/server"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import type * as Http from "node:http"
import * as NodeHttp from "node:http"
import * as Net from "node:net"
import * as Path from "node:path"
import * as Zlib from "node:zlib"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { bin, cli, cliEnv, packageDir, spawn, useReferenceServer } from "./support/Harness.js"

const { running, temp } = useReferenceServer({ seed: { seed: 5, transfers: 2000, deposits: 300, subAccounts: 2 } })

interface Received {
  readonly path: string
  readonly contentType: string
  readonly body: Buffer
}

/** Every OTLP request the receiver got, body decompressed when it came gzipped. */
const received: Array<Received> = []
const receiver = NodeHttp.createServer((request: Http.IncomingMessage, response: Http.ServerResponse) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const raw = Buffer.concat(chunks)
    received.push({
      path: request.url ?? "",
      contentType: String(request.headers["content-type"]),
      body: request.headers["content-encoding"] === "gzip" ? Zlib.gunzipSync(raw) : raw
    })
    response.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})
let endpoint = ""

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  const address = receiver.address()
  endpoint = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
})
afterAll(async () => {
  receiver.closeAllConnections()
  await new Promise((resolve) => receiver.close(resolve))
})
beforeEach(() => {
  received.length = 0
})

/** The child's environment without any OTEL_* variable of this process. */
const env = (extra: Record<string, string> = {}) => {
  const base = cliEnv(running.server.baseUrl, { BROKER_RATE_LIMIT: "200", ...extra })
  for (const name of Object.keys(base)) if (name.startsWith("OTEL_") && !(name in extra)) delete base[name]
  return base
}

const transfers = ["transfers", "--from-account-type", "SPOT", "--to-account-type", "FUTURES", "--since", "3y"]

/** An OTLP/JSON attribute's value. */
const attribute = (item: any, key: string) => item.attributes.find((a: any) => a.key === key)?.value

/** The transfer endpoint's data point of metric `name` in an OTLP/JSON metrics body. */
const transferPoint = (body: any, name: string, data: (metric: any) => any) =>
  body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics))
    .filter((m: any) => m.name === name)
    .flatMap((m: any) => data(m)?.dataPoints ?? [])
    .find((p: any) => attribute(p, "endpoint")?.stringValue === "transferHistory")

/** What was exported, as text, and what must never be in it. */
const exportedText = () => received.map((r) => r.body.toString("utf8")).join("\n")
const secrets = [ApiKeys.demo.apiKey, ApiKeys.demo.secretKey, "signature", "timestamp="]

describe("OpenTelemetry export", () => {
  it(
    "--otlp-endpoint: the export's spans and metrics reach the collector, without key, secret or signature",
    async () => {
      const result = await cli([...transfers, "--otlp-endpoint", `${endpoint}/`], env())
      expect(result.stderr).toBe("")
      expect(result.code).toBe(0)
      const records = result.stdout.split("\n").filter((line) => line !== "").length
      expect(records).toBeGreaterThan(0)

      const traces = received.filter((r) => r.path === "/v1/traces")
      const metrics = received.filter((r) => r.path === "/v1/metrics")
      expect(traces.length).toBeGreaterThan(0)
      expect(metrics.length).toBeGreaterThan(0)
      expect(received.every((r) => r.path === "/v1/traces" || r.path === "/v1/metrics")).toBe(true)

      // OTLP/JSON: the service name, one client span per request with its attempt, the pipeline's metrics.
      const spans = traces.flatMap((r) =>
        JSON.parse(r.body.toString("utf8")).resourceSpans.flatMap((rs: any) => {
          expect(rs.resource.attributes).toContainEqual({
            key: "service.name",
            value: { stringValue: "broker-history" }
          })
          return rs.scopeSpans.flatMap((ss: any) => ss.spans)
        })
      )
      const gets = spans.filter((s: any) => s.name === "BrokerHttpClient.get transferHistory")
      const getIds = new Set(gets.map((s: any) => s.spanId))
      const attempts = spans.filter((s: any) => s.name === "BrokerHttpClient.attempt" && getIds.has(s.parentSpanId))
      expect(gets.length).toBeGreaterThan(0)
      expect(attempts.length).toBe(gets.length)
      // The server's now, read once through the same pipeline: its own span with its attempt.
      const syncs = spans.filter((s: any) => s.name === "ServerClock.sync")
      expect(syncs.length).toBe(1)
      expect(spans.filter((s: any) => s.parentSpanId === syncs[0].spanId).map((s: any) => s.name)).toEqual([
        "BrokerHttpClient.attempt"
      ])
      expect(gets.reduce((n: number, s: any) => n + Number(attribute(s, "broker.records")?.intValue), 0))
        .toBe(records)

      // The final metric values (sent when the command closed): one request per span, every record counted.
      const last = JSON.parse(metrics.at(-1)!.body.toString("utf8"))
      const requests = transferPoint(last, "broker_history_requests_total", (m) => m.sum)
      const counted = transferPoint(last, "broker_history_records_total", (m) => m.sum)
      const durations = transferPoint(last, "broker_history_request_duration_seconds", (m) => m.histogram)
      expect(Number(requests?.asDouble ?? requests?.asInt)).toBe(attempts.length)
      expect(Number(counted?.asDouble ?? counted?.asInt)).toBe(records)
      expect(Number(durations?.count)).toBe(attempts.length)

      const text = exportedText()
      for (const secret of secrets) expect(text.includes(secret), secret).toBe(false)
    },
    60_000
  )

  it("OTEL_EXPORTER_OTLP_ENDPOINT: sync exports too", async () => {
    const pairs = Path.join(temp.dir, "pairs.txt")
    Fs.writeFileSync(pairs, `- ${Seed.subAccountNames(1)[0]}\n`)
    const db = Path.join(temp.dir, "telemetry.db")
    const result = await cli(
      ["sync", "--db", db, "--pairs", pairs, "--since", "3y"],
      env({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(received.some((r) => r.path === "/v1/traces")).toBe(true)
    expect(received.some((r) => r.path === "/v1/metrics")).toBe(true)
    const text = exportedText()
    expect(text).toContain("BrokerHttpClient.get depositHistory")
    for (const secret of secrets) expect(text.includes(secret), secret).toBe(false)
  }, 60_000)

  it("off by default: nothing exported and no OpenTelemetry module loaded", async () => {
    const loads = Path.join(temp.dir, "loads.txt")
    // Not spawnSync: the reference service runs in this process and must keep answering.
    const child = ChildProcess.spawn(
      process.execPath,
      ["--import", Path.join(packageDir, "test/support/record-loads.mjs"), bin, ...transfers],
      { env: { ...env(), RECORD_LOADS_FILE: loads }, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 }
    )
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const code = await new Promise((resolve) => child.on("close", resolve))
    expect(code, stderr).toBe(0)
    expect(stdout.length).toBeGreaterThan(0)
    const urls = Fs.readFileSync(loads, "utf8").trim().split("\n")
    expect(urls.length).toBeGreaterThan(50)
    expect(urls.filter((url) => /opentelemetry|cli\/src\/Telemetry\./.test(url))).toEqual([])
    expect(received).toEqual([])
  }, 60_000)

  it("an endpoint that is not an http(s) URL: exit 2 before any request", async () => {
    const before = (await running.run(running.server.stats)).requests
    const result = await cli([...transfers, "--otlp-endpoint", "127.0.0.1:4318"], env())
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("OTEL_EXPORTER_OTLP_ENDPOINT: must be an http:// or https:// URL")
    expect((await running.run(running.server.stats)).requests).toBe(before)
    expect(received).toEqual([])
  }, 60_000)
})

/**
 * Runs `args` and measures how long the process took to exit after its last record reached stdout:
 * the wait for the collector when the command ends.
 */
const afterLastRecord = async (args: ReadonlyArray<string>, environment: Record<string, string>) => {
  const child = spawn(args, environment, 60_000)
  let last = Date.now()
  child.process.stdout!.on("data", () => {
    last = Date.now()
  })
  const result = await child.done
  return { result, waited: Date.now() - last }
}

/** A collector address on 127.0.0.1 that accepts connections and never answers; `close` stops it. */
const silentCollector = async () => {
  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((socket) => {
    sockets.add(socket)
    socket.on("error", () => {})
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as Net.AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

/** A collector address on 127.0.0.1 that refuses connections: a port just released. */
const refusingCollector = async () => {
  const server = Net.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as Net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}`
}

describe("an unreachable collector", () => {
  // The documented bound is 5 s; the test allows for a slow machine, and the wait before the bound
  // was enforced was about 10 s (the exporters' own timeout, then their retries).
  const bound = 8_000

  it(
    "one that accepts connections and never answers delays the exit by at most the bound; the export is complete",
    async () => {
      const collector = await silentCollector()
      try {
        const { result, waited } = await afterLastRecord([...transfers, "--otlp-endpoint", collector.endpoint], env())
        expect(result.stderr).toBe("")
        expect(result.code).toBe(0)
        expect(result.stdout.split("\n").filter((line) => line !== "").length).toBeGreaterThan(0)
        expect(waited).toBeLessThan(bound)
      } finally {
        await collector.close()
      }
    },
    60_000
  )

  it("one that refuses connections delays the exit by at most the bound", async () => {
    const endpoint = await refusingCollector()
    const { result, waited } = await afterLastRecord(
      ["deposits", "--since", "3y"],
      env({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(waited).toBeLessThan(bound)
  }, 60_000)
})
