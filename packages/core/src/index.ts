/**
 * `@broker-history/core`: the Effect-free engine shared by the Effect 3 packages
 * (`@broker-history/domain`, `@broker-history/client`) and the Effect 4 packages
 * (`@broker-history/domain-effect4`, `@broker-history/client-effect4`). Every module is also its own
 * subpath (`@broker-history/core/walk/WindowPlan`); `signing/NodeSignature` and `request/UndiciRequest`
 * are only subpaths, so importing the index loads no `node:*` module.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./walk/Boundary.js"

/**
 * What a walk has emitted: the dedup state and the checkpoint. (`@broker-history/core/walk/Boundary`)
 *
 * @example
 * ```ts
 * import { Boundary } from "@broker-history/core"
 *
 * assert.strictEqual(Boundary.isPast(Boundary.start(10, undefined), 10, "a"), true)
 * ```
 *
 * @since 0.2.0
 */
export * as Boundary from "./walk/Boundary.js"
/**
 * Where the density changed inside one window. (`@broker-history/core/walk/ChangePoint`)
 *
 * @example
 * ```ts
 * import { ChangePoint } from "@broker-history/core"
 *
 * assert.strictEqual(ChangePoint.tail([], 0, 99), undefined)
 * ```
 *
 * @since 0.2.0
 */
export * as ChangePoint from "./walk/ChangePoint.js"
/**
 * Checkpoints and changes as plain values, and the rule of a stored checkpoint's text. (`@broker-history/core/walk/Checkpoint`)
 *
 * @example
 * ```ts
 * import { Checkpoint } from "@broker-history/core"
 *
 * assert.strictEqual(Checkpoint.problem(Checkpoint.encode({ time: 1, ids: [] })), undefined)
 * ```
 *
 * @since 0.2.0
 */
export * as Checkpoint from "./walk/Checkpoint.js"
/**
 * The paging of one crowded millisecond. (`@broker-history/core/walk/Crowded`)
 *
 * @example
 * ```ts
 * import { Crowded } from "@broker-history/core"
 *
 * assert.deepStrictEqual(Crowded.start(500, 10)[1], { _tag: "Page", page: 2, limit: 500 })
 * ```
 *
 * @since 0.2.0
 */
export * as Crowded from "./walk/Crowded.js"
/**
 * The fold of the walk's events into what a stream emits. (`@broker-history/core/walk/Emission`)
 *
 * @example
 * ```ts
 * import { Emission } from "@broker-history/core"
 *
 * assert.deepStrictEqual(Emission.release, { _tag: "Release" })
 * ```
 *
 * @since 0.2.0
 */
export * as Emission from "./walk/Emission.js"
/**
 * A page in ascending order, each record once. (`@broker-history/core/walk/PageOrder`)
 *
 * @example
 * ```ts
 * import { PageOrder } from "@broker-history/core"
 *
 * assert.deepStrictEqual(PageOrder.ascending({ time: (n: number) => n, key: String, compare: (a, b) => a - b }, [2, 1]), [1, 2])
 * ```
 *
 * @since 0.2.0
 */
export * as PageOrder from "./walk/PageOrder.js"
/**
 * The settlement memory of follow mode: new, updated or unchanged. (`@broker-history/core/walk/Settlement`)
 *
 * @example
 * ```ts
 * import { Settlement } from "@broker-history/core"
 *
 * assert.strictEqual(Settlement.size(Settlement.empty), 0)
 * ```
 *
 * @since 0.2.0
 */
export * as Settlement from "./walk/Settlement.js"
/**
 * How full the walk aims its pages. (`@broker-history/core/walk/WindowFill`)
 *
 * @example
 * ```ts
 * import { WindowFill } from "@broker-history/core"
 *
 * assert.strictEqual(WindowFill.fill(WindowFill.withVariance(0)), 0.98)
 * ```
 *
 * @since 0.2.0
 */
export * as WindowFill from "./walk/WindowFill.js"
/**
 * The widest window an endpoint accepts, learned from its refusals. (`@broker-history/core/walk/WindowLimit`)
 *
 * @example
 * ```ts
 * import { WindowLimit } from "@broker-history/core"
 *
 * assert.strictEqual(WindowLimit.floor, 60_000)
 * ```
 *
 * @since 0.2.0
 */
export * as WindowLimit from "./walk/WindowLimit.js"
/**
 * Where the next window of the walk ends. (`@broker-history/core/walk/WindowPlan`)
 *
 * @example
 * ```ts
 * import { WindowPlan } from "@broker-history/core"
 *
 * assert.deepStrictEqual(WindowPlan.window(WindowPlan.make(500, undefined), 0, 99), { start: 0, end: 99, aim: undefined })
 * ```
 *
 * @since 0.2.0
 */
export * as WindowPlan from "./walk/WindowPlan.js"
/**
 * The adaptive request rate. (`@broker-history/core/budget/AdaptiveRate`)
 *
 * @example
 * ```ts
 * import { AdaptiveRate } from "@broker-history/core"
 *
 * assert.strictEqual(AdaptiveRate.allowed({ bound: 20, min: 1, intervalMillis: 1000 }, AdaptiveRate.initial, 0), 20)
 * ```
 *
 * @since 0.2.0
 */
export * as AdaptiveRate from "./budget/AdaptiveRate.js"
/**
 * The bookkeeping of one request budget. (`@broker-history/core/budget/Budget`)
 *
 * @example
 * ```ts
 * import { Budget } from "@broker-history/core"
 *
 * assert.strictEqual(Budget.make({ limit: 20, intervalMillis: 1000, marginMillis: 25, adaptive: true }).perSecond, 20)
 * ```
 *
 * @since 0.2.0
 */
export * as Budget from "./budget/Budget.js"
/**
 * The sliding-window request budget's state. (`@broker-history/core/budget/SlidingWindow`)
 *
 * @example
 * ```ts
 * import { SlidingWindow } from "@broker-history/core"
 *
 * const pace = { count: 1, spanMillis: 1000, notBefore: 0, gapMillis: 0, catchUp: 0 }
 * assert.strictEqual(SlidingWindow.make(1).reserve(() => pace, 0).wait, 0)
 * ```
 *
 * @since 0.2.0
 */
export * as SlidingWindow from "./budget/SlidingWindow.js"
/**
 * The client's settings: names, defaults and rules. (`@broker-history/core/config/Settings`)
 *
 * @example
 * ```ts
 * import { Settings } from "@broker-history/core"
 *
 * assert.strictEqual(Settings.variables.baseUrl, "BROKER_BASE_URL")
 * ```
 *
 * @since 0.2.0
 */
export * as Settings from "./config/Settings.js"
/**
 * The rules of a proxy setting. (`@broker-history/core/config/Proxy`)
 *
 * @example
 * ```ts
 * import { Proxy } from "@broker-history/core"
 *
 * assert.deepStrictEqual(Proxy.parse("none"), { _tag: "None" })
 * ```
 *
 * @since 0.2.0
 */
export * as Proxy from "./config/Proxy.js"
/**
 * When each followed stream is polled next. (`@broker-history/core/follow/PollSchedule`)
 *
 * @example
 * ```ts
 * import { PollSchedule } from "@broker-history/core"
 *
 * assert.strictEqual(PollSchedule.interval({ minInterval: 1000, maxInterval: 8000, slots: 1 }, 1), 2000)
 * ```
 *
 * @since 0.2.0
 */
export * as PollSchedule from "./follow/PollSchedule.js"
/**
 * One outage of a dependency, as a value and its events. (`@broker-history/core/follow/Outage`)
 *
 * @example
 * ```ts
 * import { Outage } from "@broker-history/core"
 *
 * assert.strictEqual(Outage.failed(Outage.initial, { at: 5, message: "503", tag: "ServerError" }, 0).outage?.since, 5)
 * ```
 *
 * @since 0.2.0
 */
export * as Outage from "./follow/Outage.js"
/**
 * Which transfer streams cover a broker's history. (`@broker-history/core/plan/TransferPlan`)
 *
 * @example
 * ```ts
 * import { TransferPlan } from "@broker-history/core"
 *
 * assert.strictEqual(TransferPlan.ofSubAccounts(["a@x"], ["SPOT"]).length, 3)
 * ```
 *
 * @since 0.2.0
 */
export * as TransferPlan from "./plan/TransferPlan.js"
/**
 * How an HTTP answer becomes a value or a failure, as plain data. (`@broker-history/core/request/Answer`)
 *
 * @example
 * ```ts
 * import { Answer } from "@broker-history/core"
 *
 * assert.strictEqual(Answer.retryAfterMillis("2", 0), 2000)
 * ```
 *
 * @since 0.2.0
 */
export * as Answer from "./request/Answer.js"
/**
 * Deadlines of the requests in flight, on one timer. (`@broker-history/core/request/Deadlines`)
 *
 * @example
 * ```ts
 * import { Deadlines } from "@broker-history/core"
 *
 * assert.strictEqual(Deadlines.granularity(30_000), 1000)
 * ```
 *
 * @since 0.2.0
 */
export * as Deadlines from "./request/Deadlines.js"
/**
 * JSON bodies read from their bytes. (`@broker-history/core/request/JsonBody`)
 *
 * @example
 * ```ts
 * import { JsonBody } from "@broker-history/core"
 *
 * assert.deepStrictEqual(JsonBody.parse("[1]"), [1])
 * ```
 *
 * @since 0.2.0
 */
export * as JsonBody from "./request/JsonBody.js"
/**
 * Text from the service made safe to show. (`@broker-history/core/request/ServerText`)
 *
 * @example
 * ```ts
 * import { ServerText } from "@broker-history/core"
 *
 * assert.strictEqual(ServerText.sanitize("a\nb"), "a\uFFFDb")
 * ```
 *
 * @since 0.2.0
 */
export * as ServerText from "./request/ServerText.js"
/**
 * Whether an answer holds only what its query asked for. (`@broker-history/core/query/QueryCheck`)
 *
 * @example
 * ```ts
 * import { QueryCheck } from "@broker-history/core"
 *
 * assert.strictEqual(QueryCheck.firstOutside([], { start: 0, end: 1, limit: 1, time: () => 0, key: () => "", filters: [] }), undefined)
 * ```
 *
 * @since 0.2.0
 */
export * as QueryCheck from "./query/QueryCheck.js"
/**
 * What differs between the two histories, as far as it is plain. (`@broker-history/core/query/HistoryKind`)
 *
 * @example
 * ```ts
 * import { HistoryKind } from "@broker-history/core"
 *
 * assert.strictEqual(HistoryKind.deposits.endpoint.name, "depositHistory")
 * ```
 *
 * @since 0.2.0
 */
export * as HistoryKind from "./query/HistoryKind.js"
/**
 * The reading of the sub-account list: the answer check and the reader of its pages. (`@broker-history/core/query/SubAccountList`)
 *
 * @example
 * ```ts
 * import { SubAccountList } from "@broker-history/core"
 *
 * assert.deepStrictEqual(SubAccountList.reader(10, 100).read([]), { _tag: "Done", fresh: [] })
 * ```
 *
 * @since 0.2.0
 */
export * as SubAccountList from "./query/SubAccountList.js"
/**
 * What is wrong with a query, and the rules' words. (`@broker-history/core/query/QueryViolation`)
 *
 * @example
 * ```ts
 * import { QueryViolation } from "@broker-history/core"
 *
 * assert.strictEqual(QueryViolation.format({ parameter: "page", rule: QueryViolation.integerRule(1), kind: "invalid" }), "page must be an integer >= 1")
 * ```
 *
 * @since 0.2.0
 */
export * as QueryViolation from "./query/QueryViolation.js"
/**
 * A query's parameters received as text, read as values. (`@broker-history/core/query/QueryText`)
 *
 * @example
 * ```ts
 * import { QueryText } from "@broker-history/core"
 *
 * assert.deepStrictEqual({ ...(QueryText.read(["page"], { page: "2" }) as { input: object }).input }, { page: 2 })
 * ```
 *
 * @since 0.2.0
 */
export * as QueryText from "./query/QueryText.js"
/**
 * The check that accepts a valid query without a schema interpreter. (`@broker-history/core/query/Accepts`)
 *
 * @example
 * ```ts
 * import { Accepts } from "@broker-history/core"
 *
 * assert.strictEqual(Accepts.struct([], () => true)({}), true)
 * ```
 *
 * @since 0.2.0
 */
export * as Accepts from "./query/Accepts.js"
/**
 * Exact decimal text. (`@broker-history/core/record/Decimal`)
 *
 * @example
 * ```ts
 * import { Decimal } from "@broker-history/core"
 *
 * assert.strictEqual(Decimal.isDecimalText("0.10000000"), true)
 * ```
 *
 * @since 0.2.0
 */
export * as Decimal from "./record/Decimal.js"
/**
 * The field rules of the records. (`@broker-history/core/record/Field`)
 *
 * @example
 * ```ts
 * import { Field } from "@broker-history/core"
 *
 * assert.strictEqual(Field.readId(42), "42")
 * ```
 *
 * @since 0.2.0
 */
export * as Field from "./record/Field.js"
/**
 * Transfer records. (`@broker-history/core/record/TransferRecord`)
 *
 * @example
 * ```ts
 * import { TransferRecord } from "@broker-history/core"
 *
 * assert.strictEqual(TransferRecord.read({ tranId: 1, asset: "BTC", amount: "1", timestamp: 1 })?.tranId, "1")
 * ```
 *
 * @since 0.2.0
 */
export * as TransferRecord from "./record/TransferRecord.js"
/**
 * Deposit records. (`@broker-history/core/record/DepositRecord`)
 *
 * @example
 * ```ts
 * import { DepositRecord } from "@broker-history/core"
 *
 * assert.strictEqual(DepositRecord.statusName("5"), "SUCCESS")
 * ```
 *
 * @since 0.2.0
 */
export * as DepositRecord from "./record/DepositRecord.js"
/**
 * Sub-accounts of the broker's list. (`@broker-history/core/record/SubAccount`)
 *
 * @example
 * ```ts
 * import { SubAccount } from "@broker-history/core"
 *
 * assert.strictEqual(SubAccount.isName("mexc1"), true)
 * ```
 *
 * @since 0.2.0
 */
export * as SubAccount from "./record/SubAccount.js"
/**
 * Endpoints, permissions and limits. (`@broker-history/core/protocol/Endpoint`)
 *
 * @example
 * ```ts
 * import { Endpoint } from "@broker-history/core"
 *
 * assert.strictEqual(Endpoint.depositHistory.permission, "SPOT_DEPOSIT_READ")
 * ```
 *
 * @since 0.2.0
 */
export * as Endpoint from "./protocol/Endpoint.js"
/**
 * Each endpoint's query: its type, its parameters in wire order, the integer ones. (`@broker-history/core/protocol/Parameters`)
 *
 * @example
 * ```ts
 * import { Parameters } from "@broker-history/core"
 *
 * assert.deepStrictEqual(Parameters.subAccountList.integers, ["page", "limit"])
 * ```
 *
 * @since 0.2.0
 */
export * as Parameters from "./protocol/Parameters.js"
/**
 * The error table. (`@broker-history/core/protocol/ErrorBody`)
 *
 * @example
 * ```ts
 * import { ErrorBody } from "@broker-history/core"
 *
 * assert.strictEqual(ErrorBody.Errors.tooManyRequests.status, 429)
 * ```
 *
 * @since 0.2.0
 */
export * as ErrorBody from "./protocol/ErrorBody.js"
/**
 * The failures of broker calls as plain data, their messages and which are retryable. (`@broker-history/core/error/BrokerError`)
 *
 * @example
 * ```ts
 * import { BrokerError } from "@broker-history/core"
 *
 * assert.strictEqual(BrokerError.describeRequest({ endpoint: "transferHistory", page: 2 }), "transferHistory (page 2)")
 * ```
 *
 * @since 0.2.0
 */
export * as BrokerError from "./error/BrokerError.js"
/**
 * The canonical query string. (`@broker-history/core/signing/QueryString`)
 *
 * @example
 * ```ts
 * import { QueryString } from "@broker-history/core"
 *
 * assert.strictEqual(QueryString.make([["limit", "20"]]), "limit=20")
 * ```
 *
 * @since 0.2.0
 */
export * as QueryString from "./signing/QueryString.js"
/**
 * Request signatures (WebCrypto). (`@broker-history/core/signing/Signature`)
 *
 * @example
 * ```ts
 * import { Signature } from "@broker-history/core"
 *
 * assert.strictEqual(Signature.toHex(new Uint8Array([255])), "ff")
 * ```
 *
 * @since 0.2.0
 */
export * as Signature from "./signing/Signature.js"
/**
 * A small seeded pseudo-random generator. (`@broker-history/core/random/Prng`)
 *
 * @example
 * ```ts
 * import { Prng } from "@broker-history/core"
 *
 * assert.strictEqual(Prng.mulberry32(1)(), Prng.mulberry32(1)())
 * ```
 *
 * @since 0.2.0
 */
export * as Prng from "./random/Prng.js"
