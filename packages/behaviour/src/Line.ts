/**
 * What the behavioural suite asks of a line of the client: plain data in, plain data out, so one test
 * source runs against the Effect 3 and the Effect 4 packages alike. Each line implements it in a
 * small adapter (`lines/`), which builds the line's layer over the asked transport from `Settings`
 * and turns its streams, typed failures, logs and counters into arrays, `Failure`s and numbers.
 */
import type * as DepositRecord from "@broker-history/core/record/DepositRecord"
import type * as SubAccount from "@broker-history/core/record/SubAccount"
import type * as TransferRecord from "@broker-history/core/record/TransferRecord"

/** A duration as both lines read it. */
export type Duration = `${number} ${"millis" | "second" | "seconds" | "minute" | "minutes" | "day" | "days"}`

/**
 * How a line carries its requests: `undici` driven directly (the ready layer), the platform
 * `HttpClient` over undici (`platformUndici`) or over `fetch` with redirects not followed (`fetch`),
 * or `fetch` in its default mode, which follows them (`fetchFollowingRedirects`: only to show why
 * the others do not).
 */
export type Transport = "undici" | "platformUndici" | "fetch" | "fetchFollowingRedirects"

/** A proxy as `NodeTransport.layerProxy` takes it: a URL, `"none"` or `"environment"`, or a URL given `Redacted`. */
export type ProxySetting = string | { readonly redacted: string }

/** The client's settings as the tests give them: durations as text (`"5 millis"`), secrets as text. */
export interface Settings {
  readonly baseUrl: string
  readonly apiKey: string
  readonly secretKey: string
  /** The line's first transport (`Line.transports`) when not given. */
  readonly transport?: Transport | undefined
  /**
   * The proxy of a Node transport. Over `undici` the line is then
   * `NodeTransport.layerProxy(proxy)`, over `platformUndici` the platform client over
   * `NodeTransport.layerDispatcher(proxy)`; `proxyVariables` stand in for `process.env` in both.
   * Not given: each transport as it is by default.
   */
  readonly proxy?: ProxySetting | undefined
  readonly proxyVariables?: Readonly<Record<string, string | undefined>> | undefined
  /**
   * The line built by `BrokerHistory.layerConfig()` instead, over these settings, with these
   * variables as its only config source (`BROKER_PROXY`): `transport` and `proxy` are not used.
   */
  readonly layerConfig?: Readonly<Record<string, string>> | undefined
  readonly recvWindow?: number | undefined
  readonly requestTimeout?: Duration | undefined
  readonly rateLimit?: {
    readonly limit?: number | undefined
    readonly interval?: Duration | undefined
    readonly margin?: Duration | undefined
    readonly adaptive?: boolean | undefined
  } | undefined
  readonly retry?: {
    readonly maxRetries?: number | undefined
    readonly baseDelay?: Duration | undefined
    readonly maxDelay?: Duration | undefined
    readonly maxRetryAfter?: Duration | undefined
    readonly followMaxDelay?: Duration | undefined
  } | undefined
  readonly maxResponseBytes?: number | undefined
  readonly maxWindow?:
    | { readonly transfers?: Duration | undefined; readonly deposits?: Duration | undefined }
    | undefined
  readonly onIncomplete?: "fail" | "warn" | undefined
}

/** A typed failure of the line, as data: its tag, its message and its other fields. */
export interface Failure {
  readonly _tag: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

/**
 * How a call ended: its value, the line's typed failure, or its interruption through `Call.signal`
 * (a defect is thrown, failing the test).
 */
export type Outcome<A> =
  | { readonly _tag: "Success"; readonly value: A }
  | { readonly _tag: "Failure"; readonly failure: Failure }
  | { readonly _tag: "Interrupted" }

/** A record of a change stream with its checkpoint (an opaque JSON-able value to resume from). */
export interface Change<A> {
  readonly kind: string
  readonly record: A
  readonly checkpoint: unknown
}

/** A change of one of the streams followed together (`followTransfers`), with that stream's id. */
export interface FollowChange<A> extends Change<A> {
  readonly stream: string
}

/**
 * A query or stream option object, passed to the line as given: a test may send a wrong one on
 * purpose, to see the line refuse it before any request.
 */
export type Query = Readonly<Record<string, unknown>>

/** How a call runs: aborting `signal` interrupts it (its outcome is then `Interrupted`). */
export interface Call {
  readonly signal?: AbortSignal | undefined
}

/**
 * How a stream runs: to its end, or to its first `take` elements; `each` is awaited for every
 * element as it arrives, before the next one is pulled.
 */
export interface Run<A> extends Call {
  readonly take?: number | undefined
  readonly each?: ((element: A) => void | Promise<void>) | undefined
}

/** A line the client logged: its level (`DEBUG`, `INFO`, `WARN`, …), its text and its annotations. */
export interface LogLine {
  readonly level: string
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Whether the service answers the client's requests (Unix ms), as the lines' `availability` says. */
export interface Availability {
  readonly lastSuccess: number | undefined
  readonly unavailableSince: number | undefined
  readonly lastFailure: string | undefined
}

/** A stream of a transfer plan (`TransferPlan.ofSubAccounts`): its key, query and start. */
export interface PlannedStream {
  readonly key: string
  readonly query: {
    readonly fromAccountType: string
    readonly toAccountType: string
    readonly fromAccount?: string | undefined
    readonly toAccount?: string | undefined
  }
  readonly startsAt: number | undefined
}

/** A running client of one line (one layer: its budget, learned window widths and outage state). */
export interface Client {
  readonly transferHistory: (
    query: Query,
    call?: Call
  ) => Promise<Outcome<ReadonlyArray<TransferRecord.TransferRecord>>>
  readonly depositHistory: (
    query: Query,
    call?: Call
  ) => Promise<Outcome<ReadonlyArray<DepositRecord.DepositRecord>>>
  readonly subAccountList: (query?: Query, call?: Call) => Promise<Outcome<ReadonlyArray<SubAccount.SubAccount>>>
  readonly transfers: (
    query: Query,
    run?: Run<TransferRecord.TransferRecord>
  ) => Promise<Outcome<ReadonlyArray<TransferRecord.TransferRecord>>>
  readonly deposits: (
    query: Query,
    run?: Run<DepositRecord.DepositRecord>
  ) => Promise<Outcome<ReadonlyArray<DepositRecord.DepositRecord>>>
  readonly transferChanges: (
    query: Query,
    run?: Run<Change<TransferRecord.TransferRecord>>
  ) => Promise<Outcome<ReadonlyArray<Change<TransferRecord.TransferRecord>>>>
  readonly depositChanges: (
    query: Query,
    run?: Run<Change<DepositRecord.DepositRecord>>
  ) => Promise<Outcome<ReadonlyArray<Change<DepositRecord.DepositRecord>>>>
  /** Transfer streams followed together on the client's one budget (`options`: the scheduler's). */
  readonly followTransfers: (
    streams: ReadonlyArray<{ readonly stream: string; readonly query: Query }>,
    options: Query,
    run?: Run<FollowChange<TransferRecord.TransferRecord>>
  ) => Promise<Outcome<ReadonlyArray<FollowChange<TransferRecord.TransferRecord>>>>
  readonly subAccounts: (
    options?: Query,
    run?: Run<SubAccount.SubAccount>
  ) => Promise<Outcome<ReadonlyArray<SubAccount.SubAccount>>>
  readonly availability: () => Promise<Availability>
  /** The crowded milliseconds this client's streams went on without all their records. */
  readonly incomplete: () => Promise<number>
  /** The line's `incompleteMilliseconds` counter for `endpoint`: process-wide, so compare two readings. */
  readonly incompleteCounter: (endpoint: string) => Promise<number>
  /** Everything the client logged so far, from `DEBUG` up, in order. */
  readonly logs: ReadonlyArray<LogLine>
}

/** One line of the packages: its name, its transports and how to open a client for the length of `use`. */
export interface Line {
  readonly name: string
  /**
   * The transports the line runs on this runtime, its default first (`fetchFollowingRedirects`, which
   * every line has, is not listed: the suite's transport tests run over these).
   */
  readonly transports: ReadonlyArray<Transport>
  /** Runs `use` with a client; a layer that cannot be built (a refused setting) rejects, saying why. */
  readonly withClient: <A>(settings: Settings, use: (client: Client) => Promise<A>) => Promise<A>
  /** The line's `TransferPlan.ofSubAccounts`: the streams that cover the listed sub-accounts' transfers. */
  readonly planTransfers: (
    listed: ReadonlyArray<SubAccount.SubAccount>,
    accountTypes: ReadonlyArray<string>
  ) => ReadonlyArray<PlannedStream>
  /**
   * The line's `Checkpoint.decode`: the checkpoint, or its `CheckpointError` as a failure (anything
   * else it fails with is thrown).
   */
  readonly decodeCheckpoint: (text: string) => Outcome<unknown>
}

/** The value of a success; a failure fails the test, naming it. */
export const success = <A>(outcome: Outcome<A>): A => {
  if (outcome._tag === "Success") return outcome.value
  if (outcome._tag === "Interrupted") throw new Error("expected a success, the call was interrupted")
  throw new Error(`expected a success, got ${outcome.failure._tag}: ${outcome.failure.message}`)
}

/** The failure of a call that should have failed; a success fails the test. */
export const failure = <A>(outcome: Outcome<A>): Failure => {
  if (outcome._tag === "Failure") return outcome.failure
  if (outcome._tag === "Interrupted") throw new Error("expected a failure, the call was interrupted")
  throw new Error(`expected a failure, got a success: ${JSON.stringify(outcome.value).slice(0, 200)}`)
}

/** Why `line` could not build its layer from `settings`, as the rejection's text; a layer that builds fails the test. */
export const layerFailure = (line: Line, settings: Settings): Promise<string> =>
  line.withClient(settings, async () => {}).then(
    () => {
      throw new Error("expected the client's layer to fail, it was built")
    },
    (error: unknown) => String(error)
  )

/** A typed failure of a line as data: its tag, its message and its plain fields. */
export const failureOf = (error: { readonly _tag: string; readonly message: string }): Failure => ({
  _tag: error._tag,
  message: error.message,
  fields: fieldsOf(error)
})

/**
 * A failure's fields as data: own enumerable properties whose values are plain (text, numbers,
 * booleans, null, arrays and plain objects of those); others are left out, being line-specific.
 */
export const fieldsOf = (error: object): Readonly<Record<string, unknown>> => {
  const fields: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(error)) {
    if (name !== "_tag" && name !== "message" && isPlain(value)) fields[name] = value
  }
  return fields
}

const isPlain = (value: unknown): boolean =>
  value === null || value === undefined || typeof value === "string" || typeof value === "number" ||
  typeof value === "boolean" ||
  (Array.isArray(value) && value.every(isPlain)) ||
  (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value as object).every(isPlain))

/** A log message as one text: the parts of a message given as several values, joined by spaces. */
export const messageText = (message: unknown): string =>
  Array.isArray(message) ? message.map(String).join(" ") : String(message)
