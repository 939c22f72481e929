// The sub-account list on both lines over the mock transport: the page call (validated, checked), the
// stream over every page (each sub-account once, bounded), refusals in the envelope classified.
import * as ErrorBody from "@broker-history/core/protocol/ErrorBody"
import { describe, expect, it } from "vitest"
import type { Outcome } from "../../src/Line.js"
import { failure as failureOf, success } from "../../src/Line.js"
import type { Answer, Handle, Seen, Settings, Sim } from "../../src/Simulation.js"
import { settled } from "../../src/Simulation.js"
import * as Simulations from "../../src/Simulations.js"
import type { End } from "../../src/Walk.js"

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

interface SubAccount {
  readonly subAccount: string
  readonly note: string
  readonly timestamp: number
}

/** How a stream ended, as an outcome: what it emitted, or its failure. */
const outcomeOf = (handle: Handle): Outcome<ReadonlyArray<SubAccount>> => {
  const end: End | undefined = handle.end()
  if (end?._tag === "Done") return { _tag: "Success", value: handle.emitted as ReadonlyArray<SubAccount> }
  if (end?._tag === "Failure") return end
  throw new Error(`the stream ended ${JSON.stringify(end)}`)
}

describe.each(Simulations.all)("the sub-account list ($name)", (line) => {
  /** `use` over `answer`, every retry wait let pass; its outcome and what was sent. */
  const run = async <A>(
    answer: (seen: Seen) => Answer,
    use: (sim: Sim) => Promise<Outcome<A>>,
    settings: Settings = {}
  ) => {
    let result: {
      readonly outcome: Outcome<A>
      readonly seen: ReadonlyArray<Seen>
      readonly timeRequests: ReadonlyArray<number>
    } | undefined
    await line.run({ answer }, { start: 0, settings }, async (sim) => {
      result = { outcome: await settled(sim, use(sim)), seen: sim.requests, timeRequests: sim.timeRequests }
    })
    return result!
  }
  const list = (query?: unknown) => (sim: Sim) => sim.call("subAccountList", query)
  /** The whole list (`subAccounts(options)`), run to its end. */
  const collect = (...options: ReadonlyArray<unknown>) => async (sim: Sim) => {
    const handle = sim.start("subAccounts", ...options)
    while (handle.end() === undefined) await sim.adjust(1_000)
    return outcomeOf(handle)
  }
  const failure = async <A>(
    answer: (seen: Seen) => Answer,
    use: (sim: Sim) => Promise<Outcome<A>>,
    settings: Settings = {}
  ) => {
    const { outcome, seen, timeRequests } = await run(answer, use, settings)
    return { error: failureOf(outcome), seen, timeRequests }
  }

  describe("BrokerHistory.subAccountList (one page)", () => {
    it("signs the exact query sent and decodes the documented envelope", async () => {
      const { outcome, seen } = await run(
        listService(names(3)),
        list({ subAccount: "sub0002@broker.test", page: 1, limit: 200 })
      )
      expect(success(outcome)).toEqual([{ subAccount: "sub0002@broker.test", note: "", timestamp: 1597026383085 }])
      expect(seen[0]?.path).toBe(listPath)
      expect(seen[0]?.query).toMatch(
        /^subAccount=sub0002%40broker\.test&page=1&limit=200&timestamp=\d+&signature=[0-9a-f]{64}$/
      )
    })

    it("without a query: the service's first page, nothing but the signature sent", async () => {
      const { outcome, seen } = await run(listService(names(12), { bare: true }), list())
      expect((success(outcome) as ReadonlyArray<unknown>).length).toBe(10)
      expect(seen[0]?.query).toMatch(/^timestamp=\d+&signature=[0-9a-f]{64}$/)
    })

    it.each([
      [{ limit: 0 }, "limit"],
      [{ limit: 201 }, "limit"],
      [{ page: 0 }, "page"],
      [{ page: 2.5 }, "page"],
      [{ subAccount: "" }, "subAccount"],
      [{ subAccount: "a " }, "subAccount"],
      [{ coin: "USDT" }, "coin"]
    ])("rejects %j with InvalidQuery(%s) and sends nothing", async (query, parameter) => {
      const { error, seen } = await failure(listService(names(3)), list(query))
      expect(error._tag).toBe("InvalidQuery")
      expect(error.fields["parameter"]).toBe(parameter)
      expect(error.message).toContain("Invalid subAccountList query")
      expect(seen.length).toBe(0)
    })

    it("an answer longer than the limit asked for, or naming another sub-account, is OutsideQuery", async () => {
      const long = await failure(() => ({ status: 200, body: names(3).map((n) => record(n)) }), list({ limit: 2 }))
      expect(long.error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
      expect(long.error.fields["description"]).toContain("more than the 2")
      const other = await failure(
        () => ({ status: 200, body: [record("a@x"), record("b@x")] }),
        list({ subAccount: "a@x" })
      )
      expect(other.error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "OutsideQuery" } })
      expect(other.error.fields["description"]).toContain(`"b@x"`)
    })

    it("a body of another shape is UnexpectedShape naming where, not retried", async () => {
      const { error, seen } = await failure(
        () => ({ status: 200, body: { code: "0", message: "", data: [{ subAccount: "a", timestamp: "soon" }] } }),
        list()
      )
      expect(error).toMatchObject({ _tag: "ResponseDecodeError", fields: { reason: "UnexpectedShape" } })
      expect(error.fields["description"]).toContain("data[0].timestamp")
      expect(seen.length).toBe(1)
    })
  })

  describe("refusals in the envelope (code other than \"0\")", () => {
    const refusal = (code: number | string, text: Record<string, unknown>, status = 200): Answer => ({
      status,
      body: { code, ...text, data: null }
    })

    it.each(
      [
        ["700001", "AuthenticationError", "ApiKey"],
        [700002, "AuthenticationError", "Signature"],
        ["700007", "AuthenticationError", "Permission"],
        ["33333", "ApiError", undefined],
        [700004, "ApiError", undefined]
      ] as const
    )("code %j is %s", async (code, tag, reason) => {
      const { error, seen } = await failure(() => refusal(code, { message: "refused here" }), list())
      expect(error._tag).toBe(tag)
      expect(error.fields).toMatchObject({ code: Number(code), msg: "refused here", status: 200 })
      if (reason !== undefined) expect(error.fields["reason"]).toBe(reason)
      expect(seen.length).toBe(1)
    })

    it("a permission refusal names the permission the list needs", async () => {
      const { error } = await failure(
        () => refusal(ErrorBody.Code.NoPermission, { message: "No permission to access the endpoint." }, 403),
        list()
      )
      expect(error.message).toContain("give the API key a history permission (SPOT_TRANSFER_READ")
    })

    it("the text comes from message or msg, made safe and bounded", async () => {
      const withMsg = await failure(() => refusal("33333", { msg: "Param is error" }), list())
      expect(withMsg.error).toMatchObject({ _tag: "ApiError", fields: { msg: "Param is error" } })
      const hostile = await failure(
        () => refusal("33333", { message: "\u001b[31mred\u001b[0m\n" + "x".repeat(5000) }),
        list()
      )
      const msg = String(hostile.error.fields["msg"])
      expect(msg.includes("\u001b") || msg.includes("\n")).toBe(false)
      expect(msg.length).toBeLessThanOrEqual(301)
    })

    it("429 in the envelope is RateLimited, retried; 700003 resynchronises the clock once", async () => {
      const limited = await failure(
        () => refusal(429, { message: "Too many requests." }),
        list(),
        { retry: { maxRetries: 2, baseDelay: "10 millis", maxDelay: "10 millis" } }
      )
      expect(limited.error._tag).toBe("RateLimited")
      expect(limited.seen.length).toBe(3)
      const stale = await failure(
        () => refusal("700003", { message: "Timestamp for this request is outside of the recvWindow." }),
        list()
      )
      expect(stale.error._tag).toBe("TimestampRejected")
      expect(stale.seen.length).toBe(2)
      expect(stale.timeRequests.length).toBeGreaterThanOrEqual(1)
    })
  })

  describe("BrokerHistory.subAccounts (the whole list)", () => {
    it("reads every page of 200 until the first short page, each sub-account once, in order", async () => {
      const all = names(457)
      const { outcome, seen } = await run(listService(all), collect())
      const got = success(outcome)
      expect(got.map((s) => s.subAccount)).toEqual(all)
      expect(got[0]).toEqual({ subAccount: all[0], note: "", timestamp: 1597026383085 })
      expect(got[1]?.timestamp).toBe(1597026383086)
      expect(seen.map((s) => [s.params.get("page"), s.params.get("limit")])).toEqual([
        ["1", "200"],
        ["2", "200"],
        ["3", "200"]
      ])
    })

    it("a list of exactly full pages ends at the empty page after them; an empty list is empty", async () => {
      const full = await run(listService(names(400), { bare: true }), collect())
      expect(success(full.outcome).length).toBe(400)
      expect(full.seen.length).toBe(3)
      const empty = await run(listService([]), collect())
      expect(success(empty.outcome)).toEqual([])
      expect(empty.seen.length).toBe(1)
    })

    it("a sub-account created during the read (the list shifts) is emitted once", async () => {
      const all = names(300)
      // After page 1 is read, a new sub-account appears at the head: page 2 starts with page 1's last.
      const answer = (seen: Seen): Answer =>
        listService(seen.params.get("page") === "1" ? all : ["new@broker.test", ...all])(seen)
      const { outcome } = await run(answer, collect())
      const got = success(outcome).map((s) => s.subAccount)
      expect(got).toEqual(all)
      expect(new Set(got).size).toBe(got.length)
    })

    it("is lazy: nothing is sent until it runs, and each run reads the list again", async () => {
      await line.run({ answer: listService(names(5)) }, { start: 0 }, async (sim) => {
        const stream = sim.open("subAccounts")
        await sim.adjust(0)
        const before = sim.requests.length
        const first = stream.run()
        await sim.adjust(1_000)
        const second = stream.run()
        await sim.adjust(1_000)
        expect({
          before,
          first: success(outcomeOf(first)).length,
          second: success(outcomeOf(second)).length,
          sent: sim.requests.length
        }).toEqual({ before: 0, first: 5, second: 5, sent: 2 })
      })
    })

    it("counts what it received and records the success for availability", async () => {
      await line.run({ answer: listService(names(7)) }, { start: 0 }, async (sim) => {
        const before = await sim.counter("recordsReceived", "subAccountList")
        const handle = sim.start("subAccounts")
        await sim.adjust(1_000)
        expect(success(outcomeOf(handle)).length).toBe(7)
        expect(await sim.counter("recordsReceived", "subAccountList") - before).toBe(7)
        expect((await sim.availability()).lastSuccess).toBeTypeOf("number")
      })
    })

    it("a service answering full pages of new names forever stops at maxSubAccounts (TooMany)", async () => {
      const endless = (seen: Seen): Answer => ({
        status: 200,
        body: names(200, `p${seen.params.get("page")}-`).map((n) => record(n))
      })
      const { error, seen } = await failure(endless, collect({ maxSubAccounts: 1000 }))
      expect(error).toMatchObject({
        _tag: "SubAccountListTooLong",
        fields: {
          reason: "TooMany",
          maxSubAccounts: 1000,
          received: 1000,
          pages: 6,
          request: { endpoint: "subAccountList", page: 6 }
        }
      })
      expect(error.message).toContain("raise maxSubAccounts")
      expect(seen.length).toBe(6)
    })

    it("a service that ignores page stops at the first full page with nothing new (NothingNew)", async () => {
      const same = (): Answer => ({ status: 200, body: names(200).map((n) => record(n)) })
      const { error, seen } = await failure(same, collect())
      expect(error).toMatchObject({
        _tag: "SubAccountListTooLong",
        fields: { reason: "NothingNew", received: 200, pages: 2 }
      })
      expect(seen.length).toBe(2)
    })

    it("full pages of mostly repeated names stop after the pages the bound fills (PageLimit)", async () => {
      // Each page: 199 names already read and one new one.
      const creeping = (seen: Seen): Answer => ({
        status: 200,
        body: [...names(199), `new${seen.params.get("page")}@broker.test`].map((n) => record(n))
      })
      const { error, seen } = await failure(creeping, collect({ maxSubAccounts: 1000 }))
      expect(error).toMatchObject({
        _tag: "SubAccountListTooLong",
        fields: { reason: "PageLimit", pages: 6, received: 205 }
      })
      expect(seen.length).toBe(6)
    })

    it.each([
      [{ maxSubAccounts: 0 }, "maxSubAccounts"],
      [{ maxSubAccounts: 1.5 }, "maxSubAccounts"],
      [{ maxSubAccounts: 1_000_001 }, "maxSubAccounts"],
      [{ limit: 10 }, "limit"],
      [null, "options"]
    ])("rejects options %j with InvalidQuery(%s) and sends nothing", async (options, parameter) => {
      const { error, seen } = await failure(listService(names(3)), collect(options))
      expect(error).toMatchObject({ _tag: "InvalidQuery", fields: { endpoint: "subAccountList", parameter } })
      expect(seen.length).toBe(0)
    })

    it("a page's refusal ends the stream with that error", async () => {
      const answer = (seen: Seen): Answer =>
        seen.params.get("page") === "2"
          ? { status: 200, body: { code: "700007", message: "No permission", data: null } }
          : listService(names(450))(seen)
      const { error } = await failure(answer, collect())
      expect(error).toMatchObject({
        _tag: "AuthenticationError",
        fields: { reason: "Permission", request: { page: 2 } }
      })
    })
  })
})
