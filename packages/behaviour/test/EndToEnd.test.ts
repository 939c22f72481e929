// End to end over HTTP on 127.0.0.1, on every line over every transport it has, against a small
// service written independently of the library: it verifies each request's signature over the raw
// query string with node:crypto and its timestamp, then answers generated records; or it limits,
// drops, hangs or cuts a body short.
import { createHmac, timingSafeEqual } from "node:crypto"
import { describe, expect, it } from "vitest"
import { eventually } from "../src/Eventually.js"
import type { Settings } from "../src/Line.js"
import { failure, success } from "../src/Line.js"
import * as Lines from "../src/Lines.js"
import type { Answer, Seen } from "../src/ScriptedService.js"
import { cutShort, hang, withScriptedService } from "../src/ScriptedService.js"

const KEY = "e2e-key"
const SECRET = "e2e-secret-5c1d"

type Mode = "normal" | "429-once" | "drop" | "hang" | "cut-short-once"

/**
 * The service's script in `mode`, and `log`: the signed payload of every request it answered with
 * records. A wrong key, signature or timestamp is refused as the exchange refuses it.
 */
const verifying = (mode: Mode) => {
  const log: Array<string> = []
  let once = false
  const script = (seen: Seen): Answer => {
    if (mode === "drop") return { drop: true }
    if (mode === "hang") return hang
    if (mode === "cut-short-once" && !once) {
      // Promises more than it sends, then closes: the client must see a broken body, not a short page.
      once = true
      return cutShort
    }
    if (seen.headers["x-mexc-apikey"] !== KEY) {
      return { status: 401, json: { code: 700001, msg: "API-key format invalid." } }
    }
    const cut = seen.query.lastIndexOf("&signature=")
    const payload = seen.query.slice(0, cut)
    const given = Buffer.from(seen.query.slice(cut + "&signature=".length))
    const expected = Buffer.from(createHmac("sha256", SECRET).update(payload).digest("hex"))
    if (cut < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { status: 401, json: { code: 700002, msg: "Signature for this request is not valid." } }
    }
    const timestamp = Number(seen.params.get("timestamp"))
    const recvWindow = Number(seen.params.get("recvWindow") ?? 5000)
    if (!(timestamp < Date.now() + 1000 && Date.now() - timestamp <= recvWindow)) {
      return { status: 400, json: { code: 700003, msg: "Timestamp for this request is outside of the recvWindow." } }
    }
    if (mode === "429-once" && !once) {
      once = true
      return { status: 429, json: { code: 429, msg: "Too many requests." }, headers: { "retry-after": "1" } }
    }
    log.push(payload)
    return { status: 200, json: answer(seen) }
  }
  return { log, script }
}

/** The records the service answers: a page of generated transfers, or one deposit of the asked coin. */
const answer = ({ params, path }: Seen): unknown => {
  if (path === "/api/v3/broker/sub-account/universalTransfer") {
    const limit = Number(params.get("limit") ?? 20)
    const page = Number(params.get("page") ?? 1)
    return Array.from({ length: limit }, (_, i) => ({
      tranId: String(page * 1000 + i),
      fromAccount: params.get("fromAccount"),
      toAccount: null,
      clientTranId: "",
      asset: "BTC",
      amount: `0.${String(i).padStart(8, "0")}`,
      fromAccountType: params.get("fromAccountType"),
      toAccountType: params.get("toAccountType"),
      fromsymbol: "BTCUSDT",
      tosymbol: null,
      status: "SUCCESS",
      timestamp: 1_700_000_000_000 - i
    }))
  }
  return [{
    amount: "1.00000000",
    coin: params.get("coin"),
    network: "TRC20",
    status: 5,
    address: "T1",
    addressTag: "",
    txId: "0x1",
    unlockConfirm: "20",
    confirmTimes: "20",
    insertTime: 1_700_000_000_000,
    memo: null
  }]
}

describe.each(Lines.carriers)("end to end over HTTP on 127.0.0.1 ($name)", ({ line, transport }) => {
  const settings = (baseUrl: string, overrides: Partial<Settings> = {}): Settings => ({
    baseUrl,
    apiKey: KEY,
    secretKey: SECRET,
    transport,
    recvWindow: 5000,
    retry: { maxRetries: 2, baseDelay: "20 millis", maxDelay: "100 millis" },
    ...overrides
  })

  it("both endpoints: signed requests verified by node:crypto, records decoded", () => {
    const { log, script } = verifying("normal")
    return withScriptedService(script, (service) =>
      line.withClient(settings(service.baseUrl), async (client) => {
        const transfers = success(
          await client.transferHistory({
            fromAccountType: "SPOT",
            toAccountType: "FUTURES",
            fromAccount: "sub 1@x.com",
            page: 2,
            limit: 3
          })
        )
        expect(transfers.map((t) => [t.tranId, t.amount, t.fromSymbol, t.toSymbol, t.fromAccount])).toEqual([
          ["2000", "0.00000000", "BTCUSDT", "", "sub 1@x.com"],
          ["2001", "0.00000001", "BTCUSDT", "", "sub 1@x.com"],
          ["2002", "0.00000002", "BTCUSDT", "", "sub 1@x.com"]
        ])
        const deposits = success(await client.depositHistory({ coin: "USDT", limit: 1000 }))
        expect(deposits).toMatchObject([{ coin: "USDT", status: "5", memo: "", amount: "1.00000000" }])
        expect(log.length).toBe(2)
        expect(log[0]).toMatch(
          /^fromAccount=sub%201%40x.com&fromAccountType=SPOT&toAccountType=FUTURES&page=2&limit=3&recvWindow=5000&timestamp=\d+$/
        )
      }))
  })

  it("a wrong secret is an AuthenticationError(Signature); an unknown key is ApiKey", () =>
    withScriptedService(verifying("normal").script, async (service) => {
      const badSecret = await line.withClient(
        settings(service.baseUrl, { secretKey: "wrong" }),
        async (client) => failure(await client.depositHistory({}))
      )
      expect(badSecret).toMatchObject({ _tag: "AuthenticationError", fields: { reason: "Signature", code: 700002 } })
      const badKey = await line.withClient(
        settings(service.baseUrl, { apiKey: "nobody" }),
        async (client) => failure(await client.depositHistory({}))
      )
      expect(badKey).toMatchObject({ _tag: "AuthenticationError", fields: { reason: "ApiKey", code: 700001 } })
    }))

  it("429 with Retry-After is waited out and the call succeeds", () => {
    const { log, script } = verifying("429-once")
    return withScriptedService(script, (service) =>
      line.withClient(settings(service.baseUrl), async (client) => {
        expect(success(await client.depositHistory({ coin: "BTC" })).length).toBe(1)
        expect(log.length).toBe(1)
        // The retry came no sooner than the service asked (a lower bound: a slow machine cannot break it).
        const [limited, retried] = service.seen
        expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950)
      }))
  })

  it("a dropped connection ends as TransportError after the retries", () =>
    withScriptedService(
      verifying("drop").script,
      (service) =>
        line.withClient(settings(service.baseUrl), async (client) => {
          const error = failure(await client.depositHistory({}))
          expect(error).toMatchObject({ _tag: "TransportError", fields: { attempts: 3 } })
          expect(error.message).not.toMatch(/signature=/)
        })
    ))

  it("an answer that never comes ends as TransportError(Timeout)", () =>
    withScriptedService(verifying("hang").script, (service) =>
      line.withClient(
        settings(service.baseUrl, { requestTimeout: "200 millis", retry: { maxRetries: 1 } }),
        async (client) => {
          const error = failure(await client.depositHistory({}))
          expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Timeout", attempts: 2 } })
        }
      )))

  it("a refused connection ends as TransportError(Connect) after the retries", async () => {
    // A port that was just listening and is now closed: nothing answers there.
    const closed = await withScriptedService(verifying("normal").script, async (service) => service.baseUrl)
    await line.withClient(settings(closed), async (client) => {
      const error = failure(await client.depositHistory({}))
      expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Connect", attempts: 3 } })
      expect(error.message).not.toMatch(/signature=/)
    })
  })

  it("a body cut short is a TransportError(Body), and is retried", async () => {
    await withScriptedService(
      verifying("cut-short-once").script,
      (service) =>
        line.withClient(settings(service.baseUrl, { retry: { maxRetries: 0 } }), async (client) => {
          const error = failure(await client.depositHistory({ coin: "ETH" }))
          expect(error).toMatchObject({ _tag: "TransportError", fields: { reason: "Body", attempts: 1 } })
        })
    )
    const again = verifying("cut-short-once")
    await withScriptedService(again.script, (service) =>
      line.withClient(settings(service.baseUrl), async (client) => {
        expect(success(await client.depositHistory({ coin: "ETH" }))).toMatchObject([
          { coin: "ETH", amount: "1.00000000" }
        ])
        expect(again.log.length).toBe(1)
      }))
  })

  it("interrupting a call aborts its request: the service sees the connection close, the client stays open", () =>
    withScriptedService(
      verifying("hang").script,
      (service) =>
        line.withClient(settings(service.baseUrl, { requestTimeout: "1 minute" }), async (client) => {
          const interrupt = new AbortController()
          const call = client.depositHistory({}, { signal: interrupt.signal })
          // Interrupted once the request is known to have arrived (not after a guessed delay).
          await eventually("the request arrives", () => service.seen.length, (n) => n === 1)
          interrupt.abort()
          expect((await call)._tag).toBe("Interrupted")
          const closed = await Promise.race([
            service.seen[0]!.closedEarly,
            new Promise<string>((resolve) => setTimeout(() => resolve("still open after 5 s"), 5_000))
          ])
          expect(closed).toBe(true)
          // The client (its connection pool) is still there: the next call goes out.
          const nextInterrupt = new AbortController()
          const next = client.depositHistory({}, { signal: nextInterrupt.signal })
          await eventually("the next request arrives", () => service.seen.length, (n) => n === 2)
          nextInterrupt.abort()
          expect((await next)._tag).toBe("Interrupted")
        })
    ))

  it("nothing is sent to a refused base URL: the client's layer fails with a ConfigError", async () => {
    await expect(line.withClient(settings("http://192.0.2.1:80"), async () => "built")).rejects.toThrow(
      /clear text/
    )
  })
})
