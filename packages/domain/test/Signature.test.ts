import { QueryString, Signature } from "@broker-history/domain"
import * as NodeSignature from "@broker-history/domain/NodeSignature"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { createHmac } from "node:crypto"

const secret = "45d0b3c26f2644f19bfb98b07741b2f5"

describe("Signature", () => {
  it.each([
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
  ])("signs the documented vector %s (WebCrypto and node:crypto)", async (payload, expected) => {
    expect(await (await Signature.hmacSha256(secret))(payload)).toBe(expected)
    expect(NodeSignature.hmacSha256Hex(secret, payload)).toBe(expected)
    expect(NodeSignature.verify(secret, payload, expected)).toBe(true)
  })

  it("the canonical query string reproduces vector 2 from its parameters", () => {
    const payload = QueryString.make([
      ["fromAccountType", "SPOT"],
      ["toAccountType", "FUTURES"],
      ["page", "1"],
      ["limit", "500"],
      ["timestamp", "1644489390087"]
    ])
    expect(NodeSignature.hmacSha256Hex(secret, payload)).toBe(
      "6fb15cd7b742887c1f47c96547c7fe14ccf7b1ff85f68d3e5486e09485ba6a65"
    )
  })

  it("verify rejects a wrong, uppercase, short or non-hex signature", () => {
    const good = NodeSignature.hmacSha256Hex(secret, "a=1")
    expect(NodeSignature.verify(secret, "a=2", good)).toBe(false)
    expect(NodeSignature.verify(secret, "a=1", good.toUpperCase())).toBe(false)
    expect(NodeSignature.verify(secret, "a=1", good.slice(1))).toBe(false)
    expect(NodeSignature.verify(secret, "a=1", "z".repeat(64))).toBe(false)
    expect(NodeSignature.verify("other", "a=1", good)).toBe(false)
  })

  it.prop(
    "constant-time equality: equal only for the same text, whatever the lengths",
    [fc.string(), fc.string()],
    ([a, b]) => {
      expect(Signature.equalInConstantTime(a, b)).toBe(a === b)
      expect(Signature.equalInConstantTime(a, a)).toBe(true)
    }
  )

  it.effect.prop(
    "WebCrypto and node:crypto agree with an independent HMAC on arbitrary secrets and text",
    [fc.string({ minLength: 1 }), fc.string()],
    ([key, payload]) =>
      Effect.promise(async () => {
        const independent = createHmac("sha256", key).update(payload, "utf8").digest("hex")
        expect(NodeSignature.hmacSha256Hex(key, payload)).toBe(independent)
        expect(await (await Signature.hmacSha256(key))(payload)).toBe(independent)
      }),
    { fastCheck: { numRuns: 200 } }
  )
})

describe("QueryString", () => {
  it("encodes per RFC 3986 with uppercase hex, leaving unreserved characters alone", () => {
    expect(QueryString.encode("AZaz09-_.~")).toBe("AZaz09-_.~")
    expect(QueryString.encode("a b+c/d?e&f=g")).toBe("a%20b%2Bc%2Fd%3Fe%26f%3Dg")
    expect(QueryString.encode("!'()*")).toBe("%21%27%28%29%2A")
    expect(QueryString.encode("é€")).toBe("%C3%A9%E2%82%AC")
  })

  it("keeps parameter order", () => {
    expect(QueryString.make([["b", "2"], ["a", "1"]])).toBe("b=2&a=1")
    expect(QueryString.make([])).toBe("")
  })

  it("splits a received query into payload and signature", () => {
    expect(QueryString.splitSignature("a=1&timestamp=2&signature=ab")).toEqual({
      payload: "a=1&timestamp=2",
      signature: "ab"
    })
    expect(QueryString.splitSignature("signature=ab")).toEqual({ payload: "", signature: "ab" })
    expect(QueryString.splitSignature("a=1")).toBeUndefined()
    expect(QueryString.splitSignature("a=1&signature=")).toBeUndefined()
    expect(QueryString.splitSignature("signature=ab&a=1")).toBeUndefined()
    expect(QueryString.splitSignature("signature=ab&signature=ab")).toBeUndefined()
    expect(QueryString.splitSignature("xsignature=ab")).toBeUndefined()
    expect(QueryString.withSignature("a=1", "ff")).toBe("a=1&signature=ff")
  })
})
