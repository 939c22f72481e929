// The sub-account list in the client: the page call (validated, checked), the stream over every page
// (each sub-account once, bounded), refusals in the envelope classified, against an in-memory service.
import type { BrokerError } from "@broker-history/client-effect4"
import { BrokerHistory } from "@broker-history/client-effect4"
import { ErrorBody } from "@broker-history/domain-effect4"
import { Effect, Fiber, Metric, Result, Stream } from "effect"
import { describe, expect, it } from "./support/EffectTest.js"
import type { Answer, Seen } from "./support/MockService.js"
import { historyLayerSyncSigning, mockService } from "./support/MockService.js"
import * as VirtualClock from "./support/VirtualClock.js"

const listPath = "/api/v3/broker/sub-account/list"

const record = (name: string, timestamp: number | string | null = 1597026383085) => ({
  subAccount: name,
  note: null,
  timestamp
})

const names = (count: number, prefix = "sub") =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, "0")}@broker.test`)

/** A list service over `all`: honours page and limit (default 10, at most 200), in the envelope. */
const listService = (all: ReadonlyArray<string>, options: { readonly bare?: boolean } = {}) => (seen: Seen): Answer => {
  const page = Number(seen.params.get("page") ?? 1)
  const limit = Number(seen.params.get("limit") ?? 10)
  const filter = seen.params.get("subAccount")
  const data = all.filter((n) => filter === null || n === filter).slice((page - 1) * limit, page * limit)
    .map((n, i) => record(n, i % 2 === 0 ? String(1597026383085 + i) : 1597026383085 + i))
  return { status: 200, body: options.bare ? data : { code: "0", message: "", data } }
}

const run = <A, E>(
  answer: (seen: Seen) => Answer,
  f: (history: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, E>,
  overrides = {}
) =>
  Effect.gen(function*() {
    const mock = mockService(answer)
    const fiber = yield* Effect.service(BrokerHistory.BrokerHistory).pipe(
      Effect.flatMap(f),
      Effect.provide(historyLayerSyncSigning(mock, overrides)),
      Effect.result,
      Effect.forkChild
    )
    // Let every retry wait pass.
    yield* VirtualClock.adjust("30 seconds")
    return { result: yield* Fiber.join(fiber), mock }
  }).pipe(VirtualClock.run())

const failure = <A>(
  answer: (seen: Seen) => Answer,
  f: (history: BrokerHistory.BrokerHistory["Service"]) => Effect.Effect<A, BrokerError.BrokerError>,
  overrides = {}
) =>
  Effect.map(run(answer, f, overrides), ({ mock, result }) => {
    if (result._tag === "Success") throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
    return { error: result.failure, mock }
  })

const collect = (options?: Parameters<BrokerHistory.BrokerHistory["Service"]["subAccounts"]>[0]) =>
(
  history: BrokerHistory.BrokerHistory["Service"]
) => Stream.runCollect(history.subAccounts(options))

describe("BrokerHistory.subAccountList (one page)", () => {
  it.effect("signs the exact query sent and decodes the documented envelope", () =>
    Effect.gen(function*() {
      const { mock, result } = yield* run(
        listService(names(3)),
        (h) => h.subAccountList({ subAccount: "sub0002@broker.test", page: 1, limit: 200 })
      )
      expect(result).toEqual(
        Result.succeed([{ subAccount: "sub0002@broker.test", note: "", timestamp: 1597026383085 }])
      )
      expect(mock.seen[0]?.path).toBe(listPath)
      expect(mock.seen[0]?.query).toMatch(
        /^subAccount=sub0002%40broker\.test&page=1&limit=200&timestamp=\d+&signature=[0-9a-f]{64}$/
      )
    }))

  it.effect("without a query: the service's first page, nothing but the signature sent", () =>
    Effect.gen(function*() {
      const { mock, result } = yield* run(listService(names(12), { bare: true }), (h) => h.subAccountList())
      expect(result._tag === "Success" && result.success.length).toBe(10)
      expect(mock.seen[0]?.query).toMatch(/^timestamp=\d+&signature=[0-9a-f]{64}$/)
    }))

  it.effect.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 201 }, "limit"],
    [{ page: 0 }, "page"],
    [{ page: 2.5 }, "page"],
    [{ subAccount: "" }, "subAccount"],
    [{ subAccount: "a " }, "subAccount"],
    [{ coin: "USDT" }, "coin"]
  ])("rejects %j with InvalidQuery(%s) and sends nothing", ([query, parameter]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(listService(names(3)), (h) => h.subAccountList(query as any))
      expect(error._tag).toBe("InvalidQuery")
      expect((error as BrokerError.InvalidQuery).parameter).toBe(parameter)
      expect(error.message).toContain("Invalid subAccountList query")
      expect(mock.seen.length).toBe(0)
    }))

  it.effect("an answer longer than the limit asked for, or naming another sub-account, is OutsideQuery", () =>
    Effect.gen(function*() {
      const long = yield* failure(
        () => ({ status: 200, body: names(3).map((n) => record(n)) }),
        (h) => h.subAccountList({ limit: 2 })
      )
      expect(long.error).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery" })
      expect((long.error as BrokerError.ResponseDecodeError).description).toContain("more than the 2")
      const other = yield* failure(
        () => ({ status: 200, body: [record("a@x"), record("b@x")] }),
        (h) => h.subAccountList({ subAccount: "a@x" })
      )
      expect(other.error).toMatchObject({ _tag: "ResponseDecodeError", reason: "OutsideQuery" })
      expect((other.error as BrokerError.ResponseDecodeError).description).toContain(`"b@x"`)
    }))

  it.effect("a body of another shape is UnexpectedShape naming where, not retried", () =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(
        () => ({ status: 200, body: { code: "0", message: "", data: [{ subAccount: "a", timestamp: "soon" }] } }),
        (h) => h.subAccountList()
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", reason: "UnexpectedShape" })
      expect((error as BrokerError.ResponseDecodeError).description).toContain("data[0].timestamp")
      expect(mock.seen.length).toBe(1)
    }))
})

describe("refusals in the envelope (code other than \"0\")", () => {
  const refusal = (code: number | string, text: Record<string, unknown>, status = 200): Answer => ({
    status,
    body: { code, ...text, data: null }
  })

  it.effect.each(
    [
      ["700001", "AuthenticationError", "ApiKey"],
      [700002, "AuthenticationError", "Signature"],
      ["700007", "AuthenticationError", "Permission"],
      ["33333", "ApiError", undefined],
      [700004, "ApiError", undefined]
    ] as const
  )("code %j is %s", ([code, tag, reason]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(
        () => refusal(code, { message: "refused here" }),
        (h) => h.subAccountList()
      )
      expect(error._tag).toBe(tag)
      expect(error).toMatchObject({ code: Number(code), msg: "refused here", status: 200 })
      if (reason !== undefined) expect((error as BrokerError.AuthenticationError).reason).toBe(reason)
      expect(mock.seen.length).toBe(1)
    }))

  it.effect("a permission refusal names the permission the list needs", () =>
    Effect.gen(function*() {
      const { error } = yield* failure(
        () => refusal(ErrorBody.Code.NoPermission, { message: "No permission to access the endpoint." }, 403),
        (h) => h.subAccountList()
      )
      expect(error.message).toContain("give the API key a history permission (SPOT_TRANSFER_READ")
    }))

  it.effect("the text comes from message or msg, made safe and bounded", () =>
    Effect.gen(function*() {
      const withMsg = yield* failure(() => refusal("33333", { msg: "Param is error" }), (h) => h.subAccountList())
      expect(withMsg.error).toMatchObject({ _tag: "ApiError", msg: "Param is error" })
      const hostile = yield* failure(
        () => refusal("33333", { message: "\u001b[31mred\u001b[0m\n" + "x".repeat(5000) }),
        (h) => h.subAccountList()
      )
      const msg = (hostile.error as BrokerError.ApiError).msg
      expect(msg.includes("\u001b") || msg.includes("\n")).toBe(false)
      expect(msg.length).toBeLessThanOrEqual(301)
    }))

  it.effect("429 in the envelope is RateLimited, retried; 700003 resynchronises the clock once", () =>
    Effect.gen(function*() {
      const limited = yield* failure(
        () => refusal(429, { message: "Too many requests." }),
        (h) => h.subAccountList(),
        { retry: { maxRetries: 2, baseDelay: "10 millis", maxDelay: "10 millis" } }
      )
      expect(limited.error._tag).toBe("RateLimited")
      expect(limited.mock.seen.length).toBe(3)
      const stale = yield* failure(
        () => refusal("700003", { message: "Timestamp for this request is outside of the recvWindow." }),
        (h) => h.subAccountList()
      )
      expect(stale.error._tag).toBe("TimestampRejected")
      expect(stale.mock.seen.length).toBe(2)
      expect(stale.mock.timeRequests.length).toBeGreaterThanOrEqual(1)
    }))
})

describe("BrokerHistory.subAccounts (the whole list)", () => {
  it.effect("reads every page of 200 until the first short page, each sub-account once, in order", () =>
    Effect.gen(function*() {
      const all = names(457)
      const { mock, result } = yield* run(listService(all), collect())
      if (result._tag === "Failure") throw new Error(result.failure.message)
      expect(result.success.map((s) => s.subAccount)).toEqual(all)
      expect(result.success[0]).toEqual({ subAccount: all[0], note: "", timestamp: 1597026383085 })
      expect(result.success[1]?.timestamp).toBe(1597026383086)
      expect(mock.seen.map((s) => [s.params.get("page"), s.params.get("limit")])).toEqual([
        ["1", "200"],
        ["2", "200"],
        ["3", "200"]
      ])
    }))

  it.effect("a list of exactly full pages ends at the empty page after them; an empty list is empty", () =>
    Effect.gen(function*() {
      const full = yield* run(listService(names(400), { bare: true }), collect())
      expect(full.result._tag === "Success" && full.result.success.length).toBe(400)
      expect(full.mock.seen.length).toBe(3)
      const empty = yield* run(listService([]), collect())
      expect(empty.result).toEqual(Result.succeed([]))
      expect(empty.mock.seen.length).toBe(1)
    }))

  it.effect("a sub-account created during the read (the list shifts) is emitted once", () =>
    Effect.gen(function*() {
      const all = names(300)
      // After page 1 is read, a new sub-account appears at the head: page 2 starts with page 1's last.
      const answer = (seen: Seen): Answer =>
        listService(seen.params.get("page") === "1" ? all : ["new@broker.test", ...all])(seen)
      const { result } = yield* run(answer, collect())
      if (result._tag === "Failure") throw new Error(result.failure.message)
      const got = result.success.map((s) => s.subAccount)
      expect(got).toEqual(all)
      expect(new Set(got).size).toBe(got.length)
    }))

  it.effect("is lazy: nothing is sent until it runs, and each run reads the list again", () =>
    Effect.gen(function*() {
      const mock = mockService(listService(names(5)))
      const counts = yield* Effect.gen(function*() {
        const history = yield* BrokerHistory.BrokerHistory
        const stream = history.subAccounts()
        const before = mock.seen.length
        const first = yield* Stream.runCount(stream)
        const second = yield* Stream.runCount(stream)
        return { before, first, second, sent: mock.seen.length }
      }).pipe(Effect.provide(historyLayerSyncSigning(mock)))
      expect(counts).toEqual({ before: 0, first: 5, second: 5, sent: 2 })
    }))

  it.effect("counts what it received and records the success for availability", () =>
    Effect.gen(function*() {
      const received = Metric.withAttributes(BrokerHistory.recordsReceived, { endpoint: "subAccountList" })
      const before = (yield* Metric.value(received)).count
      const mock = mockService(listService(names(7)))
      const availability = yield* Effect.gen(function*() {
        const history = yield* BrokerHistory.BrokerHistory
        yield* Stream.runDrain(history.subAccounts())
        return yield* history.availability
      }).pipe(Effect.provide(historyLayerSyncSigning(mock)))
      expect((yield* Metric.value(received)).count - before).toBe(7)
      expect(availability.lastSuccess).toBeTypeOf("number")
    }))

  it.effect("a service answering full pages of new names forever stops at maxSubAccounts (TooMany)", () =>
    Effect.gen(function*() {
      const endless = (seen: Seen): Answer => ({
        status: 200,
        body: names(200, `p${seen.params.get("page")}-`).map((n) => record(n))
      })
      const { error, mock } = yield* failure(endless, collect({ maxSubAccounts: 1000 }))
      expect(error).toMatchObject({
        _tag: "SubAccountListTooLong",
        reason: "TooMany",
        maxSubAccounts: 1000,
        received: 1000,
        pages: 6,
        request: { endpoint: "subAccountList", page: 6 }
      })
      expect(error.message).toContain("raise maxSubAccounts")
      expect(mock.seen.length).toBe(6)
    }))

  it.effect("a service that ignores page stops at the first full page with nothing new (NothingNew)", () =>
    Effect.gen(function*() {
      const same = (): Answer => ({ status: 200, body: names(200).map((n) => record(n)) })
      const { error, mock } = yield* failure(same, collect())
      expect(error).toMatchObject({ _tag: "SubAccountListTooLong", reason: "NothingNew", received: 200, pages: 2 })
      expect(mock.seen.length).toBe(2)
    }))

  it.effect("full pages of mostly repeated names stop after the pages the bound fills (PageLimit)", () =>
    Effect.gen(function*() {
      // Each page: 199 names already read and one new one.
      const creeping = (seen: Seen): Answer => ({
        status: 200,
        body: [...names(199), `new${seen.params.get("page")}@broker.test`].map((n) => record(n))
      })
      const { error, mock } = yield* failure(creeping, collect({ maxSubAccounts: 1000 }))
      expect(error).toMatchObject({ _tag: "SubAccountListTooLong", reason: "PageLimit", pages: 6, received: 205 })
      expect(mock.seen.length).toBe(6)
    }))

  it.effect.each([
    [{ maxSubAccounts: 0 }, "maxSubAccounts"],
    [{ maxSubAccounts: 1.5 }, "maxSubAccounts"],
    [{ maxSubAccounts: 1_000_001 }, "maxSubAccounts"],
    [{ limit: 10 }, "limit"],
    [null, "options"]
  ])("rejects options %j with InvalidQuery(%s) and sends nothing", ([options, parameter]) =>
    Effect.gen(function*() {
      const { error, mock } = yield* failure(listService(names(3)), collect(options as any))
      expect(error).toMatchObject({ _tag: "InvalidQuery", endpoint: "subAccountList", parameter })
      expect(mock.seen.length).toBe(0)
    }))

  it.effect("a page's refusal ends the stream with that error", () =>
    Effect.gen(function*() {
      const answer = (seen: Seen): Answer =>
        seen.params.get("page") === "2"
          ? { status: 200, body: { code: "700007", message: "No permission", data: null } }
          : listService(names(450))(seen)
      const { error } = yield* failure(answer, collect())
      expect(error).toMatchObject({ _tag: "AuthenticationError", reason: "Permission", request: { page: 2 } })
    }))
})
