import { Endpoint } from "@broker-history/domain"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { createHmac } from "node:crypto"
import { ApiKeys, ReferenceServer } from "../src/index.js"
import * as Authentication from "../src/internal/request/Authentication.js"
import { get, json, transfersPath } from "./support/Requests.js"
import { withServer } from "./support/Server.js"

// The vectors of docs/wire-contract.md (secret from MEXC's documentation, which is also the demo key's secret).
const secret = "45d0b3c26f2644f19bfb98b07741b2f5"
const vectors = [
  [
    "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000&timestamp=1644489390087",
    "fd3e4e8543c5188531eb7279d68ae7d26a573d0fc5ab0d18eb692451654d837a"
  ],
  [
    "fromAccountType=SPOT&toAccountType=FUTURES&page=1&limit=500&timestamp=1644489390087",
    "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
  ],
  [
    "coin=USDT&limit=20&page=1&recvWindow=5000&timestamp=1644489390087",
    "545b2e54564f813cabded38ce012d654a915223a72a7e62a3255a14f69599c50"
  ]
] as const
const signedAt = 1644489390087

describe("signature vectors", () => {
  it("node:crypto reproduces every vector", () => {
    for (const [payload, signature] of vectors) {
      expect(createHmac("sha256", secret).update(payload).digest("hex")).toBe(signature)
    }
  })

  it("the server's checks accept every vector at its time and refuse any altered one", () => {
    const key: ApiKeys.ApiKey = { apiKey: "k", secretKey: secret, permissions: ApiKeys.permissions }
    for (const [payload, signature] of vectors) {
      for (const endpoint of [Endpoint.transferHistory, Endpoint.depositHistory]) {
        const accepted = Authentication.check({
          rawQuery: `${payload}&signature=${signature}`,
          key,
          endpoint,
          now: signedAt
        })
        expect(Either.isRight(accepted)).toBe(true)
        const names = Either.isRight(accepted) ? accepted.right.params.map((p) => p.name) : []
        expect(names).not.toContain("timestamp")
        expect(names).not.toContain("signature")
        expect(names).not.toContain("recvWindow")
        const altered = signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0")
        const refused = Authentication.check({
          rawQuery: `${payload}&signature=${altered}`,
          key,
          endpoint,
          now: signedAt
        })
        expect(Either.isLeft(refused) && refused.left.code).toBe(700002)
      }
    }
  })
})

withServer()("signature vectors over HTTP", (it) => {
  it.effect("a vector's signature passes (the answer is the later timestamp check, not 700002)", () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* ReferenceServer.ReferenceServer
      const [payload, signature] = vectors[1]
      const headers = { "X-MEXC-APIKEY": ApiKeys.demo.apiKey }
      const reply = yield* get(baseUrl, `${transfersPath}?${payload}&signature=${signature}`, { headers })
      expect([reply.status, (json(reply) as { code: number }).code]).toEqual([400, 700003])
      const tampered = payload.replace("limit=500", "limit=499")
      const refused = yield* get(baseUrl, `${transfersPath}?${tampered}&signature=${signature}`, { headers })
      expect([refused.status, (json(refused) as { code: number }).code]).toEqual([401, 700002])
    }))
})
