import { expect } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import * as Net from "node:net"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import type { Reply } from "./support/Requests.js"
import { depositsPath, get, json, sign, signedGet, transfersPath } from "./support/Requests.js"
import { unlimited, withServer } from "./support/Server.js"

// (status, code) pairs of the error table, plus the unknown-route answer.
const statusOfCode: Record<number, number> = {
  700001: 401,
  700002: 401,
  700003: 400,
  700004: 400,
  700005: 400,
  700007: 403,
  33333: 400,
  429: 429,
  404: 404
}

const leaks = [/Error:/, /\n\s+at /, /node_modules/, /Sql/i, /undefined/, /\[object/, /stack/i, /\.ts\b/, /sqlite/i]

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

// `echoed` are the texts the request itself sent: a message may name them, so they are removed
// before looking for internals.
const expectWellFormed = (reply: Reply, echoed: ReadonlyArray<string> = []) => {
  // 500 would mean hostile input reached a defect.
  expect([200, 400, 401, 403, 404, 429]).toContain(reply.status)
  expect(reply.headers["content-type"]).toMatch(/^application\/json/)
  const body = json(reply)
  if (reply.status === 200) {
    expect(typeof body === "object" && body !== null).toBe(true)
    return
  }
  const failure = body as { code: unknown; msg: unknown }
  expect(Object.keys(failure).sort()).toEqual(["code", "msg"])
  expect(typeof failure.code).toBe("number")
  expect(statusOfCode[failure.code as number]).toBe(reply.status)
  expect(typeof failure.msg).toBe("string")
  const msg = failure.msg as string
  expect(msg.length).toBeLessThan(300)
  let scrubbed = msg
  for (const text of echoed.flatMap((t) => [t, decoded(t), decoded(t).slice(0, 40)]).filter((t) => t.length > 0)) {
    scrubbed = scrubbed.split(text).join("")
  }
  for (const leak of leaks) expect(scrubbed).not.toMatch(leak)
}

const safeEncode = (text: string): string => {
  try {
    return encodeURIComponent(text)
  } catch {
    // A lone surrogate cannot be encoded: send its (invalid) UTF-8 bytes instead.
    return "%ED%A0%80"
  }
}

const hostileText = fc.oneof(
  fc.constantFrom(
    "",
    "9".repeat(400),
    "-1",
    "-0",
    "0",
    "00",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e3",
    "0x1F",
    "1.5",
    "+1",
    "%20%31",
    "%EF%BC%99",
    "%",
    "%zz",
    "%E0%A4%A",
    "%00",
    "%C0%AF",
    "%FF",
    "%2",
    "null",
    "undefined",
    "[]",
    "{}",
    "SPOT",
    "FUTURES",
    "9007199254740993",
    "18446744073709551616",
    "a=b=c",
    "\u00e9\u00ff",
    "a".repeat(10_240)
  ),
  fc.fullUnicodeString({ maxLength: 12 }).map(safeEncode),
  fc.stringMatching(/^-?[0-9]{1,25}$/)
)

const hostileName = fc.oneof(
  fc.constantFrom(
    "fromAccountType",
    "toAccountType",
    "fromAccount",
    "toAccount",
    "clientTranId",
    "startTime",
    "endTime",
    "page",
    "limit",
    "coin",
    "status",
    "recvWindow",
    "timestamp",
    "signature",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "",
    "%",
    "%zz",
    "%E0%A4%A",
    "%66romAccountType"
  ),
  hostileText
)

const hostileQuery = fc.record({
  params: fc.array(
    fc.record({ name: hostileName, value: hostileText, bare: fc.integer({ min: 0, max: 9 }).map((n) => n === 0) }),
    { maxLength: 10 }
  ),
  // Often start from a valid request so that the later checks are reached too.
  valid: fc.boolean(),
  signing: fc.constantFrom("signed", "unsigned", "noKey"),
  path: fc.constantFrom(transfersPath, depositsPath, transfersPath, depositsPath, "/api/v3/time", "/api/v3/zz"),
  separator: fc.constantFrom("&", "&", "&", "&&")
})

withServer({
  seed: { seed: 5, transfers: 500, deposits: 100 },
  rateLimit: unlimited
})("hostile input", (it) => {
  it.effect.prop(
    "random and hostile query strings always get a well-formed {code,msg} (or data) and never a 500",
    { q: hostileQuery },
    ({ q }) =>
      Effect.gen(function*() {
        const { baseUrl } = yield* ReferenceServer.ReferenceServer
        const parts = q.params.map((p) => p.bare ? p.name : `${p.name}=${p.value}`)
        if (q.valid) {
          parts.unshift(q.path === transfersPath ? "fromAccountType=SPOT&toAccountType=FUTURES" : "coin=USDT")
        }
        let raw = parts.join(q.separator)
        if (q.signing === "signed") {
          raw = `${raw}${raw === "" ? "" : "&"}timestamp=${Date.now()}`
          raw = `${raw}&signature=${sign(ApiKeys.demo.secretKey, raw)}`
        }
        const headers: Record<string, string> = q.signing === "noKey" ? {} : { "X-MEXC-APIKEY": ApiKeys.demo.apiKey }
        expectWellFormed(yield* get(baseUrl, `${q.path}?${raw}`, { headers }), q.params.map((p) => p.name))
      }),
    { timeout: 90_000, fastCheck: { numRuns: 400 } }
  )

  it.effect("requests Node cannot parse still get a {code,msg} body, and the server keeps serving", () =>
    Effect.gen(function*() {
      const { baseUrl, port } = yield* ReferenceServer.ReferenceServer
      // 20 KB of query string: beyond Node's header size limit.
      expectWellFormed(yield* get(baseUrl, `${depositsPath}?coin=${"A".repeat(20_000)}`))
      const raw = (text: string) =>
        Effect.async<string>((resume) => {
          const chunks: Array<Buffer> = []
          const socket = Net.connect({ host: "127.0.0.1", port }, () => socket.end(text))
          socket.on("data", (c: Buffer) => chunks.push(c))
          socket.on("close", () => resume(Effect.succeed(Buffer.concat(chunks).toString("latin1"))))
          socket.on("error", () => undefined)
        })
      for (const request of ["HELLO\r\n\r\n", "GET /api/v3/ping?a=\u0001 HTTP/1.1\r\nHost: x\r\n\r\n"]) {
        const answer = yield* raw(request)
        expect(answer).toMatch(/^HTTP\/1\.1 400 /)
        const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))
        expect(body).toEqual({ code: 33333, msg: "Param is error: malformed HTTP request" })
      }
      expect((yield* get(baseUrl, "/api/v3/ping")).status).toBe(200)
      expect((yield* signedGet(baseUrl, depositsPath, [], ApiKeys.demo)).status).toBe(200)
    }))

  it.effect("hostile values reach business validation only after a valid signature, and name what is wrong", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* ReferenceServer.ReferenceServer
      const headers = { "X-MEXC-APIKEY": ApiKeys.demo.apiKey }
      const signedRaw = (path: string, query: string) => {
        const payload = `${query}&timestamp=${Date.now()}`
        return get(baseUrl, `${path}?${payload}&signature=${sign(ApiKeys.demo.secretKey, payload)}`, { headers })
      }
      const cases: Array<readonly [string, string, RegExp]> = [
        [depositsPath, "coin=%zz", /coin is not valid percent-encoded UTF-8/],
        [depositsPath, "%zz=1", /%zz is not valid percent-encoded UTF-8/],
        [depositsPath, "limit=NaN", /limit must be base-10 integer text/],
        [depositsPath, `limit=${"9".repeat(400)}`, /limit must be base-10 integer text/],
        [depositsPath, "limit=-1", /limit/],
        [depositsPath, "__proto__=1", /__proto__ is not a parameter of this endpoint/],
        [depositsPath, `${"x".repeat(10_240)}=1`, /^Param is error: x{40}… is not a parameter/],
        [depositsPath, "coin=USDT&coin=BTC", /coin is repeated/],
        [transfersPath, "fromAccountType=SPOT&toAccountType=FUTURES&startTime=1e3", /startTime/],
        [transfersPath, `fromAccountType=SPOT&toAccountType=%E6%97%A5`, /toAccountType must be SPOT or FUTURES/]
      ]
      for (const [path, query, detail] of cases) {
        const reply = yield* signedRaw(path, query)
        expectWellFormed(reply)
        expect(json(reply)).toMatchObject({ code: 33333 })
        expect((json(reply) as { msg: string }).msg).toMatch(detail)
      }
    }))
})
