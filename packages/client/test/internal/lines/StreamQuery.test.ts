// Each line's own StreamQuery (src/internal/line/), through the exports both lines share: one test for
// both. (Core holds the rules; here, the line's schemas decoding to them.)
import { Duration } from "effect"
import type { FollowScheduler, StreamOptions } from "../../../src/index.js"
import * as Results from "../../../src/internal/line/Results.js"
import * as StreamQuery from "../../../src/internal/line/StreamQuery.js"
import * as OptionRules from "../../../src/internal/query/OptionRules.js"
import type { Encoded } from "../../support/line/Testing.js"
import { dateTimeAt, describe, epochParts, expect, expectTypeOf, it } from "../../support/line/Testing.js"

const base = { fromAccountType: "SPOT", toAccountType: "FUTURES" } as const
const day = 86_400_000
const dateTimeRule = "must be a date-time (Date, ISO text, DateTime, date parts or Unix ms)"
const durationForms = `(a Duration, milliseconds as a number, or text such as "30 seconds")`

const refusal = <E>(result: Results.Result<unknown, E>): E =>
  Results.match(result, {
    onSuccess: (value): E => {
      throw new Error(`decoded: ${JSON.stringify(value)}`)
    },
    onFailure: (error) => error
  })

describe("StreamQuery: the stream options, described once", () => {
  it("defaults: the endpoint's page size, one window at a time, no range given, no follow", () => {
    expect(Results.successOrUndefined(StreamQuery.transfers.records(base))).toEqual({
      filters: base,
      range: { since: undefined, until: undefined, resume: undefined, limit: 500, concurrency: 1 },
      follow: undefined
    })
    expect(Results.successOrUndefined(StreamQuery.deposits.records({}))?.range.limit).toEqual(1000)
  })

  it("date-times become Unix ms in every form the type allows; durations become ms; filters left out are not kept", () => {
    const decoded = StreamQuery.transfers.changes({
      ...base,
      fromAccount: undefined,
      since: "2025-01-01",
      until: dateTimeAt(Date.UTC(2025, 1, 1)),
      follow: { interval: Duration.seconds(30), settlement: "2 days" }
    })
    expect(Results.successOrUndefined(decoded)).toEqual({
      filters: base,
      range: {
        since: Date.UTC(2025, 0, 1),
        until: Date.UTC(2025, 1, 1),
        resume: undefined,
        limit: 500,
        concurrency: 1
      },
      follow: { interval: 30_000, settlement: 2 * day }
    })
    for (const since of [new Date(5), 5, "1970-01-01T00:00:00.005Z", epochParts(5)]) {
      expect(Results.successOrUndefined(StreamQuery.deposits.records({ since }))?.range.since).toEqual(5)
    }
    expect(Results.successOrUndefined(StreamQuery.deposits.changes({ follow: { interval: 1 } }))?.follow).toEqual(
      { interval: 1, settlement: day }
    )
  })

  it("a checkpoint is read as Checkpoint.decode reads one: other fields are not part of it", () => {
    const decoded = StreamQuery.deposits.records({ resume: { time: 7, ids: ["a"], note: "x" } })
    expect(Results.successOrUndefined(decoded)?.range.resume).toEqual({ time: 7, ids: ["a"] })
  })

  // Each rule: the input, the option named, the rule, what to do (undefined: fix the option).
  it.each(
    [
      // The query itself.
      [null, "query", "must be an object of options", undefined],
      [[base], "query", "must be an object of options", undefined],
      [
        { ...base, pageSize: 3 },
        "pageSize",
        "is not an option of this stream",
        "remove it (the options: fromAccountType, toAccountType, fromAccount, toAccount, clientTranId, since, until, resume, limit, concurrency)"
      ],
      [
        { ...base, startTime: 3 },
        "startTime",
        "is not an option of this stream",
        "remove it (the options: fromAccountType, toAccountType, fromAccount, toAccount, clientTranId, since, until, resume, limit, concurrency)"
      ],
      [
        { ...base, toString: 1 },
        "toString",
        "is not an option of this stream",
        "remove it (the options: fromAccountType, toAccountType, fromAccount, toAccount, clientTranId, since, until, resume, limit, concurrency)"
      ],
      [
        { ...base, follow: { interval: "1 second" } },
        "follow",
        "is an option of the change streams only",
        "use transferChanges / depositChanges to follow"
      ],
      // The filters: the page query's own rules.
      [{ toAccountType: "FUTURES" }, "fromAccountType", "is required", undefined],
      [{ ...base, toAccountType: "" }, "toAccountType", "is required", undefined],
      [
        { ...base, fromAccount: "" },
        "fromAccount",
        "must not be empty (omit it to mean the master account)",
        undefined
      ],
      [{ ...base, toAccount: " a@x" }, "toAccount", "must not start or end with spaces", undefined],
      [{ ...base, clientTranId: "x" }, "clientTranId", "must be exactly 32 ASCII letters or digits", undefined],
      // The range.
      [
        { ...base, since: "yesterday-ish" },
        "since",
        dateTimeRule,
        undefined
      ],
      [{ ...base, since: 1.5 }, "since", dateTimeRule, undefined],
      [{ ...base, since: true }, "since", dateTimeRule, undefined],
      [{ ...base, since: {} }, "since", dateTimeRule, undefined],
      [
        { ...base, since: { time: 5, ids: [] } },
        "since",
        dateTimeRule,
        undefined
      ],
      [{ ...base, since: null }, "since", dateTimeRule, undefined],
      [
        { ...base, until: new Date(Number.NaN) },
        "until",
        dateTimeRule,
        undefined
      ],
      [{ ...base, since: -5 }, "since", "must not be before 1970-01-01", undefined],
      [{ ...base, until: "1969-12-31T23:59:59Z" }, "until", "must not be before 1970-01-01", undefined],
      [{ ...base, since: 10, until: 5 }, "since", "must not be after until", undefined],
      [
        { ...base, resume: { time: -1, ids: [] } },
        "resume",
        "must be a checkpoint { time, ids } from a change stream (time: Unix ms, an integer from 0; ids: texts)",
        undefined
      ],
      [
        { ...base, resume: { time: 1 } },
        "resume",
        "must be a checkpoint { time, ids } from a change stream (time: Unix ms, an integer from 0; ids: texts)",
        undefined
      ],
      [{ ...base, limit: 0 }, "limit", "must be an integer from 1 to 500", undefined],
      [{ ...base, limit: 501 }, "limit", "must be an integer from 1 to 500", undefined],
      [{ ...base, limit: "5" }, "limit", "must be an integer from 1 to 500", undefined],
      [{ ...base, concurrency: 0 }, "concurrency", "must be an integer from 1 to 16", undefined],
      [{ ...base, concurrency: 17 }, "concurrency", "must be an integer from 1 to 16", undefined],
      [{ ...base, concurrency: 2.5 }, "concurrency", "must be an integer from 1 to 16", undefined]
    ] as const
  )("transfers %j: InvalidQuery(%s %s; %s)", (query, parameter, rule, fix) => {
    const error = refusal(StreamQuery.transfers.records(query))
    expect(error).toMatchObject({ _tag: "InvalidQuery", endpoint: "transferHistory", parameter, rule })
    expect(error.fix).toBe(fix)
    expect(error.message).toContain(`${parameter} ${rule}. Nothing was sent; ${fix ?? `fix ${parameter}`}.`)
  })

  it.each(
    [
      [{ coin: "" }, "coin", "must not be empty (omit it to mean every coin)"],
      [{ status: 5 }, "status", "must be text"],
      [{ limit: 1001 }, "limit", "must be an integer from 1 to 1000"],
      [{ fromAccountType: "SPOT" }, "fromAccountType", "is not an option of this stream"]
    ] as const
  )("deposits %j: InvalidQuery(%s %s)", (query, parameter, rule) => {
    expect(refusal(StreamQuery.deposits.records(query))).toMatchObject({ endpoint: "depositHistory", parameter, rule })
  })

  it.each(
    [
      [5, "follow", "must be an object { interval, settlement }", undefined],
      [null, "follow", "must be an object { interval, settlement }", undefined],
      [{}, "follow.interval", "is required", undefined],
      [{ interval: 0 }, "follow.interval", `must be a positive, finite duration ${durationForms}`, undefined],
      [{ interval: "0 millis" }, "follow.interval", `must be a positive, finite duration ${durationForms}`, undefined],
      // Duration itself reads a negative or NaN input as zero: refused, never silently zero.
      [
        { interval: "-5 seconds" },
        "follow.interval",
        `must be a positive, finite duration ${durationForms}`,
        undefined
      ],
      [{ interval: Number.NaN }, "follow.interval", `must be a positive, finite duration ${durationForms}`, undefined],
      [{ interval: "Infinity" }, "follow.interval", `must be a positive, finite duration ${durationForms}`, undefined],
      [
        { interval: Duration.infinity },
        "follow.interval",
        `must be a positive, finite duration ${durationForms}`,
        undefined
      ],
      [{ interval: "soon" }, "follow.interval", `must be a positive, finite duration ${durationForms}`, undefined],
      [
        { interval: "1 second", settlement: -1 },
        "follow.settlement",
        `must be a finite duration, 0 or more ${durationForms}`,
        undefined
      ],
      [
        { interval: "1 second", settlement: "-1 days" },
        "follow.settlement",
        `must be a finite duration, 0 or more ${durationForms}`,
        undefined
      ],
      [
        { interval: "1 second", settlement: [-1, 0] },
        "follow.settlement",
        `must be a finite duration, 0 or more ${durationForms}`,
        undefined
      ],
      [
        { interval: "1 second", settlement: BigInt(-1) },
        "follow.settlement",
        `must be a finite duration, 0 or more ${durationForms}`,
        undefined
      ],
      [
        { interval: "1 second", settlement: "Infinity" },
        "follow.settlement",
        `must be a finite duration, 0 or more ${durationForms}`,
        undefined
      ],
      [
        { interval: "1 second", settle: "2 days" },
        "follow.settle",
        "is not an option of follow",
        "remove it (the options of follow: interval, settlement)"
      ]
    ] as const
  )("follow %o: InvalidQuery(%s %s)", (follow, parameter, rule, fix) => {
    const error = refusal(StreamQuery.transfers.changes({ ...base, follow }))
    expect(error).toMatchObject({ _tag: "InvalidQuery", parameter, rule })
    expect(error.fix).toBe(fix)
  })

  it("a followed stream's query: follow is the scheduler's, not the stream's", () => {
    expect(refusal(StreamQuery.transfers.followed({ ...base, follow: { interval: 1 } }))).toMatchObject({
      parameter: "follow",
      rule: "is not an option of a followed stream",
      fix: "remove it: every stream is followed, and settlement is an option of followTransfers / followDeposits"
    })
    const named = OptionRules.ofStream(3)(refusal(StreamQuery.transfers.followed({ ...base, limit: 0 })))
    expect(named).toMatchObject({ parameter: "streams[3].limit", rule: "must be an integer from 1 to 500" })
  })

  it.each(
    [
      [null, "options", "must be an object of options"],
      [{ minInterval: "0 millis" }, "minInterval", `must be a positive, finite duration ${durationForms}`],
      [{ maxInterval: -1 }, "maxInterval", `must be a positive, finite duration ${durationForms}`],
      [{ maxInterval: "10 millis" }, "maxInterval", "must not be shorter than minInterval (1s)"],
      [
        { minInterval: "1 minute", maxInterval: "30 seconds" },
        "maxInterval",
        "must not be shorter than minInterval (1m)"
      ],
      [{ concurrency: 0 }, "concurrency", "must be an integer from 1 to 64"],
      [{ concurrency: 65 }, "concurrency", "must be an integer from 1 to 64"],
      [{ settlement: "1 day" }, "settlement", "is not an option of the follow scheduler"]
    ] as const
  )("the follow scheduler's options %j: InvalidQuery(%s %s)", (options, parameter, rule) => {
    expect(refusal(StreamQuery.decode(StreamQuery.schedule, "follow")(options))).toMatchObject({
      endpoint: "follow",
      parameter,
      rule
    })
  })

  it("the follow scheduler's options: defaults, durations in ms", () => {
    expect(Results.successOrUndefined(StreamQuery.decode(StreamQuery.schedule, "follow")({}))).toEqual(
      { minInterval: 1_000, maxInterval: 300_000, concurrency: 8 }
    )
    expect(
      Results.successOrUndefined(
        StreamQuery.decode(StreamQuery.followMany, "depositHistory")({ settlement: "6 hours" })
      )
    ).toEqual({ minInterval: 1_000, maxInterval: 300_000, concurrency: 8, settlement: 6 * 3_600_000 })
  })

  it.each(
    [
      [{ settlement: "forever" }, "settlement", `must be a finite duration, 0 or more ${durationForms}`],
      [{ settlement: -1 }, "settlement", `must be a finite duration, 0 or more ${durationForms}`],
      [{ interval: "1 minute" }, "interval", "is not an option of followTransfers / followDeposits"]
    ] as const
  )("followTransfers' options %j: InvalidQuery(%s %s)", (options, parameter, rule) => {
    expect(refusal(StreamQuery.decode(StreamQuery.followMany, "transferHistory")(options))).toMatchObject({
      endpoint: "transferHistory",
      parameter,
      rule
    })
  })

  it.each(
    [
      [{ maxSubAccounts: 0 }, "maxSubAccounts", "must be an integer from 1 to 1000000"],
      [{ maxSubAccounts: 1.5 }, "maxSubAccounts", "must be an integer from 1 to 1000000"],
      [{ maxSubAccounts: 1_000_001 }, "maxSubAccounts", "must be an integer from 1 to 1000000"],
      [{ limit: 10 }, "limit", "is not an option of this stream"],
      [null, "options", "must be an object of options"]
    ] as const
  )("subAccounts' options %j: InvalidQuery(%s %s)", (options, parameter, rule) => {
    expect(refusal(StreamQuery.decode(StreamQuery.subAccounts, "subAccountList")(options))).toMatchObject({
      endpoint: "subAccountList",
      parameter,
      rule
    })
  })

  it("the schemas name the options of the public types, and accept every value those types allow", () => {
    type OptionsOf<S extends { readonly schema: unknown }> = Encoded<S["schema"]>
    type TransferRecords = OptionsOf<typeof StreamQuery.transfers.schemas.records>
    type TransferChanges = OptionsOf<typeof StreamQuery.transfers.schemas.changes>
    type DepositRecords = OptionsOf<typeof StreamQuery.deposits.schemas.records>
    type DepositChanges = OptionsOf<typeof StreamQuery.deposits.schemas.changes>
    expectTypeOf<keyof StreamOptions.TransferStreamQuery>().toEqualTypeOf<keyof TransferRecords>()
    expectTypeOf<StreamOptions.TransferStreamQuery>().toMatchTypeOf<TransferRecords>()
    expectTypeOf<keyof (StreamOptions.TransferStreamQuery & StreamOptions.ChangeOptions)>().toEqualTypeOf<
      keyof TransferChanges
    >()
    expectTypeOf<StreamOptions.TransferStreamQuery & StreamOptions.ChangeOptions>().toMatchTypeOf<TransferChanges>()
    expectTypeOf<keyof StreamOptions.DepositStreamQuery>().toEqualTypeOf<keyof DepositRecords>()
    expectTypeOf<StreamOptions.DepositStreamQuery>().toMatchTypeOf<DepositRecords>()
    expectTypeOf<StreamOptions.DepositStreamQuery & StreamOptions.ChangeOptions>().toMatchTypeOf<DepositChanges>()
    expectTypeOf<keyof StreamOptions.FollowOptions>().toEqualTypeOf<keyof NonNullable<TransferChanges["follow"]>>()
    expectTypeOf<keyof FollowScheduler.Options>().toEqualTypeOf<keyof OptionsOf<typeof StreamQuery.schedule>>()
    expectTypeOf<FollowScheduler.Options>().toMatchTypeOf<OptionsOf<typeof StreamQuery.schedule>>()
    expectTypeOf<keyof FollowScheduler.FollowOptions>().toEqualTypeOf<keyof OptionsOf<typeof StreamQuery.followMany>>()
    expectTypeOf<FollowScheduler.FollowOptions>().toMatchTypeOf<OptionsOf<typeof StreamQuery.followMany>>()
    expectTypeOf<keyof StreamOptions.SubAccountOptions>().toEqualTypeOf<
      keyof OptionsOf<typeof StreamQuery.subAccounts>
    >()
    expectTypeOf<StreamOptions.SubAccountOptions>().toMatchTypeOf<OptionsOf<typeof StreamQuery.subAccounts>>()
  })
})
