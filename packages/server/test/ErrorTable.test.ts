import { describe, expect } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import type { Credentials, Reply } from "./support/Requests.js"
import { depositsPath, get, json, queryOf, sign, signedGet, signedTarget, transfersPath } from "./support/Requests.js"
import { withServer } from "./support/Server.js"

const demo: Credentials = ApiKeys.demo
const transferOnly: Credentials = { apiKey: "transfer-only", secretKey: "secret-transfer-only" }
const depositOnly: Credentials = { apiKey: "deposit-only", secretKey: "secret-deposit-only" }
const noPermission: Credentials = { apiKey: "no-permission", secretKey: "secret-no-permission" }

const keys: ReadonlyArray<ApiKeys.ApiKey> = [
  ApiKeys.demo,
  { ...transferOnly, permissions: ["SPOT_TRANSFER_READ"] },
  { ...depositOnly, permissions: ["SPOT_DEPOSIT_READ"] },
  { ...noPermission, permissions: [] }
]

// The error table of docs/wire-contract.md, written out here rather than imported, so the test checks the
// server against the document and not against its own constants.
const expectFailure = (reply: Reply, status: number, code: number, msg: string | RegExp) => {
  expect(reply.status).toBe(status)
  expect(reply.headers["content-type"]).toMatch(/^application\/json/)
  const body = json(reply) as { code: unknown; msg: unknown }
  expect(Object.keys(body).sort()).toEqual(["code", "msg"])
  expect(body.code).toBe(code)
  if (typeof msg === "string") expect(body.msg).toBe(msg)
  else expect(body.msg).toMatch(msg)
}
const invalidApiKey = (r: Reply) => expectFailure(r, 401, 700001, "API-key format invalid.")
const badSignature = (r: Reply) => expectFailure(r, 401, 700002, "Signature for this request is not valid.")
const outsideRecvWindow = (r: Reply) =>
  expectFailure(r, 400, 700003, "Timestamp for this request is outside of the recvWindow.")
const mandatory = (r: Reply, name: string) =>
  expectFailure(r, 400, 700004, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`)
const recvWindowRange = (r: Reply) => expectFailure(r, 400, 700005, "recvWindow must less than 60000")
const noPermissionRow = (r: Reply) => expectFailure(r, 403, 700007, "No permission to access the endpoint.")
const invalidParameter = (r: Reply, detail: RegExp) => {
  expectFailure(r, 400, 33333, /^Param is error: /)
  expect((json(r) as { msg: string }).msg).toMatch(detail)
}

const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]] as const
const day = 24 * 60 * 60 * 1000

withServer({
  keys,
  seed: { seed: 7, transfers: 3000, deposits: 400, subAccounts: 5 },
  rateLimit: { limit: 100_000, window: "10 seconds" }
})("the error table over real HTTP", (it) => {
  const server = ReferenceServer.ReferenceServer

  it.effect("a request signed with node:crypto is accepted and answers the stored records, newest first", () =>
    Effect.gen(function*() {
      const { baseUrl, store } = yield* server
      const sub = "sub002@broker.test"
      // Built and signed by hand, byte for byte: the acceptance path does not go through any helper.
      const query = `toAccount=${encodeURIComponent(sub)}&fromAccountType=SPOT&toAccountType=FUTURES&limit=500`
        + `&recvWindow=5000&timestamp=${Date.now()}`
      const { createHmac } = yield* Effect.promise(() => import("node:crypto"))
      const signature = createHmac("sha256", ApiKeys.demo.secretKey).update(query).digest("hex")
      const reply = yield* get(baseUrl, `${transfersPath}?${query}&signature=${signature}`, {
        headers: { "X-MEXC-APIKEY": ApiKeys.demo.apiKey }
      })
      expect(reply.status).toBe(200)
      const records = json(reply) as Array<Record<string, unknown>>
      const expected = yield* store.allTransfers({
        fromAccount: null,
        toAccount: sub,
        fromAccountType: "SPOT",
        toAccountType: "FUTURES"
      })
      expect(expected.length).toBeGreaterThan(0)
      expect(records.map((r) => r.tranId)).toEqual(expected.map((r) => r.tranId).reverse())
      for (const record of records) {
        expect(typeof record.tranId).toBe("string")
        expect(record.amount).toMatch(/^\d+(\.\d+)?$/)
        expect(record.fromAccount).toBe("master@broker.test")
        expect(record.toAccount).toBe(sub)
        expect(record.clientTranId === null || /^[A-Za-z0-9]{32}$/.test(String(record.clientTranId))).toBe(true)
        expect(Object.keys(record)).toEqual([
          "tranId",
          "clientTranId",
          "fromAccount",
          "toAccount",
          "asset",
          "amount",
          "fromAccountType",
          "toAccountType",
          "fromSymbol",
          "toSymbol",
          "status",
          "timestamp"
        ])
      }
    }))

  it.effect("deposits: default window is the last 10 days, status is a number, filters are exact", () =>
    Effect.gen(function*() {
      const { baseUrl, store } = yield* server
      const now = Date.now()
      const lastTenDays = yield* store.allDeposits({ startTime: now - 10 * day + 5000, endTime: now - 5000 })
      const reply = yield* signedGet(baseUrl, depositsPath, [["limit", "1000"]], demo)
      expect(reply.status).toBe(200)
      const records = json(reply) as Array<{ txId: string; status: unknown; insertTime: number }>
      // Rows well inside the window are all there; nothing older than 10 days is.
      const ids = new Set(records.map((r) => r.txId + r.insertTime))
      for (const row of lastTenDays) expect(ids.has(row.txId + row.insertTime)).toBe(true)
      for (const record of records) {
        expect(typeof record.status).toBe("number")
        expect(record.insertTime).toBeGreaterThanOrEqual(now - 10 * day - 1000)
      }
      const all = yield* store.allDeposits()
      const sample = all[all.length - 1]!
      const filtered = yield* signedGet(baseUrl, depositsPath, [
        ["coin", sample.coin],
        ["status", String(sample.status)],
        ["startTime", String(sample.insertTime - day)],
        ["endTime", String(sample.insertTime)]
      ], demo)
      const got = json(filtered) as Array<{ coin: string; status: number }>
      expect(got.length).toBeGreaterThan(0)
      expect(got.every((d) => d.coin === sample.coin && d.status === sample.status)).toBe(true)
      // "05" is not the status text "5": exact filters match nothing.
      const padded = yield* signedGet(baseUrl, depositsPath, [
        ["status", "0" + String(sample.status)],
        ["startTime", String(sample.insertTime - day)],
        ["endTime", String(sample.insertTime)]
      ], demo)
      expect(json(padded)).toEqual([])
    }))

  it.effect("700001: missing, empty or unknown API key; a valid signature reveals nothing more", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const target = signedTarget(transfersPath, route, demo)
      invalidApiKey(yield* get(baseUrl, target))
      invalidApiKey(yield* get(baseUrl, target, { headers: { "X-MEXC-APIKEY": "" } }))
      invalidApiKey(yield* get(baseUrl, target, { headers: { "X-MEXC-APIKEY": "nobody" } }))
      invalidApiKey(yield* get(baseUrl, signedTarget(depositsPath, [], demo)))
      // An unknown key with broken everything gets the same answer as one with a perfect request.
      invalidApiKey(yield* get(baseUrl, `${transfersPath}?garbage`, { headers: { "X-MEXC-APIKEY": "nobody" } }))
    }))

  it.effect("700002: wrong secret, tampering with any single parameter, signature not last or not lowercase", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const headers = { "X-MEXC-APIKEY": demo.apiKey }
      badSignature(yield* signedGet(baseUrl, transfersPath, route, { ...demo, secretKey: "wrong" }))
      const params: Array<readonly [string, string]> = [
        ["fromAccount", "sub001@broker.test"],
        ["fromAccountType", "SPOT"],
        ["toAccountType", "FUTURES"],
        ["startTime", "1000"],
        ["endTime", String(Date.now())],
        ["page", "1"],
        ["limit", "10"],
        ["recvWindow", "5000"],
        ["timestamp", String(Date.now())]
      ]
      const query = queryOf(params)
      const signature = sign(demo.secretKey, query)
      expect((yield* get(baseUrl, `${transfersPath}?${query}&signature=${signature}`, { headers })).status).toBe(200)
      for (let i = 0; i < params.length; i++) {
        const [name, value] = params[i]!
        const tampered = params.map((p, j) => j === i ? [name, value + "1"] as const : p)
        badSignature(yield* get(baseUrl, `${transfersPath}?${queryOf(tampered)}&signature=${signature}`, { headers }))
      }
      const appended = `${query}&limit=20&signature=${signature}`
      badSignature(yield* get(baseUrl, `${transfersPath}?${appended}`, { headers }))
      const dropped = queryOf(params.filter(([n]) => n !== "endTime"))
      badSignature(yield* get(baseUrl, `${transfersPath}?${dropped}&signature=${signature}`, { headers }))
      badSignature(yield* get(baseUrl, `${transfersPath}?${query}&signature=${signature.toUpperCase()}`, { headers }))
      badSignature(yield* get(baseUrl, `${transfersPath}?signature=${signature}&${query}`, { headers }))
      badSignature(
        yield* get(baseUrl, `${transfersPath}?${query}&signature=${signature}&signature=${signature}`, { headers })
      )
      badSignature(yield* get(baseUrl, `${transfersPath}?${query}&signature=${signature.slice(1)}`, { headers }))
    }))

  it.effect("700003: timestamp too old for recvWindow, or at/after serverTime + 1000", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const now = Date.now()
      outsideRecvWindow(yield* signedGet(baseUrl, transfersPath, route, demo, { timestamp: now - 6000 }))
      expect(
        (yield* signedGet(baseUrl, transfersPath, route, demo, { timestamp: now - 6000, recvWindow: 60_000 }))
          .status
      ).toBe(200)
      outsideRecvWindow(
        yield* signedGet(baseUrl, transfersPath, route, demo, { timestamp: now - 500, recvWindow: 100 })
      )
      outsideRecvWindow(yield* signedGet(baseUrl, depositsPath, [], demo, { timestamp: now + 5000 }))
      outsideRecvWindow(yield* signedGet(baseUrl, depositsPath, [], demo, { timestamp: Date.now() + 1100 }))
      outsideRecvWindow(yield* signedGet(baseUrl, depositsPath, [], demo, { timestamp: 0, recvWindow: 60_000 }))
    }))

  it.effect("700003: replaying a request that was accepted is refused once its recvWindow has passed", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const target = signedTarget(depositsPath, [["coin", "USDT"]], demo, { recvWindow: 1000 })
      const headers = { "X-MEXC-APIKEY": demo.apiKey }
      expect((yield* get(baseUrl, target, { headers })).status).toBe(200)
      yield* Effect.sleep("1100 millis")
      outsideRecvWindow(yield* get(baseUrl, target, { headers }))
    }))

  it.effect("700004: timestamp, signature, fromAccountType or toAccountType missing, empty or malformed", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const headers = { "X-MEXC-APIKEY": demo.apiKey }
      const unsigned = queryOf([...route, ["timestamp", String(Date.now())]])
      mandatory(yield* get(baseUrl, `${transfersPath}?${unsigned}`, { headers }), "signature")
      mandatory(yield* get(baseUrl, `${transfersPath}?${unsigned}&signature=`, { headers }), "signature")
      const noTimestamp = queryOf(route)
      mandatory(
        yield* get(baseUrl, `${transfersPath}?${noTimestamp}&signature=${sign(demo.secretKey, noTimestamp)}`, {
          headers
        }),
        "timestamp"
      )
      for (const bad of ["", "abc", "-1", "1.5", "1e12", "99999999999999999999"]) {
        const query = queryOf([...route, ["timestamp", bad]])
        mandatory(
          yield* get(baseUrl, `${transfersPath}?${query}&signature=${sign(demo.secretKey, query)}`, { headers }),
          "timestamp"
        )
      }
      mandatory(yield* signedGet(baseUrl, transfersPath, [["toAccountType", "FUTURES"]], demo), "fromAccountType")
      mandatory(yield* signedGet(baseUrl, transfersPath, [["fromAccountType", "SPOT"]], demo), "toAccountType")
      mandatory(
        yield* signedGet(baseUrl, transfersPath, [["fromAccountType", ""], ["toAccountType", "SPOT"]], demo),
        "fromAccountType"
      )
    }))

  it.effect("700005: recvWindow not an integer from 1 to 60000", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const headers = { "X-MEXC-APIKEY": demo.apiKey }
      for (const bad of ["0", "60001", "-5", "abc", "", "1.5", "5000000000000000000000"]) {
        const query = queryOf([["coin", "USDT"], ["recvWindow", bad], ["timestamp", String(Date.now())]])
        recvWindowRange(
          yield* get(baseUrl, `${depositsPath}?${query}&signature=${sign(demo.secretKey, query)}`, { headers })
        )
      }
      expect((yield* signedGet(baseUrl, depositsPath, [], demo, { recvWindow: 60_000 })).status).toBe(200)
      expect((yield* signedGet(baseUrl, depositsPath, [], demo, { recvWindow: 1, timestamp: Date.now() + 500 })).status)
        .toBe(200)
    }))

  it.effect("700007: a key without the endpoint's permission", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      noPermissionRow(yield* signedGet(baseUrl, transfersPath, route, depositOnly))
      noPermissionRow(yield* signedGet(baseUrl, depositsPath, [], transferOnly))
      noPermissionRow(yield* signedGet(baseUrl, transfersPath, route, noPermission))
      noPermissionRow(yield* signedGet(baseUrl, depositsPath, [], noPermission))
      expect((yield* signedGet(baseUrl, transfersPath, route, transferOnly)).status).toBe(200)
      expect((yield* signedGet(baseUrl, depositsPath, [], depositOnly)).status).toBe(200)
    }))

  it.effect("33333: every other invalid parameter, naming it", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const transfers = (params: ReadonlyArray<readonly [string, string]>) =>
        signedGet(baseUrl, transfersPath, params, demo)
      const deposits = (params: ReadonlyArray<readonly [string, string]>) =>
        signedGet(baseUrl, depositsPath, params, demo)
      invalidParameter(yield* transfers([...route, ["limit", "0"]]), /^Param is error: limit /)
      invalidParameter(yield* transfers([...route, ["limit", "501"]]), /limit must be an integer from 1 to 500/)
      invalidParameter(yield* transfers([...route, ["limit", "abc"]]), /limit/)
      invalidParameter(yield* transfers([...route, ["page", "0"]]), /page/)
      invalidParameter(yield* transfers([...route, ["clientTranId", "short"]]), /clientTranId/)
      invalidParameter(yield* transfers([...route, ["clientTranId", "a".repeat(31) + "-"]]), /clientTranId/)
      invalidParameter(yield* transfers([...route, ["startTime", "5"], ["endTime", "4"]]), /startTime/)
      invalidParameter(yield* transfers([...route, ["startTime", "-5"]]), /startTime/)
      invalidParameter(yield* transfers([...route, ["fromAccount", ""]]), /fromAccount/)
      invalidParameter(yield* transfers([["fromAccountType", "MARGIN"], ["toAccountType", "SPOT"]]), /fromAccountType/)
      invalidParameter(yield* transfers([["fromAccountType", "SPOT"], ["toAccountType", "spot"]]), /toAccountType/)
      invalidParameter(yield* transfers([...route, ["symbol", "BTCUSDT"]]), /symbol is not a parameter/)
      invalidParameter(yield* transfers([...route, ["limit", "10"], ["limit", "10"]]), /limit is repeated/)
      invalidParameter(yield* transfers([...route, ["fromAccountType", "SPOT"]]), /fromAccountType is repeated/)
      invalidParameter(yield* deposits([["limit", "1001"]]), /limit must be an integer from 1 to 1000/)
      invalidParameter(yield* deposits([["coin", ""]]), /coin/)
      invalidParameter(yield* deposits([["startTime", "0"], ["endTime", String(10 * day + 1)]]), /endTime - startTime/)
      invalidParameter(yield* deposits([["endTime", "1000"]]), /startTime must not be after endTime/)
      invalidParameter(yield* deposits([["page", "1"], ["page", "2"]]), /page is repeated/)
      expect((yield* deposits([["startTime", "0"], ["endTime", String(10 * day)]])).status).toBe(200)
    }))

  it.effect("checks run in the documented order: key, signature fields, recvWindow, signature, time, permission, parameters", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const headers = { "X-MEXC-APIKEY": depositOnly.apiKey }
      const old = Date.now() - 60_000
      invalidApiKey(yield* get(baseUrl, `${transfersPath}?recvWindow=0`, { headers: { "X-MEXC-APIKEY": "x" } }))
      mandatory(yield* get(baseUrl, `${transfersPath}?recvWindow=0&timestamp=1`, { headers }), "signature")
      recvWindowRange(yield* get(baseUrl, `${transfersPath}?recvWindow=0&timestamp=1&signature=00`, { headers }))
      badSignature(
        yield* get(baseUrl, `${transfersPath}?limit=0&timestamp=${old}&signature=${"0".repeat(64)}`, { headers })
      )
      outsideRecvWindow(yield* signedGet(baseUrl, transfersPath, [["limit", "0"]], depositOnly, { timestamp: old }))
      noPermissionRow(yield* signedGet(baseUrl, transfersPath, [["limit", "0"]], depositOnly))
      invalidParameter(yield* signedGet(baseUrl, transfersPath, [["limit", "0"], ...route], demo), /limit/)
    }))

  it.effect("unsigned endpoints: time and ping; unknown routes answer 404 with a {code,msg} body", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* server
      const before = Date.now()
      const time = yield* get(baseUrl, "/api/v3/time")
      expect(time.status).toBe(200)
      const serverTime = (json(time) as { serverTime: number }).serverTime
      expect(Number.isSafeInteger(serverTime) && serverTime >= before).toBe(true)
      const ping = yield* get(baseUrl, "/api/v3/ping")
      expect([ping.status, json(ping)]).toEqual([200, {}])
      expectFailure(yield* get(baseUrl, "/api/v3/nothing"), 404, 404, "Not found.")
      expectFailure(yield* get(baseUrl, "/"), 404, 404, "Not found.")
    }))
})

describe("the rate limit", () => {
  withServer({ rateLimit: { limit: 3, window: "30 seconds" } })(
    "3 per 30 s",
    (it) => {
      it.effect("429 with an integer Retry-After once a key's budget is spent; other keys are not affected", () =>
        Effect.gen(function*() {
          const { baseUrl } = yield* ReferenceServer.ReferenceServer
          for (let i = 0; i < 3; i++) expect((yield* signedGet(baseUrl, depositsPath, [], demo)).status).toBe(200)
          const limited = yield* signedGet(baseUrl, depositsPath, [], demo)
          expectFailure(limited, 429, 429, "Too many requests.")
          const retryAfter = String(limited.headers["retry-after"])
          expect(retryAfter).toMatch(/^[1-9][0-9]*$/)
          expect(Number(retryAfter)).toBeLessThanOrEqual(30)
          // The budget is per key: an unknown key is still told 700001, not 429.
          invalidApiKey(
            yield* get(baseUrl, signedTarget(depositsPath, [], demo), { headers: { "X-MEXC-APIKEY": "x" } })
          )
          // Unsigned endpoints are not limited.
          expect((yield* get(baseUrl, "/api/v3/ping")).status).toBe(200)
        }))
    }
  )
})

describe("the 500 row", () => {
  withServer({ faults: { serverError: 1 } })("server errors", (it) => {
    it.effect("500 {code:500,msg:\"Internal error\"} with nothing internal in it", () =>
      Effect.gen(function*() {
        const { baseUrl } = yield* ReferenceServer.ReferenceServer
        expectFailure(yield* signedGet(baseUrl, transfersPath, route, demo), 500, 500, "Internal error")
        expectFailure(yield* get(baseUrl, "/api/v3/time"), 500, 500, "Internal error")
      }))
  })
})
