// The pure parts: CSV, dates and durations, the sync plan, error sentences and exit codes, the
// progress line, the export encoders, the serve argument list, and output backpressure.
import { BrokerError } from "@broker-history/client"
import { Prng } from "@broker-history/testing/ServerInternals"
import { parse as parseCsv } from "csv-parse/sync"
import { ConfigError, ConfigProvider, Duration, Effect, Either, Exit, Layer, Stream } from "effect"
import { Writable } from "node:stream"
import { describe, expect, it } from "vitest"
import * as Demo from "../src/internal/demo/Command.js"
import * as Export from "../src/internal/export/Command.js"
import * as Csv from "../src/internal/export/Csv.js"
import type * as Encoding from "../src/internal/export/Encoding.js"
import * as Output from "../src/internal/export/Output.js"
import * as Choices from "../src/internal/shared/Choices.js"
import * as ExitCode from "../src/internal/shared/ExitCode.js"
import * as Progress from "../src/internal/shared/Progress.js"
import * as TimeText from "../src/internal/shared/TimeText.js"
import * as Plan from "../src/internal/sync/plan/Plan.js"

describe("Csv", () => {
  it("quotes only what needs it, doubling quotes", () => {
    expect(Csv.row(["a", "b,c", "say \"hi\"", "line\nbreak", " pad", null, 5])).toBe(
      "a,\"b,c\",\"say \"\"hi\"\"\",\"line\nbreak\",\" pad\",,5\r\n"
    )
  })

  it("an independent parser (csv-parse) reads back any text written raw (seeded random fields)", () => {
    const next = Prng.mulberry32(5)
    const alphabet = "ab, \"\r\n;x=+-@\t"
    for (let i = 0; i < 500; i++) {
      const fields = Array.from(
        { length: 1 + Math.floor(next() * 5) },
        () => Prng.text(next, alphabet, Math.floor(next() * 6))
      )
      // A single empty field is an empty line: not a row.
      if (fields.length === 1 && fields[0] === "") continue
      expect(parseCsv(Csv.row(fields, "raw"), { relax_column_count: true })).toEqual([fields])
      // Escaped, each field reads back as itself or as itself after a ' (a formula start).
      const escaped = (parseCsv(Csv.row(fields), { relax_column_count: true }) as Array<Array<string>>)[0]
      expect(escaped.map((f, j) => f === fields[j] || f === "'" + fields[j])).not.toContain(false)
    }
  })

  it("neutralises formula starts, keeps negative decimals as numbers", () => {
    expect(["=A1", "+1", "-1+2", "@x", "\tx", "\rx", "-", "-12.50", "-7", "5", "a=b"].map((f) => Csv.field(f)))
      .toEqual(["'=A1", "'+1", "'-1+2", "'@x", "'\tx", "\"'\rx\"", "'-", "-12.50", "-7", "5", "a=b"])
    expect(Csv.field("=A1", "raw")).toBe("=A1")
  })
})

describe("Choices", () => {
  it("account types: any word of letters, digits and _, in any letter case, sent upper case; anything else refused", () => {
    expect(Choices.accountType("--from-account-type", "spot")).toEqual(Either.right("SPOT"))
    expect(Choices.accountType("--from-account-type", "FUTURES")).toEqual(Either.right("FUTURES"))
    expect(Choices.accountType("--account-types", "Future")).toEqual(Either.right("FUTURE"))
    expect(Choices.accountType("--account-types", "isolated_margin")).toEqual(Either.right("ISOLATED_MARGIN"))
    // Undocumented but a word: the service judges it.
    expect(Choices.accountType("--to-account-type", "MARGIN")).toEqual(Either.right("MARGIN"))
    for (const text of ["", "  ", "SPOT FUTURES", "FUTURES/USDT", "spöt", "A".repeat(65)]) {
      expect(Either.isLeft(Choices.accountType("--to-account-type", text)), JSON.stringify(text)).toBe(true)
    }
    expect(Choices.accountType("--to-account-type", "x".repeat(200))).toEqual(
      Either.left(
        `--to-account-type: "${"x".repeat(80)}…" is not an account type: write one word of letters, digits and _ ` +
          "(the exchange documents SPOT, FUTURES, FUTURE, ISOLATED_MARGIN)"
      )
    )
  })

  it("undocumented account types: one warning line naming each with where it was given, none for documented ones", () => {
    expect(Choices.undocumentedAccountTypes([
      { type: "SPOT", where: "--account-types" },
      { type: "FUTURE", where: "--account-types" },
      { type: "ISOLATED_MARGIN", where: "--account-types" }
    ])).toBe(undefined)
    expect(Choices.undocumentedAccountTypes([
      { type: "MARGIN", where: "--from-account-type" },
      { type: "SPOT", where: "--to-account-type" }
    ])).toBe(
      "MARGIN (--from-account-type) is not an account type the exchange documents (SPOT, FUTURES, FUTURE, " +
        "ISOLATED_MARGIN): it is sent as written, and the service accepts or refuses it"
    )
    // Repetitions are named once.
    expect(Choices.undocumentedAccountTypes([
      { type: "EARN", where: "pairs" },
      { type: "EARN", where: "pairs" },
      { type: "OPTION", where: "pairs" }
    ])).toMatch(/^EARN \(pairs\), OPTION \(pairs\) are not account types .* they are sent as written/)
  })

  it("deposit statuses: a code or a name, as the code; anything else refused with every code and name", () => {
    expect(Choices.depositStatus("--status", "5")).toEqual(Either.right("5"))
    expect(Choices.depositStatus("--status", "success")).toEqual(Either.right("5"))
    expect(Choices.depositStatus("--status", "COMPLETED")).toEqual(Either.right("12"))
    for (const bogus of ["BOGUS", "0", "13", ""]) {
      const result = Choices.depositStatus("--status", bogus)
      expect(Either.isLeft(result), bogus).toBe(true)
      if (Either.isLeft(result)) expect(result.left).toContain("5 SUCCESS")
    }
  })
})

describe("Choices.format", () => {
  it("export formats in any letter case, as the lower-case name; anything else refused with the formats", () => {
    for (const text of ["csv", "CSV", "Csv", " csv "]) {
      expect(Choices.format("--format", text)).toEqual(Either.right("csv"))
    }
    expect(Choices.format("--format", "Ndjson")).toEqual(Either.right("ndjson"))
    expect(Choices.format("--format", "JSON")).toEqual(Either.right("json"))
    expect(Choices.format("--format", "xml")).toEqual(
      Either.left("--format: \"xml\" is not a format; use one of ndjson, csv, json")
    )
  })
})

describe("Demo options", () => {
  it("a count below its minimum or not an integer is refused before anything starts, naming it", async () => {
    for (
      const [options, message] of [
        [{ transfers: -5 }, "transfers: must be an integer >= 1, got -5"],
        [{ deposits: 0 }, "deposits: must be an integer >= 1, got 0"],
        [{ concurrency: 1.5 }, "concurrency: must be an integer >= 1, got 1.5"],
        [{ seed: -1 }, "seed: must be an integer >= 0, got -1"]
      ] as const
    ) {
      const error = await Effect.runPromise(Effect.flip(Demo.run({ ...Demo.defaults, ...options })))
      expect(ExitCode.describe(error)).toEqual({ kind: "usage", message })
    }
  })

  it("DEMO_* variables are held to the same minimums", () => {
    const read = (name: string, value: string) =>
      Effect.runSyncExit(
        Effect.withConfigProvider(Demo.config, ConfigProvider.fromMap(new Map([[name, value]])))
      )
    expect(Exit.isFailure(read("DEMO_TRANSFERS", "0"))).toBe(true)
    expect(Exit.isFailure(read("DEMO_CONCURRENCY", "-1"))).toBe(true)
    expect(read("DEMO_TRANSFERS", "1")).toEqual(Exit.succeed({ ...Demo.defaults, transfers: 1 }))
  })
})

describe("TimeText", () => {
  const now = Date.parse("2026-01-10T00:00:00Z")
  it("reads dates, date-times, Unix ms and 'ago' durations", () => {
    expect(TimeText.instant("2024-01-01", now)).toEqual(Either.right(Date.parse("2024-01-01T00:00:00Z")))
    expect(TimeText.instant("2024-01-01T12:30:00", now)).toEqual(Either.right(Date.parse("2024-01-01T12:30:00Z")))
    expect(TimeText.instant("2024-01-01T12:30:00+02:00", now)).toEqual(Either.right(Date.parse("2024-01-01T10:30:00Z")))
    expect(TimeText.instant("1704067200000", now)).toEqual(Either.right(1704067200000))
    expect(TimeText.instant("9d", now)).toEqual(Either.right(Date.parse("2026-01-01T00:00:00Z")))
    expect(Either.isLeft(TimeText.instant("yesterday", now))).toBe(true)
    expect(Either.isLeft(TimeText.instant("2024-13-45", now))).toBe(true)
  })

  it("refuses impossible calendar dates instead of rolling them over (issue 12 item 7)", () => {
    for (const text of ["2026-02-30", "2025-02-29", "2026-04-31", "2026-02-28T24:00:00", "2026-01-01T12:60:00"]) {
      expect(Either.isLeft(TimeText.instant(text, now)), text).toBe(true)
    }
    expect(TimeText.instant("2024-02-29", now)).toEqual(Either.right(Date.parse("2024-02-29T00:00:00Z")))
    const left = TimeText.instant("2026-02-30", now)
    expect(Either.isLeft(left) && left.left).toContain("no such date")
  })

  it("reads any Unix ms, 0 included (issue 12 item 7)", () => {
    expect(TimeText.instant("0", now)).toEqual(Either.right(0))
    expect(TimeText.instant("86400000", now)).toEqual(Either.right(86_400_000))
  })

  it("refuses eight digits that read as a date instead of taking them as Unix ms in 1970", () => {
    const result = TimeText.instant("20240101", now)
    expect(Either.isLeft(result) && result.left).toContain("write 2024-01-01")
    expect(TimeText.instant("20241301", now)).toEqual(Either.right(20_241_301))
  })

  it("refuses ten digits (Unix seconds) with the Unix ms to write; any other number of digits is Unix ms", () => {
    const seconds = TimeText.instant("1735689600", now)
    expect(seconds).toEqual(Either.left(
      "\"1735689600\" looks like Unix seconds (2025-01-01T00:00:00.000Z): write 1735689600000 for Unix ms " +
        "(ten digits are refused, as Unix ms they would be a time in 1970)"
    ))
    // The value counts, not how it is written: leading zeros do not make seconds into ms.
    expect(Either.isLeft(TimeText.instant("0001735689600", now))).toBe(true)
    for (const text of ["1000000000", "9999999999"]) expect(Either.isLeft(TimeText.instant(text, now)), text).toBe(true)
    for (const ms of [0, 1, 999_999_999, 10_000_000_000, 1_735_689_600_000]) {
      expect(TimeText.instant(String(ms), now), String(ms)).toEqual(Either.right(ms))
    }
  })

  it("reads durations", () => {
    expect(TimeText.duration("30s")).toEqual(Either.right(Duration.seconds(30)))
    expect(TimeText.duration("5m")).toEqual(Either.right(Duration.minutes(5)))
    expect(TimeText.duration("1d")).toEqual(Either.right(Duration.days(1)))
    expect(TimeText.duration("250ms")).toEqual(Either.right(Duration.millis(250)))
    expect(Either.map(TimeText.duration("10 seconds"), Duration.toMillis)).toEqual(Either.right(10_000))
    expect(Either.isLeft(TimeText.duration("soon"))).toBe(true)
  })

  it("writes a duration back as Effect duration text, so every duration flag takes one syntax", () => {
    expect(Either.map(TimeText.duration("2s"), TimeText.durationText)).toEqual(Either.right("2000 millis"))
    expect(Either.map(TimeText.duration("1.5m"), TimeText.durationText)).toEqual(Either.right("90000 millis"))
  })
})

describe("Plan", () => {
  it("default plan: master→sub and sub→master per sub-account and type pair, plus the master's own", () => {
    const streams = Plan.transferStreams(Plan.defaultPairs(["a@x", "b@x", "c@x"]), ["SPOT", "FUTURES"])
    expect(streams).toHaveLength((1 + 2 * 3) * 4)
    expect(new Set(streams.map((s) => s.id)).size).toBe(streams.length)
    expect(streams).toContainEqual(
      Plan.transferStream({ fromAccountType: "FUTURES", toAccountType: "SPOT", fromAccount: "b@x" })
    )
    expect(streams.filter((s) => s.query.fromAccount === undefined && s.query.toAccount === undefined)).toHaveLength(4)
  })

  it("reads a pairs file and refuses a bad line with its number", () => {
    expect(Plan.parsePairs("# c\n- a@x\nmaster b@x SPOT FUTURES\n a@x b@x # sub→sub\n")).toEqual(Either.right([
      { fromAccount: undefined, toAccount: "a@x" },
      { fromAccount: undefined, toAccount: "b@x", fromAccountType: "SPOT", toAccountType: "FUTURES" },
      { fromAccount: "a@x", toAccount: "b@x" }
    ]))
    expect(Plan.parsePairs("a b\na b c")).toEqual(Either.left(expect.stringContaining("line 2")))
    expect(Either.isLeft(Plan.parsePairs("# nothing\n"))).toBe(true)
    expect(Plan.names("a@x, b@x\n#c\n\nb@x")).toEqual(["a@x", "b@x"])
  })
})

describe("ExitCode", () => {
  const request = { endpoint: "transferHistory" }
  it("maps every failure to its kind", () => {
    const kinds = [
      [new BrokerError.InvalidQuery({ endpoint: "x", parameter: "since", rule: "r" }), "usage"],
      [
        new BrokerError.AuthenticationError({ request, status: 401, code: 700001, msg: "m", reason: "ApiKey" }),
        "authentication"
      ],
      [new BrokerError.TransportError({ request, reason: "Connect", description: "refused", attempts: 6 }), "network"],
      [new BrokerError.ServerError({ request, status: 500, attempts: 6 }), "other"],
      [
        new BrokerError.RateLimited({ request, status: 429, code: 429, msg: "m", retryAfterMillis: 1, attempts: 6 }),
        "other"
      ],
      [new BrokerError.ApiError({ request, status: 400, code: 33333, msg: "Param is error" }), "other"],
      [
        new BrokerError.IncompleteHistory({ request, time: 0, received: 1000, pages: 2, reason: "EmptyPage" }),
        "incomplete"
      ],
      [new ExitCode.IncompleteRun({ milliseconds: 1 }), "incomplete"],
      [new ExitCode.UsageError({ message: "m" }), "usage"],
      [ConfigError.MissingData(["BROKER_API_KEY"], "missing"), "authentication"],
      [ConfigError.InvalidData(["BROKER_RATE_LIMIT"], "BROKER_RATE_LIMIT must be a whole number"), "usage"],
      [new Error("boom"), "other"]
    ] as const
    for (const [error, kind] of kinds) expect(ExitCode.describe(error).kind, String(error)).toBe(kind)
    expect(new Set(Object.values(ExitCode.codes)).size).toBe(6)
  })

  it("says what to do", () => {
    expect(ExitCode.describe(ConfigError.MissingData(["BROKER_SECRET_KEY"], "missing")).message).toBe(
      "BROKER_SECRET_KEY (or --secret-key) is not set: set it to your API secret key (see --help)"
    )
    expect(ExitCode.describe(new Error("boom")).message).toContain("--verbose")
  })

  it("interruption and a closed stdout are success; failures carry the code", async () => {
    expect(await Effect.runPromise(Effect.interrupt.pipe(ExitCode.report(false), Effect.either))).toEqual(
      Either.right(undefined)
    )
    expect(await Effect.runPromise(Effect.fail(new ExitCode.PipeClosed()).pipe(ExitCode.report(false), Effect.either)))
      .toEqual(Either.right(undefined))
  })
})

describe("Progress", () => {
  it("renders the live line and the summary", () => {
    const s: Progress.Snapshot = {
      label: "transfers",
      records: 1500,
      latest: Date.parse("2025-03-14T10:00:00Z"),
      elapsedMillis: 3000,
      requests: 12,
      retries: 1,
      rateLimitWaits: 3
    }
    expect(Progress.line(s)).toBe(
      "transfers: 1500 records, at 2025-03-14, 500 records/s, 12 requests, 1 retry, 3 rate-limit waits"
    )
    expect(Progress.summary(s)).toBe(
      "transfers: 1500 records in 3.0 s (500 records/s), 12 requests, 1 retry, 3 rate-limit waits"
    )
  })
})

describe("Export", () => {
  const collect = (format: Encoding.Format, records: ReadonlyArray<{ a: number; b: string }>) =>
    Effect.gen(function*() {
      let text = ""
      const output = Layer.succeed(
        Output.Output,
        Output.Output.of({ write: (t) => Effect.sync(() => void (text += t)), complete: Effect.void })
      )
      yield* Export.write(Stream.fromIterable(records), format, ["a", "b"], (r) => r.a).pipe(
        Effect.provide(Layer.mergeAll(output, Progress.layer({ label: "x", endpoints: [], live: false })))
      )
      return text
    }).pipe(Effect.runPromise)

  it("writes NDJSON, CSV and a JSON array", async () => {
    const records = [{ a: 1, b: "x" }, { a: 2, b: "y,z" }]
    expect(await collect("ndjson", records)).toBe("{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y,z\"}\n")
    expect(await collect("csv", records)).toBe("a,b\r\n1,x\r\n2,\"y,z\"\r\n")
    expect(JSON.parse(await collect("json", records))).toEqual(records)
    expect(await collect("json", [])).toBe("[]\n")
  })
})

describe("Output", () => {
  it("a write completes only when the destination has taken it (backpressure)", async () => {
    const taken: Array<string> = []
    let release: () => void = () => {}
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk, _enc, done) {
        release = () => {
          taken.push(String(chunk))
          done()
        }
      }
    })
    const original = Object.getOwnPropertyDescriptor(process, "stdout")!
    Object.defineProperty(process, "stdout", { value: slow, configurable: true })
    try {
      const program = Effect.gen(function*() {
        const out = yield* Output.Output
        const fiber = yield* Effect.fork(out.write("one"))
        yield* Effect.sleep("50 millis")
        const pending = fiber.unsafePoll()
        release()
        yield* fiber.await
        return { pending, taken: [...taken] }
      }).pipe(Effect.provide(Output.layerStdout))
      const result = await Effect.runPromise(program)
      expect(result.pending).toBe(null)
      expect(result.taken).toEqual(["one"])
    } finally {
      Object.defineProperty(process, "stdout", original)
    }
  })

  it("EPIPE ends writing with PipeClosed", async () => {
    const broken = new Writable({
      write(_chunk, _enc, done) {
        done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))
      }
    })
    const original = Object.getOwnPropertyDescriptor(process, "stdout")!
    Object.defineProperty(process, "stdout", { value: broken, configurable: true })
    try {
      const result = await Effect.runPromise(
        Effect.flatMap(Output.Output, (out) => out.write("x")).pipe(Effect.provide(Output.layerStdout), Effect.either)
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("PipeClosed")
    } finally {
      Object.defineProperty(process, "stdout", original)
    }
  })
})
