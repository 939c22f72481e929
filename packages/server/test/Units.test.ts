import { CliConfig, HelpDoc, Options } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { ApiKeys, CommandLine, Faults } from "../src/index.js"
import * as RateLimit from "../src/internal/limit/RateLimit.js"
import * as RawQuery from "../src/internal/request/RawQuery.js"

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
  /** `CommandLine.options` over `args`, with `env` as the only configuration (the variables). */
  const read = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
    Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
      Effect.mapError((error) => HelpDoc.toAnsiText(error.error).trim()),
      // What `Command.run` reports as an unknown argument (a flag without its value, a repeated flag).
      Effect.filterOrFail(([, leftover]) => leftover.length === 0, ([, leftover]) => `not read: ${leftover.join(" ")}`),
      Effect.map(([, , options]) => options),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provide(NodeContext.layer),
      Effect.either,
      Effect.runSync
    )
  const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    const options = read(args, env)
    if (Either.isLeft(options)) throw new Error(options.left)
    return options.right
  }
  const problem = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
    const options = read(args, env)
    if (Either.isRight(options)) throw new Error(`accepted: ${JSON.stringify(options.right)}`)
    return options.left
  }

  it("defaults: 127.0.0.1:8080, in-memory, the demo key, a 100k/20k seed, logging on, no faults", () => {
    const options = run([])
    expect(options).toEqual({
      host: "127.0.0.1",
      port: 8080,
      database: ":memory:",
      keys: [ApiKeys.demo],
      seed: { seed: 42, transfers: 100_000, deposits: 20_000, years: 2, subAccounts: 40, staggeredSubAccounts: false },
      rateLimit: { limit: 500, window: 10_000, shape: "sliding" },
      maxWindow: { transfers: undefined, deposits: 864_000_000 },
      faults: {
        seed: 1,
        serverError: 0,
        rateLimited: 0,
        retryAfterSeconds: 1,
        drop: 0,
        hang: 0,
        truncate: 0,
        latency: 0
      },
      logRequests: true,
      masterAccount: "master@broker.test",
      futuresAccountType: "FUTURES",
      pendingSettlement: undefined
    })
    // The defaults are those of the service itself: no fault is ever drawn.
    const injector = Faults.makeInjector(options.faults ?? {})
    expect(Array.from({ length: 1000 }, () => injector.next()).every((fault) => fault === undefined)).toBe(true)
  })

  it("every variable stands in for its absent flag; empty counts as absent", () => {
    const options = run([], {
      BROKER_SERVER_HOST: "localhost",
      BROKER_SERVER_PORT: "9999",
      BROKER_SERVER_DATABASE: "/tmp/x.db",
      BROKER_SERVER_SEED: "5",
      BROKER_SERVER_TRANSFERS: "10",
      BROKER_SERVER_DEPOSITS: "20",
      BROKER_SERVER_YEARS: "3",
      BROKER_SERVER_SUB_ACCOUNTS: "4",
      BROKER_SERVER_STAGGERED_SUB_ACCOUNTS: "yes",
      BROKER_SERVER_FUTURES_ACCOUNT_TYPE: "future",
      BROKER_SERVER_MASTER_ACCOUNT: "boss@broker.test",
      BROKER_SERVER_KEYS: "a:b:SPOT_DEPOSIT_READ  c:d:SPOT_TRANSFER_READ",
      BROKER_SERVER_RATE_LIMIT: "6",
      BROKER_SERVER_RATE_WINDOW_MS: "700",
      BROKER_SERVER_RATE_LIMIT_SHAPE: "TOKENBUCKET",
      BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS: "86400000",
      BROKER_SERVER_MAX_WINDOW_DEPOSITS_MS: "3600000",
      BROKER_SERVER_FAULT_SEED: "7",
      BROKER_SERVER_FAULT_SERVER_ERROR: "0.1",
      BROKER_SERVER_FAULT_RATE_LIMITED: "0.2",
      BROKER_SERVER_FAULT_RETRY_AFTER: "4",
      BROKER_SERVER_FAULT_DROP: "0.25",
      BROKER_SERVER_FAULT_HANG: "0.05",
      BROKER_SERVER_FAULT_TRUNCATE: "0.15",
      BROKER_SERVER_FAULT_LATENCY_MS: "30",
      BROKER_SERVER_SETTLE_PENDING_AFTER_MS: "5000",
      BROKER_SERVER_SETTLE_FAILED_SHARE: "0.1",
      BROKER_SERVER_LOG: "off"
    })
    expect(options).toEqual({
      host: "localhost",
      port: 9999,
      database: "/tmp/x.db",
      keys: [
        { apiKey: "a", secretKey: "b", permissions: ["SPOT_DEPOSIT_READ"] },
        { apiKey: "c", secretKey: "d", permissions: ["SPOT_TRANSFER_READ"] }
      ],
      seed: { seed: 5, transfers: 10, deposits: 20, years: 3, subAccounts: 4, staggeredSubAccounts: true },
      rateLimit: { limit: 6, window: 700, shape: "tokenBucket" },
      maxWindow: { transfers: 86_400_000, deposits: 3_600_000 },
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
      logRequests: false,
      masterAccount: "boss@broker.test",
      futuresAccountType: "FUTURE",
      pendingSettlement: { after: 5000, failedShare: 0.1 }
    })
    expect(run([], { BROKER_SERVER_PORT: "", BROKER_SERVER_KEYS: "  ", BROKER_SERVER_LOG: "" })).toMatchObject({
      port: 8080,
      keys: [ApiKeys.demo],
      logRequests: true
    })
    // 0 transfers and 0 deposits: nothing is generated.
    expect(run([], { BROKER_SERVER_TRANSFERS: "0", BROKER_SERVER_DEPOSITS: "0" }).seed).toBeUndefined()
  })

  it("a flag wins over its variable", () => {
    const env = {
      BROKER_SERVER_PORT: "9999",
      BROKER_SERVER_KEYS: "x:y:SPOT_DEPOSIT_READ",
      BROKER_SERVER_FAULT_DROP: "0.5",
      BROKER_SERVER_LOG: "false",
      BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS: "5"
    }
    const options = run(
      [
        "--port",
        "0",
        "--key",
        "a:b:SPOT_DEPOSIT_READ",
        "--key",
        "c:d:",
        "--fault-drop",
        "0.25",
        "--log",
        "--max-window-transfers-ms",
        "6"
      ],
      env
    )
    expect(options).toMatchObject({
      port: 0,
      keys: [
        { apiKey: "a", secretKey: "b", permissions: ["SPOT_DEPOSIT_READ"] },
        { apiKey: "c", secretKey: "d", permissions: [] }
      ],
      faults: { drop: 0.25 },
      maxWindow: { transfers: 6 },
      logRequests: true
    })
    expect(run(["--no-log"], { BROKER_SERVER_LOG: "true" }).logRequests).toBe(false)
    expect(run(["--rate-limit-shape", "Fixed"], { BROKER_SERVER_RATE_LIMIT_SHAPE: "tokenBucket" }).rateLimit)
      .toMatchObject({ shape: "fixed" })
    expect(run(["--futures-account-type", "FUTURES"], { BROKER_SERVER_FUTURES_ACCOUNT_TYPE: "FUTURE" }))
      .toMatchObject({ futuresAccountType: "FUTURES" })
    expect(run(["--staggered-sub-accounts"], { BROKER_SERVER_STAGGERED_SUB_ACCOUNTS: "off" }).seed)
      .toMatchObject({ staggeredSubAccounts: true })
    expect(run(["--settle-pending-after-ms", "0"], { BROKER_SERVER_SETTLE_PENDING_AFTER_MS: "9" }).pendingSettlement)
      .toEqual({ after: 0, failedShare: 0 })
    expect(
      run(["--settle-pending-after-ms", "60000", "--settle-failed-share", "1"], {
        BROKER_SERVER_SETTLE_FAILED_SHARE: "0.5"
      }).pendingSettlement
    ).toEqual({ after: 60_000, failedShare: 1 })
  })

  it("refuses bad values, every one at once, naming the flag or the variable given", () => {
    const message = problem(["--port", "x", "--fault-hang", "1.5", "--key", "k:TOPSECRET:NOPE"])
    expect(message.split("\n").filter((line) => line !== "")).toEqual([
      `--port must be an integer >= 0, got "x"`,
      "--key: unknown permission NOPE (known: SPOT_TRANSFER_READ, SPOT_DEPOSIT_READ)",
      `--fault-hang must be a probability from 0 to 1, got "1.5"`
    ])
    // The message never repeats a key's text: it holds a secret.
    expect(problem([], { BROKER_SERVER_KEYS: "k:TOPSECRET" })).toBe(
      "BROKER_SERVER_KEYS: expected apiKey:secretKey:PERMISSIONS, got 2 part(s)"
    )
    expect(problem(["--port", "70000"])).toBe("--port must be at most 65535, got 70000")
    expect(problem([], { BROKER_SERVER_PORT: "-1" })).toBe(`BROKER_SERVER_PORT must be an integer >= 0, got "-1"`)
    expect(problem(["--sub-accounts", "1"])).toBe(`--sub-accounts must be an integer >= 2, got "1"`)
    expect(problem(["--years", "1.5"])).toBe(`--years must be an integer >= 1, got "1.5"`)
    expect(problem(["--rate-limit", "0"])).toBe(`--rate-limit must be an integer >= 1, got "0"`)
    expect(problem(["--fault-retry-after", "0"])).toBe(`--fault-retry-after must be an integer >= 1, got "0"`)
    expect(problem(["--max-window-transfers-ms", "0"])).toMatch(/^--max-window-transfers-ms must be an integer >= 1/)
    expect(problem(["--fault-drop", "-0.1"])).toMatch(/^--fault-drop must be a probability from 0 to 1/)
    expect(problem([], { BROKER_SERVER_FAULT_TRUNCATE: "1.01" })).toMatch(
      /^BROKER_SERVER_FAULT_TRUNCATE must be a probability from 0 to 1/
    )
    expect(problem([], { BROKER_SERVER_LOG: "maybe" })).toBe(
      `BROKER_SERVER_LOG must be true or false (or 1/0, yes/no, on/off), got "maybe"`
    )
    expect(problem(["--port"])).toBe("not read: --port")
    expect(problem(["--futures-account-type", "MARGIN"])).toBe(
      `--futures-account-type must be FUTURES or FUTURE, got "MARGIN"`
    )
    expect(problem(["--rate-limit-shape", "leakyBucket"])).toBe(
      `--rate-limit-shape must be sliding or fixed or tokenBucket, got "leakyBucket"`
    )
    expect(problem([], { BROKER_SERVER_RATE_LIMIT_SHAPE: "sliding window" })).toBe(
      `BROKER_SERVER_RATE_LIMIT_SHAPE must be sliding or fixed or tokenBucket, got "sliding window"`
    )
    expect(problem([], { BROKER_SERVER_FUTURES_ACCOUNT_TYPE: "FUTURESS" })).toBe(
      `BROKER_SERVER_FUTURES_ACCOUNT_TYPE must be FUTURES or FUTURE, got "FUTURESS"`
    )
    expect(problem(["--settle-pending-after-ms", "-1"])).toBe(
      `--settle-pending-after-ms must be an integer >= 0, got "-1"`
    )
    expect(problem(["--settle-pending-after-ms", "1", "--settle-failed-share", "2"])).toBe(
      `--settle-failed-share must be a probability from 0 to 1, got "2"`
    )
    // A failed share alone would be ignored: pending transfers only settle after a delay.
    expect(problem(["--settle-failed-share", "0.2"])).toBe(
      "--settle-failed-share needs --settle-pending-after-ms (or BROKER_SERVER_SETTLE_PENDING_AFTER_MS): without " +
        "a settlement delay pending transfers never settle"
    )
    expect(problem([], { BROKER_SERVER_SETTLE_FAILED_SHARE: "0.2" })).toMatch(
      /^BROKER_SERVER_SETTLE_FAILED_SHARE needs --settle-pending-after-ms/
    )
    expect(problem([], { BROKER_SERVER_STAGGERED_SUB_ACCOUNTS: "sometimes" })).toBe(
      `BROKER_SERVER_STAGGERED_SUB_ACCOUNTS must be true or false (or 1/0, yes/no, on/off), got "sometimes"`
    )
  })
})
