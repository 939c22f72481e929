/**
 * `broker-history transfers` and `broker-history deposits`: a full history, streamed to stdout or a
 * file as NDJSON (default), CSV or a JSON array. Records are written window by window as they
 * arrive, so memory stays flat for any history size.
 *
 * @since 0.1.0
 */
import { BrokerHistory } from "@broker-history/client"
import type { DepositRecord as DepositRecordNs, TransferRecord as TransferRecordNs } from "@broker-history/domain"
import { DepositRecord } from "@broker-history/domain"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as ClientOptions from "./ClientOptions.js"
import * as Csv from "./Csv.js"
import * as ExitCode from "./ExitCode.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"
import * as TimeText from "./TimeText.js"

/**
 * The output formats.
 *
 * @example
 * import type { Export } from "@broker-history/cli"
 * const f: Export.Format = "csv"
 */
export type Format = "ndjson" | "csv" | "json"

/**
 * Transfer fields in the order the service sends them (also the CSV columns).
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * Export.transferColumns[0] // "tranId"
 */
export const transferColumns: ReadonlyArray<keyof TransferRecordNs.TransferRecord> = [
  "tranId",
  "clientTranId",
  "fromAccount",
  "toAccount",
  "asset",
  "amount",
  "fromAccountType",
  "toAccountType",
  "fromSymbol",
  "toSymbol",
  "status",
  "timestamp"
]

/**
 * Deposit fields in the order the service sends them (also the CSV columns).
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * Export.depositColumns[0] // "amount"
 */
export const depositColumns: ReadonlyArray<keyof DepositRecordNs.DepositRecord> = [
  "amount",
  "coin",
  "network",
  "status",
  "address",
  "addressTag",
  "txId",
  "unlockConfirm",
  "confirmTimes",
  "insertTime",
  "memo"
]

/**
 * How records become text in one format: what comes first, each record (knowing whether it is the
 * first), and what comes last.
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * const e = Export.encoder("json", ["a"])
 * e.start + e.record({ a: 1 }, true) + e.end(1) // '[\n{"a":1}\n]\n'
 */
export const encoder = (format: Format, columns: ReadonlyArray<string>): {
  readonly start: string
  readonly record: (record: object, first: boolean) => string
  readonly end: (count: number) => string
} => {
  switch (format) {
    case "ndjson":
      return { start: "", record: (r) => JSON.stringify(r) + "\n", end: () => "" }
    case "csv":
      return { start: Csv.row(columns), record: (r) => Csv.recordRow(columns, r), end: () => "" }
    case "json":
      return {
        start: "[",
        record: (r, first) => (first ? "\n" : ",\n") + JSON.stringify(r),
        end: (count) => count === 0 ? "]\n" : "\n]\n"
      }
  }
}

/**
 * Writes a stream of records to `Output` in `format`, one chunk (a window of records) per write,
 * counting them in `Progress`.
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * import { Stream } from "effect"
 * const written = Export.write(Stream.make({ t: 1 }), "ndjson", ["t"], (r) => r.t)
 */
export const write = <A extends object, E, R>(
  records: Stream.Stream<A, E, R>,
  format: Format,
  columns: ReadonlyArray<string>,
  time: (record: A) => number
): Effect.Effect<void, E | Output.OutputError | ExitCode.PipeClosed, R | Output.Output | Progress.Progress> =>
  Effect.gen(function*() {
    const output = yield* Output.Output
    const progress = yield* Progress.Progress
    const encode = encoder(format, columns)
    let count = 0
    if (encode.start !== "") yield* output.write(encode.start)
    yield* Stream.runForEachChunk(records, (chunk) => {
      if (Chunk.isEmpty(chunk)) return Effect.void
      let text = ""
      let latest: number | undefined
      for (const record of chunk) {
        text += encode.record(record, count === 0)
        count++
        latest = time(record)
      }
      return Effect.zipRight(output.write(text), progress.add(Chunk.size(chunk), latest))
    })
    const end = encode.end(count)
    if (end !== "") yield* output.write(end)
  })

/**
 * Options every command shares.
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const command = Command.make("x", { verbose: Export.verbose })
 */
export const verbose: Options.Options<boolean> = Options.boolean("verbose").pipe(
  Options.withDescription("on failure, print the full cause (stack traces) after the one-line message (default off)")
)

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional, Options.map(Option.getOrUndefined))

const rangeOptions = {
  since: optionalText(
    "since",
    "start of the range, inclusive: 2024-01-01 (UTC), an ISO date-time, Unix ms, or 90d for 90 days ago (default: one year before --until)"
  ),
  until: optionalText("until", "end of the range, inclusive, same forms as --since (default: the service's now)"),
  format: Options.choice("format", ["ndjson", "csv", "json"]).pipe(
    Options.withDefault("ndjson" as const),
    Options.withDescription(
      "ndjson: one JSON record a line; csv: header row + RFC 4180 rows; json: one array (default ndjson)"
    )
  ),
  out: optionalText("out", "write to this file instead of stdout (default stdout; - is stdout)"),
  concurrency: Options.integer("concurrency").pipe(
    Options.withDefault(2),
    Options.withDescription("time windows read ahead at once, 1..16; the output order is kept (default 2)")
  ),
  verbose,
  client: ClientOptions.options
}

const usage = (message: string) => new ExitCode.UsageError({ message })

/** `--since`/`--until` read into Unix ms (or undefined for the client's default). */
export const range = (since: string | undefined, until: string | undefined, now: number = Date.now()) =>
  Effect.gen(function*() {
    const read = (flag: string, text: string | undefined) =>
      text === undefined
        ? Effect.succeed(undefined)
        : Either.match(TimeText.instant(text, now), {
          onLeft: (message) => Effect.fail(usage(`--${flag}: ${message}`)),
          onRight: (ms) => Effect.succeed(ms)
        })
    const s = yield* read("since", since)
    const u = yield* read("until", until)
    if (s !== undefined && u !== undefined && s > u) {
      return yield* Effect.fail(usage("--since must not be after --until"))
    }
    return { since: s, until: u }
  })

const runExport = <A extends object, E>(
  label: string,
  endpoint: string,
  flags: { readonly out: string | undefined; readonly verbose: boolean; readonly client: ClientOptions.Values },
  body: Effect.Effect<void, E, BrokerHistory.BrokerHistory | Output.Output | Progress.Progress>
) =>
  body.pipe(
    Effect.provide(Layer.mergeAll(
      ClientOptions.layer(flags.client, process.env),
      Output.layer(flags.out),
      Progress.layer({ label, endpoints: [endpoint] })
    )),
    ExitCode.report(flags.verbose)
  ) as Effect.Effect<void | A, ExitCode.Failure>

/**
 * `broker-history transfers`.
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const root = Command.make("broker-history").pipe(Command.withSubcommands([Export.transfersCommand]))
 */
export const transfersCommand = Command.make("transfers", {
  fromAccountType: Options.text("from-account-type").pipe(
    Options.withDescription("account type money left: SPOT or FUTURES (required)")
  ),
  toAccountType: Options.text("to-account-type").pipe(
    Options.withDescription("account type money went to: SPOT or FUTURES (required)")
  ),
  fromAccount: optionalText("from-account", "sending account (default: the master account)"),
  toAccount: optionalText("to-account", "receiving account (default: the master account)"),
  clientTranId: optionalText(
    "client-tran-id",
    "only the transfer with this client id, 32 letters or digits (default: every transfer)"
  ),
  ...rangeOptions
}, (flags) =>
  runExport(
    "transfers",
    "transferHistory",
    flags,
    Effect.gen(function*() {
      const history = yield* BrokerHistory.BrokerHistory
      const { since, until } = yield* range(flags.since, flags.until)
      const records = history.transfers({
        fromAccountType: flags.fromAccountType,
        toAccountType: flags.toAccountType,
        fromAccount: flags.fromAccount,
        toAccount: flags.toAccount,
        clientTranId: flags.clientTranId,
        since,
        until,
        concurrency: flags.concurrency
      })
      yield* write(records, flags.format, transferColumns, (t) => t.timestamp)
    })
  )).pipe(Command.withDescription(
    "Stream the full transfer history of one account pair and one account-type pair, oldest first, each record once. " +
      "An omitted --from-account/--to-account is the master account. " + ClientOptions.variablesHelp
  ))

const statusCode = (text: string): string => {
  const upper = text.trim().toUpperCase()
  const found = Object.entries(DepositRecord.statusNames).find(([, name]) => name === upper)
  return found === undefined ? text.trim() : found[0]
}

/**
 * `broker-history deposits`.
 *
 * @example
 * import { Export } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * const root = Command.make("broker-history").pipe(Command.withSubcommands([Export.depositsCommand]))
 */
export const depositsCommand = Command.make("deposits", {
  coin: optionalText("coin", "only this coin, e.g. USDT (default: every coin)"),
  status: optionalText(
    "status",
    "only this status: a code 1..12 or its name (SUCCESS, PENDING, …) (default: every status)"
  ),
  ...rangeOptions
}, (flags) =>
  runExport(
    "deposits",
    "depositHistory",
    flags,
    Effect.gen(function*() {
      const history = yield* BrokerHistory.BrokerHistory
      const { since, until } = yield* range(flags.since, flags.until)
      const records = history.deposits({
        coin: flags.coin,
        status: flags.status === undefined ? undefined : statusCode(flags.status),
        since,
        until,
        concurrency: flags.concurrency
      })
      yield* write(records, flags.format, depositColumns, (d) => d.insertTime)
    })
  )).pipe(Command.withDescription(
    "Stream the full deposit history, oldest first, each deposit once. " + ClientOptions.variablesHelp
  ))
