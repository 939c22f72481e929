import { describe, expect, it } from "vitest"
import * as Settings from "../../src/config/Settings.js"

// A line whose durations are milliseconds (a text "<n> ms" too; anything else is not a duration) and
// whose schedules are lists of waits.
type Schedule = { readonly waits: ReadonlyArray<number> }
const line: Settings.Line<number, Schedule, () => string> = {
  duration: (input) =>
    typeof input === "number"
      ? input
      : typeof input === "string" && /^-?\d+ ms$/.test(input)
      ? Number.parseInt(input)
      : undefined,
  millis: (d) => d,
  isSchedule: (u): u is Schedule => typeof u === "object" && u !== null && "waits" in u,
  backoff: ({ baseDelay, maxDelay, maxRetries }) => ({
    waits: Array.from({ length: maxRetries }, (_, n) => Math.min(baseDelay * 2 ** n, maxDelay))
  }),
  defaults: Settings.defaultsWith((millis) => millis),
  reveal: (secret) => secret()
}

const credentials = { apiKey: (): string => "k", secretKey: () => "s" }
type Options = Settings.Options<number | string, Schedule, () => string>

const resolve = (options: Partial<Options>, names: Settings.Names = Settings.optionNames) =>
  Settings.resolve<number | string, number, Schedule, () => string>({ ...credentials, ...options }, names, line)

const problem = (options: Partial<Options>, names?: Settings.Names) => {
  const resolved = resolve(options, names)
  return resolved._tag === "Invalid" ? resolved.problem : undefined
}

describe("Settings.resolve", () => {
  it("fills in the defaults", () => {
    const resolved = resolve({})
    expect(resolved).toEqual({
      _tag: "Resolved",
      settings: {
        baseUrl: "https://api.mexc.com",
        apiKey: credentials.apiKey,
        secretKey: credentials.secretKey,
        apiKeyHeader: "X-MEXC-APIKEY",
        recvWindow: undefined,
        requestTimeout: 10_000,
        retry: {
          schedule: { waits: [200, 400, 800, 1600, 3200] },
          baseDelay: 200,
          maxRetryAfter: 60_000,
          followMaxDelay: 60_000
        },
        rateLimit: { limit: 20, interval: 1000, margin: 25, adaptive: true },
        maxWindow: { transfers: undefined, deposits: 10 * 86_400_000 },
        maxResponseBytes: 16 * 1024 * 1024,
        maxPagesPerMillisecond: 20,
        onIncomplete: "fail",
        names: Settings.optionNames
      }
    })
  })

  it.each([
    "http://127.0.0.1:8080",
    "http://localhost:1",
    "http://[::1]:9000",
    "https://example.com/",
    "https://api.mexc.com"
  ])(
    "accepts the base URL %s",
    (baseUrl) => {
      expect(resolve({ baseUrl })._tag).toBe("Resolved")
    }
  )

  it("strips trailing slashes; allows plain http to another host only when asked", () => {
    const resolved = resolve({ baseUrl: "https://x.test/api//" })
    expect(resolved._tag === "Resolved" && resolved.settings.baseUrl).toBe("https://x.test/api")
    expect(resolve({ baseUrl: "http://api.test", allowInsecureHttp: true })._tag).toBe("Resolved")
  })

  it.each([
    [
      "http://api.mexc.com",
      "baseUrl must use https:// (api.mexc.com is not loopback): the API key would cross the network in clear text; set allowInsecureHttp to allow it anyway"
    ],
    ["ftp://x", "baseUrl must be an http(s) URL, got ftp:"],
    ["not a url", "baseUrl is not a valid URL: \"not a url\""],
    ["https://x.test/?a=1", "baseUrl must not carry a query, fragment or credentials"],
    ["https://user:pw@x.test", "baseUrl must not carry a query, fragment or credentials"]
  ])("refuses the base URL %s", (baseUrl, message) => {
    expect(problem({ baseUrl })).toEqual({ setting: "baseUrl", message })
  })

  it.each(
    [
      [{ recvWindow: 0 }, "recvWindow", "recvWindow must be an integer number of ms from 1 to 60000"],
      [{ recvWindow: 60001 }, "recvWindow", "recvWindow must be an integer number of ms from 1 to 60000"],
      [{ recvWindow: 1.5 }, "recvWindow", "recvWindow must be an integer number of ms from 1 to 60000"],
      [{ requestTimeout: 0 }, "requestTimeout", "requestTimeout must be a positive, finite duration"],
      [{ requestTimeout: Infinity }, "requestTimeout", "requestTimeout must be a positive, finite duration"],
      [{ requestTimeout: "soon" }, "requestTimeout", "requestTimeout must be a positive, finite duration"],
      [{ retry: { maxRetries: -1 } }, "retry.maxRetries", "retry.maxRetries must be an integer from 0 to 100"],
      [{ retry: { maxRetries: 101 } }, "retry.maxRetries", "retry.maxRetries must be an integer from 0 to 100"],
      [
        { retry: { baseDelay: 2000, maxDelay: 1000 } },
        "retry.maxDelay",
        "retry.maxDelay must not be shorter than the base delay"
      ],
      [
        { retry: { followMaxDelay: 100 } },
        "retry.followMaxDelay",
        "retry.followMaxDelay must not be shorter than the base delay"
      ],
      [
        { retry: { maxRetryAfter: 0 } },
        "retry.maxRetryAfter",
        "retry.maxRetryAfter must be a positive, finite duration"
      ],
      [
        { rateLimit: { limit: 0 } },
        "rateLimit.limit",
        "rateLimit.limit must be a whole number of requests from 1 to 10000 (for more, shorten the interval)"
      ],
      [
        { rateLimit: { limit: 10_001 } },
        "rateLimit.limit",
        "rateLimit.limit must be a whole number of requests from 1 to 10000 (for more, shorten the interval)"
      ],
      [{ rateLimit: { interval: 0 } }, "rateLimit.interval", "rateLimit.interval must be a positive, finite duration"],
      [
        { rateLimit: { margin: Infinity } },
        "rateLimit.margin",
        "rateLimit.margin must be a finite duration (0 allowed)"
      ],
      [{ rateLimit: { margin: -1 } }, "rateLimit.margin", "rateLimit.margin must be a finite duration (0 allowed)"],
      [{ rateLimit: { margin: "x" } }, "rateLimit.margin", "rateLimit.margin must be a finite duration (0 allowed)"],
      [
        { rateLimit: { adaptive: "yes" as unknown as boolean } },
        "rateLimit.adaptive",
        "rateLimit.adaptive must be true or false"
      ],
      [{ apiKey: (): string => " " }, "apiKey", "apiKey is empty"],
      [{ secretKey: (): string => "" }, "secretKey", "secretKey is empty"],
      [
        { apiKey: (): string => " key" },
        "apiKey",
        "apiKey has leading or trailing whitespace; remove it (it is not part of the key)"
      ],
      [{ apiKey: (): string => "ke\ny" }, "apiKey", "apiKey contains a line break"],
      [
        { secretKey: (): string => "\tsecret" },
        "secretKey",
        "secretKey has leading or trailing whitespace; remove it (it is not part of the key)"
      ],
      [{ apiKeyHeader: "X Bad" }, "apiKeyHeader", "apiKeyHeader must be a header name (letters, digits, -)"],
      [
        { retry: { schedule: { waits: [] }, maxRetries: 3 } },
        "retry.schedule",
        "retry.schedule comes without retry.maxRetries and retry.maxDelay: they shape the default schedule only; bound your schedule instead (e.g. Schedule.intersect(schedule, Schedule.recurs(n)))"
      ],
      [
        { retry: { schedule: { recurs: 1 } as unknown as Schedule } },
        "retry.schedule",
        "retry.schedule must be an Effect Schedule"
      ],
      [
        { maxWindow: { transfers: 0 } },
        "maxWindow.transfers",
        "maxWindow.transfers must be a positive, finite duration"
      ],
      [{ maxWindow: { deposits: -5 } }, "maxWindow.deposits", "maxWindow.deposits must be a positive, finite duration"],
      [
        { maxResponseBytes: 1023 },
        "maxResponseBytes",
        "maxResponseBytes must be a whole number from 1024 to 1073741824"
      ],
      [
        { maxResponseBytes: 1.5e6 + 0.5 },
        "maxResponseBytes",
        "maxResponseBytes must be a whole number from 1024 to 1073741824"
      ],
      [
        { maxPagesPerMillisecond: 1001 },
        "maxPagesPerMillisecond",
        "maxPagesPerMillisecond must be a whole number from 1 to 1000"
      ],
      [{ onIncomplete: "ignore" as "warn" }, "onIncomplete", "onIncomplete must be \"fail\" or \"warn\""]
    ] as const
  )("refuses %j: %s", (options, setting, message) => {
    expect(problem(options as Partial<Options>)).toEqual({ setting, message })
  })

  it("a schedule replaces the default one; a schedule alone is the retry option too", () => {
    const schedule = { waits: [5] }
    for (const retry of [schedule, { schedule }]) {
      const resolved = resolve({ retry })
      expect(resolved._tag === "Resolved" && resolved.settings.retry.schedule).toBe(schedule)
    }
  })

  it("reports the first broken rule, in the order of the options, naming settings as `names` does", () => {
    const names = Settings.fromVariables(Settings.variables)
    expect(problem({ baseUrl: "ftp://x", recvWindow: 0 }, names)).toEqual({
      setting: "baseUrl (from BROKER_BASE_URL)",
      message: "baseUrl (from BROKER_BASE_URL) must be an http(s) URL, got ftp:"
    })
    expect(problem({ recvWindow: 0, onIncomplete: "x" as "warn" }, names)?.setting).toBe(
      "recvWindow (from BROKER_RECV_WINDOW)"
    )
  })

  it("reveals the credentials only to check them, after the base URL, and keeps them as given", () => {
    const revealed: Array<string> = []
    const resolved = Settings.resolve(
      { apiKey: () => (revealed.push("apiKey"), "key"), secretKey: () => (revealed.push("secretKey"), "secret") },
      Settings.optionNames,
      line
    )
    expect(revealed).toEqual(["apiKey", "secretKey"])
    expect(JSON.stringify(resolved)).not.toMatch(/"key"|"secret"/)
    expect(resolved._tag === "Resolved" && resolved.settings.apiKey()).toBe("key")
    const never = () => {
      throw new Error("revealed")
    }
    expect(Settings.resolve({ baseUrl: "ftp://x", apiKey: never, secretKey: never }, Settings.optionNames, line)._tag)
      .toBe("Invalid")
  })
})

describe("Settings names", () => {
  it("a setting read from a variable is named by its option and the variable", () => {
    const names = Settings.fromVariables({ ...Settings.optionNames, apiKey: "MY_KEY" })
    expect(names.apiKey).toBe("apiKey (from MY_KEY)")
    expect(names.secretKey).toBe("secretKey")
  })

  it("a failure carries the names of the settings its message names, and only those", () => {
    const names = Settings.fromVariables(Settings.variables)
    expect(Settings.namesFor("RateLimited", names)).toEqual({
      maxRetryAfter: "retry.maxRetryAfter (from BROKER_MAX_RETRY_AFTER)",
      rateLimit: "rateLimit.limit (from BROKER_RATE_LIMIT)"
    })
    expect(Settings.namesFor("ApiError", names)).toBeUndefined()
  })

  it("the defaults' durations are milliseconds, given to the line's duration", () => {
    const defaults = Settings.defaultsWith((millis) => `${millis} ms`)
    expect(defaults.requestTimeout).toBe("10000 ms")
    expect(defaults.depositMaxWindow).toBe("864000000 ms")
    expect(defaults.maxRetries).toBe(5)
    expect(Settings.loopbackHost("127.1.2.3")).toBe(true)
    expect(Settings.loopbackHost("128.0.0.1")).toBe(false)
  })
})
