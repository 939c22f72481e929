/**
 * What the behavioural suite asks of a line of the client: plain data in, plain data out, so one test
 * source runs against the Effect 3 and the Effect 4 packages alike. Each line implements it in a
 * small adapter (`lines/`), which builds the line's ready undici layer from `Settings` and turns its
 * streams and typed failures into arrays and `Failure`s.
 */
import type { DepositRecord, SubAccount, TransferRecord } from "@broker-history/domain"

/** A duration as both lines read it. */
export type Duration = `${number} millis` | `${number} second` | `${number} seconds`

/** The client's settings as the tests give them: durations as text (`"5 millis"`), secrets as text. */
export interface Settings {
  readonly baseUrl: string
  readonly apiKey: string
  readonly secretKey: string
  readonly requestTimeout?: Duration | undefined
  readonly rateLimit?: {
    readonly limit?: number | undefined
    readonly interval?: Duration | undefined
    readonly adaptive?: boolean | undefined
  } | undefined
  readonly retry?: {
    readonly maxRetries?: number | undefined
    readonly baseDelay?: Duration | undefined
    readonly maxDelay?: Duration | undefined
    readonly maxRetryAfter?: Duration | undefined
  } | undefined
  readonly maxResponseBytes?: number | undefined
  readonly maxWindow?:
    | { readonly transfers?: Duration | undefined; readonly deposits?: Duration | undefined }
    | undefined
}

/** A typed failure of the line, as data: its tag, its message and its other fields. */
export interface Failure {
  readonly _tag: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
}

/** How a call ended: its value, or the line's typed failure (a defect is thrown, failing the test). */
export type Outcome<A> =
  | { readonly _tag: "Success"; readonly value: A }
  | { readonly _tag: "Failure"; readonly failure: Failure }

/** A record of a change stream with its checkpoint (an opaque JSON-able value to resume from). */
export interface Change<A> {
  readonly kind: string
  readonly record: A
  readonly checkpoint: unknown
}

/**
 * A query or stream option object, passed to the line as given: a test may send a wrong one on
 * purpose, to see the line refuse it before any request.
 */
export type Query = Readonly<Record<string, unknown>>

/** A running client of one line. Streams run to their end, or to their first `take` elements. */
export interface Client {
  readonly transferHistory: (query: Query) => Promise<Outcome<ReadonlyArray<TransferRecord.TransferRecord>>>
  readonly depositHistory: (query: Query) => Promise<Outcome<ReadonlyArray<DepositRecord.DepositRecord>>>
  readonly subAccountList: (query?: Query) => Promise<Outcome<ReadonlyArray<SubAccount.SubAccount>>>
  readonly transfers: (query: Query, take?: number) => Promise<Outcome<ReadonlyArray<TransferRecord.TransferRecord>>>
  readonly deposits: (query: Query, take?: number) => Promise<Outcome<ReadonlyArray<DepositRecord.DepositRecord>>>
  readonly transferChanges: (
    query: Query,
    take?: number
  ) => Promise<Outcome<ReadonlyArray<Change<TransferRecord.TransferRecord>>>>
  readonly depositChanges: (
    query: Query,
    take?: number
  ) => Promise<Outcome<ReadonlyArray<Change<DepositRecord.DepositRecord>>>>
  readonly subAccounts: (options?: Query, take?: number) => Promise<Outcome<ReadonlyArray<SubAccount.SubAccount>>>
}

/** One line of the packages: its name and how to open a client for the length of `use`. */
export interface Line {
  readonly name: string
  readonly withClient: <A>(settings: Settings, use: (client: Client) => Promise<A>) => Promise<A>
}

/** The value of a success; a failure fails the test, naming it. */
export const success = <A>(outcome: Outcome<A>): A => {
  if (outcome._tag === "Success") return outcome.value
  throw new Error(`expected a success, got ${outcome.failure._tag}: ${outcome.failure.message}`)
}

/** The failure of a call that should have failed; a success fails the test. */
export const failure = <A>(outcome: Outcome<A>): Failure => {
  if (outcome._tag === "Failure") return outcome.failure
  throw new Error(`expected a failure, got a success: ${JSON.stringify(outcome.value).slice(0, 200)}`)
}

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
