import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { ApiKeys, CommandLine, Faults, RateLimit, RawQuery } from "../src/index.js"

describe("RateLimit", () => {
  it("allows `limit` requests in any sliding window and tells when a slot frees (whole seconds, at least 1)", () => {
    const limiter = RateLimit.make({ limit: 2, window: "1 second" })
    expect(limiter.take("a", 0)).toEqual({ allowed: true })
    expect(limiter.take("a", 10)).toEqual({ allowed: true })
    expect(limiter.take("a", 20)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("b", 20)).toEqual({ allowed: true })
    expect(limiter.take("a", 999)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("a", 1000)).toEqual({ allowed: true })
    expect(limiter.take("a", 1005)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take("a", 1010)).toEqual({ allowed: true })
    const slow = RateLimit.make({ limit: 1, window: "30 seconds" })
    slow.take("a", 0)
    expect(slow.take("a", 100)).toEqual({ allowed: false, retryAfterSeconds: 30 })
    expect(slow.take("a", 29_001)).toEqual({ allowed: false, retryAfterSeconds: 1 })
  })
})

describe("Faults", () => {
  it("one draw falls into cumulative slices in a fixed order; nothing is injected by default", () => {
    const settings = Faults.normalize({ serverError: 0.1, rateLimited: 0.2, drop: 0.3 })
    expect([0, 0.05, 0.15, 0.25, 0.35, 0.55, 0.65, 0.99].map((d) => Faults.decide(settings, d))).toEqual([
      "serverError",
      "serverError",
      "rateLimited",
      "rateLimited",
      "drop",
      "drop",
      undefined,
      undefined
    ])
    const off = Faults.makeInjector({})
    expect(Array.from({ length: 100 }, () => off.next()).every((f) => f === undefined)).toBe(true)
    expect(Faults.normalize({ hang: Number.NaN, truncate: 7, retryAfterSeconds: 0.2 })).toMatchObject({
      probabilities: { hang: 0, truncate: 1 },
      retryAfterSeconds: 1
    })
  })
})

describe("RawQuery", () => {
  it("keeps order, repeats and raw text; decodes what decodes", () => {
    expect(RawQuery.parse("a=1&a=2&b&=x&c=%zz").map((p) => [p.name, p.value])).toEqual([
      ["a", "1"],
      ["a", "2"],
      ["b", ""],
      ["", "x"],
      ["c", undefined]
    ])
    expect(RawQuery.parse("")).toEqual([])
    expect(RawQuery.parse("x=a+b%20c")[0]!.value).toBe("a+b c")
    expect(RawQuery.pathOfUrl("/p?signature=s")).toBe("/p")
  })
})

describe("ApiKeys", () => {
  it("parses apiKey:secretKey:PERMISSIONS and refuses anything else", () => {
    expect(ApiKeys.parse("k:s:SPOT_TRANSFER_READ,SPOT_DEPOSIT_READ")).toEqual(
      Either.right({ apiKey: "k", secretKey: "s", permissions: ["SPOT_TRANSFER_READ", "SPOT_DEPOSIT_READ"] })
    )
    expect(ApiKeys.parse("k:s:")).toEqual(Either.right({ apiKey: "k", secretKey: "s", permissions: [] }))
    expect(Either.isLeft(ApiKeys.parse("k:s"))).toBe(true)
    expect(Either.isLeft(ApiKeys.parse(":s:SPOT_DEPOSIT_READ"))).toBe(true)
    expect(Either.isLeft(ApiKeys.parse("k:s:SPOT_WITHDRAW"))).toBe(true)
  })
})

describe("CommandLine", () => {
  const run = (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    const command = CommandLine.parse(argv, env)
    if (Either.isLeft(command) || command.right._tag !== "Run") throw new Error(JSON.stringify(command))
    return command.right.options
  }

  it("defaults: 127.0.0.1:8080, in-memory, the demo key, a 100k/20k seed, logging on, no faults", () => {
    const options = run([])
    expect(options).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      database: ":memory:",
      keys: [ApiKeys.demo],
      seed: { seed: 42, transfers: 100_000, deposits: 20_000, years: 2, subAccounts: 40 },
      rateLimit: { limit: 500, window: 10_000 },
      logRequests: true
    })
    expect(Object.values(options.faults ?? {}).every((v) => v === undefined)).toBe(true)
  })

  it("flags win over environment variables; every fault switch is read", () => {
    const options = run(
      ["--port", "0", "--key", "a:b:SPOT_DEPOSIT_READ", "--key", "c:d:", "--fault-drop", "0.25", "--no-log"],
      {
        BROKER_SERVER_PORT: "9999",
        BROKER_SERVER_DATABASE: "/tmp/x.db",
        BROKER_SERVER_FAULT_SEED: "7",
        BROKER_SERVER_FAULT_SERVER_ERROR: "0.1",
        BROKER_SERVER_FAULT_RATE_LIMITED: "0.2",
        BROKER_SERVER_FAULT_RETRY_AFTER: "4",
        BROKER_SERVER_FAULT_HANG: "0.05",
        BROKER_SERVER_FAULT_TRUNCATE: "0.15",
        BROKER_SERVER_FAULT_LATENCY_MS: "30",
        BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS: "86400000",
        BROKER_SERVER_TRANSFERS: "0",
        BROKER_SERVER_DEPOSITS: "0",
        BROKER_SERVER_LOG: "true"
      }
    )
    expect(options).toMatchObject({
      port: 0,
      database: "/tmp/x.db",
      keys: [
        { apiKey: "a", secretKey: "b", permissions: ["SPOT_DEPOSIT_READ"] },
        { apiKey: "c", secretKey: "d", permissions: [] }
      ],
      seed: undefined,
      maxWindow: { transfers: 86_400_000 },
      faults: {
        seed: 7,
        serverError: 0.1,
        rateLimited: 0.2,
        retryAfterSeconds: 4,
        drop: 0.25,
        hang: 0.05,
        truncate: 0.15,
        latency: 30
      },
      logRequests: false
    })
    expect(run([], { BROKER_SERVER_KEYS: "a:b:SPOT_DEPOSIT_READ  c:d:SPOT_TRANSFER_READ" }).keys?.length).toBe(2)
  })

  it("refuses bad values with a message that never repeats a key's secret", () => {
    const bad = CommandLine.parse(["--port", "x", "--fault-hang", "1.5", "--key", "k:TOPSECRET:NOPE"], {})
    expect(Either.isLeft(bad)).toBe(true)
    const message = Either.isLeft(bad) ? bad.left : ""
    expect(message).toMatch(/--port/)
    expect(message).toMatch(/--fault-hang/)
    expect(message).toMatch(/--key/)
    expect(message).not.toMatch(/TOPSECRET/)
    expect(Either.isLeft(CommandLine.parse(["--unknown"], {}))).toBe(true)
    expect(CommandLine.parse(["--help"], {})).toEqual(Either.right({ _tag: "Help" }))
  })
})
