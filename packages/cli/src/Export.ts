/**
 * `broker-history transfers` and `broker-history deposits`: a full history, streamed to stdout or a
 * file as NDJSON (default), CSV or a JSON array. Records are written window by window as they
 * arrive, so memory stays flat for any history size.
 *
 * @since 0.1.0
 */
import { BrokerHistory } from "@broker-history/client"
import type { BrokerError } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Command from "@effect/cli/Command"
import type * as Options from "@effect/cli/Options"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Choices from "./Choices.js"
import * as ClientOptions from "./ClientOptions.js"
import type * as Csv from "./Csv.js"
import * as ExitCode from "./ExitCode.js"
import * as ExportEncoding from "./internal/ExportEncoding.js"
import * as ExportFlags from "./internal/ExportFlags.js"
import * as ExportQuery from "./internal/ExportQuery.js"
import * as Output from "./Output.js"
import * as Progress from "./Progress.js"

/**
 * An output format: `ndjson` (one JSON record a line, the default), `csv` (a header row and RFC 4180
 * rows) or `json` (one array).
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 *
 * const formats: ReadonlyArray<Export.Format> = ["ndjson", "csv", "json"]
 * // What an empty export writes in each format:
 * const empty = formats.map((format) => {
 *   const encode = Export.encoder(format, ["tranId", "amount"])
 *   return encode.start + encode.end(0)
 * })
 * assert.deepStrictEqual(empty, ["", "tranId,amount\r\n", "[]\n"])
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type Format = "ndjson" | "csv" | "json"

/**
 * Transfer fields in the order the service sends them, which is also the CSV header.
 *
 * @example
 * ```ts
 * import { Csv, Export } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   Csv.row(Export.transferColumns),
 *   "tranId,clientTranId,fromAccount,toAccount,asset,amount,fromAccountType,toAccountType,fromSymbol,toSymbol,status,timestamp\r\n"
 * )
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const transferColumns: ReadonlyArray<keyof TransferRecord.TransferRecord> = ExportEncoding.transferColumns

/**
 * Deposit fields in the order the service sends them, which is also the CSV header.
 *
 * @example
 * ```ts
 * import { Csv, Export } from "@broker-history/cli"
 *
 * assert.strictEqual(
 *   Csv.row(Export.depositColumns),
 *   "amount,coin,network,status,address,addressTag,txId,unlockConfirm,confirmTimes,insertTime,memo\r\n"
 * )
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const depositColumns: ReadonlyArray<keyof DepositRecord.DepositRecord> = ExportEncoding.depositColumns

/**
 * How records become text in one format: what comes first, each record (knowing whether it is the
 * first), and what comes last (knowing how many there were).
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 *
 * const json = Export.encoder("json", ["a"])
 * assert.strictEqual(json.start + json.record({ a: 1 }, true) + json.record({ a: 2 }, false) + json.end(2), '[\n{"a":1},\n{"a":2}\n]\n')
 * const csv = Export.encoder("csv", ["a", "b"])
 * assert.strictEqual(csv.start + csv.record({ b: "=x", a: 1 }, true), "a,b\r\n1,'=x\r\n")
 * ```
 *
 * @since 0.1.0
 * @category encoding
 */
export const encoder: (format: Format, columns: ReadonlyArray<string>, csv?: Csv.Mode) => {
  readonly start: string
  readonly record: (record: object, first: boolean) => string
  readonly end: (count: number) => string
} = ExportEncoding.encoder

/**
 * Writes a stream of records to `Output` in `format`, one chunk (a window of records) a write, counting
 * them in `Progress`; once the stream has ended it completes the output (a file is put in place only then).
 *
 * @example
 * ```ts
 * import { Export, Output, Progress } from "@broker-history/cli"
 * import { Effect, Layer, Stream } from "effect"
 *
 * const written: Array<string> = []
 * const Recording = Layer.succeed(Output.Output, Output.Output.of({
 *   write: (text) => Effect.sync(() => { written.push(text) }),
 *   complete: Effect.void
 * }))
 * const records = Stream.make({ tranId: "1", timestamp: 1000 }, { tranId: "2", timestamp: 2000 })
 * const snapshot = await Effect.runPromise(
 *   Export.write(records, "ndjson", Export.transferColumns, (t) => t.timestamp).pipe(
 *     Effect.zipRight(Effect.flatMap(Progress.Progress, (progress) => progress.snapshot)),
 *     Effect.provide(Layer.merge(Recording, Progress.layer({ label: "transfers", endpoints: [], live: false })))
 *   )
 * )
 * assert.deepStrictEqual(written, ['{"tranId":"1","timestamp":1000}\n{"tranId":"2","timestamp":2000}\n'])
 * assert.deepStrictEqual([snapshot.records, snapshot.latest], [2, 2000])
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const write = <A extends object, E, R>(
  records: Stream.Stream<A, E, R>,
  format: Format,
  columns: ReadonlyArray<string>,
  time: (record: A) => number,
  csv: Csv.Mode = "escapeFormulas"
): Effect.Effect<void, E | Output.OutputError | ExitCode.PipeClosed, R | Output.Output | Progress.Progress> =>
  Effect.gen(function*() {
    const output = yield* Output.Output
    const progress = yield* Progress.Progress
    const encode = ExportEncoding.encoder(format, columns, csv)
    let count = 0
    if (encode.start !== "") yield* output.write(encode.start)
    yield* Stream.runForEachChunk(records, (chunk) => {
      if (Chunk.isEmpty(chunk)) return Effect.void
      const run = ExportEncoding.encodeRun(encode, chunk, count, time)
      count += run.count
      return Effect.zipRight(output.write(run.text), progress.add(run.count, run.latest))
    })
    const end = encode.end(count)
    if (end !== "") yield* output.write(end)
    yield* output.complete
  })

/**
 * The `--verbose` flag every command shares: on failure, print the full cause after the one-line message.
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 * import { Command } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 *
 * const seen: Array<boolean> = []
 * const check = Command.make("check", { verbose: Export.verbose }, ({ verbose }) => Effect.sync(() => { seen.push(verbose) }))
 * const run = Command.run(check, { name: "check", version: "1.0.0" })
 * for (const argv of [["node", "check", "--verbose"], ["node", "check"]]) {
 *   await Effect.runPromise(run(argv).pipe(Effect.provide(NodeContext.layer)))
 * }
 * assert.deepStrictEqual(seen, [true, false])
 * ```
 *
 * @since 0.1.0
 * @category options
 */
export const verbose: Options.Options<boolean> = ExportFlags.verbose

/** A value read from flags, or the `UsageError` of its message. */
const flag = <A>(read: Either.Either<A, string>): Effect.Effect<A, ExitCode.UsageError> =>
  Either.match(read, {
    onLeft: (message) => Effect.fail(new ExitCode.UsageError({ message })),
    onRight: Effect.succeed
  })

/**
 * Reads `--since` / `--until` into Unix ms (`undefined`: the client's default), or fails with the
 * `UsageError` that names the flag.
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * assert.deepStrictEqual(Effect.runSync(Export.range("2024-01-01", "2024-01-31T23:59:59.999Z")), {
 *   since: 1704067200000,
 *   until: 1706745599999
 * })
 * assert.deepStrictEqual(Effect.runSync(Export.range("90d", undefined, 100 * 86_400_000)), {
 *   since: 10 * 86_400_000,
 *   until: undefined
 * })
 * const backwards = Effect.runSync(Effect.flip(Export.range("2024-02-01", "2024-01-01")))
 * assert.strictEqual(backwards.message, "--since must not be after --until")
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const range = (
  since: string | undefined,
  until: string | undefined,
  now: number = Date.now()
): Effect.Effect<{ since: number | undefined; until: number | undefined }, ExitCode.UsageError> =>
  flag(ExportQuery.range(since, until, now))

interface CommonFlags {
  readonly since: string | undefined
  readonly until: string | undefined
  readonly concurrency: number
  readonly format: Format
  readonly csvRaw: boolean
  readonly out: string | undefined
  readonly verbose: boolean
  readonly client: ClientOptions.Values
}

/** The stream options that every export passes: the range and how many windows are read ahead. */
interface RangeQuery {
  readonly since: number | undefined
  readonly until: number | undefined
  readonly concurrency: number
}

/**
 * Runs one export: the flags are read first (the endpoint's `filters`, then the range, then the CSV
 * mode; a usage error before anything is opened or sent), then the records of `open` are written
 * through the client, the output and the progress line.
 */
const runExport = <Q, A extends object>(
  flags: CommonFlags,
  what: {
    readonly label: string
    readonly endpoint: string
    readonly columns: ReadonlyArray<string>
    readonly time: (record: A) => number
    /** The warning line the filters deserve once read (an account type the exchange does not document). */
    readonly warning?: ((filters: Q) => string | undefined) | undefined
  },
  filters: Either.Either<Q, string>,
  open: (
    history: Context.Tag.Service<BrokerHistory.BrokerHistory>,
    query: Q & RangeQuery
  ) => Stream.Stream<A, BrokerError.BrokerError>
) =>
  Effect.gen(function*() {
    const query = { ...yield* flag(filters), ...yield* range(flags.since, flags.until), concurrency: flags.concurrency }
    const stream = Stream.unwrap(Effect.map(BrokerHistory.BrokerHistory, (history) => open(history, query)))
    const csv = yield* flag(ExportQuery.csvMode(flags.format, flags.csvRaw))
    const warning = what.warning?.(query)
    if (warning !== undefined) yield* Effect.sync(() => process.stderr.write(`broker-history: ${warning}\n`))
    yield* write(stream, flags.format, what.columns, what.time, csv).pipe(
      // With --on-incomplete warn, a history the service did not serve whole ends the export with exit 5.
      Effect.zipRight(Effect.flatMap(BrokerHistory.BrokerHistory, (history) => history.incomplete)),
      Effect.flatMap((milliseconds) =>
        milliseconds === 0 ? Effect.void : Effect.fail(new ExitCode.IncompleteRun({ milliseconds }))
      ),
      Effect.provide(Layer.mergeAll(
        ClientOptions.layer(flags.client, process.env),
        Output.layer(flags.out),
        Progress.layer({ label: what.label, endpoints: [what.endpoint] })
      ))
    )
  }).pipe(ExitCode.report(flags.verbose))

/**
 * `broker-history transfers`: the full transfer history of one account pair and one account-type pair,
 * oldest first, to stdout or `--out` as NDJSON, CSV or JSON.
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 * import { ApiKeys, ReferenceServer } from "@broker-history/server"
 * import { Command } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * const run = Command.run(Command.make("broker-history").pipe(Command.withSubcommands([Export.transfersCommand])), {
 *   name: "broker-history",
 *   version: "0.1.0"
 * })
 * const out = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "transfers-")), "master-to-sub001.csv")
 * const stored = await Effect.gen(function*() {
 *   const server = yield* ReferenceServer.ReferenceServer
 *   yield* run([
 *     "node",
 *     "broker-history",
 *     "transfers",
 *     "--from-account-type=spot",
 *     "--since=0",
 *     "--to-account-type=futures",
 *     "--to-account=sub001@broker.test",
 *     "--format=csv",
 *     `--out=${out}`,
 *     `--base-url=${server.baseUrl}`,
 *     `--api-key=${ApiKeys.demo.apiKey}`,
 *     `--secret-key=${ApiKeys.demo.secretKey}`
 *   ])
 *   return yield* server.store.allTransfers({
 *     fromAccount: null,
 *     toAccount: "sub001@broker.test",
 *     fromAccountType: "SPOT",
 *     toAccountType: "FUTURES"
 *   })
 * }).pipe(
 *   Effect.provide(ReferenceServer.layer({ seed: { seed: 1, transfers: 5000, deposits: 0, subAccounts: 4 } })),
 *   Effect.provide(NodeContext.layer),
 *   Effect.runPromise
 * )
 * const lines = Fs.readFileSync(out, "utf8").split("\r\n")
 * assert.strictEqual(lines[0], Export.transferColumns.join(","))
 * assert.strictEqual(lines.length, stored.length + 2) // the header, a row per transfer, the final CRLF
 * Fs.rmSync(Path.dirname(out), { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const transfersCommand = Command.make("transfers", {
  ...ExportFlags.transfers,
  ...ExportFlags.common
}, (flags) =>
  runExport(
    flags,
    {
      label: "transfers",
      endpoint: "transferHistory",
      columns: transferColumns,
      time: (t: TransferRecord.TransferRecord) => t.timestamp,
      warning: (q) =>
        Choices.undocumentedAccountTypes([
          { type: q.fromAccountType, where: "--from-account-type" },
          { type: q.toAccountType, where: "--to-account-type" }
        ])
    },
    ExportQuery.transferFilters(flags),
    (history, query) => history.transfers(query)
  )).pipe(Command.withDescription(
    "Stream the full transfer history of one account pair and one account-type pair, oldest first, each record once. " +
      "An omitted --from-account/--to-account is the master account. " + ClientOptions.variablesHelp
  ))

/**
 * `broker-history deposits`: the full deposit history, optionally of one coin or status, oldest first,
 * to stdout or `--out` as NDJSON, CSV or JSON.
 *
 * @example
 * ```ts
 * import { Export } from "@broker-history/cli"
 * import { CliConfig, Command, HelpDoc } from "@effect/cli"
 *
 * const help = HelpDoc.toAnsiText(Command.getHelp(Export.depositsCommand, CliConfig.defaultConfig))
 * assert.ok(help.includes("--status"))
 * assert.ok(help.includes("a code 1..12 or its name (SUCCESS, PENDING, …, any letter case)"))
 * assert.ok(help.includes("BROKER_API_KEY"))
 * ```
 *
 * @since 0.1.0
 * @category commands
 */
export const depositsCommand = Command.make("deposits", {
  ...ExportFlags.deposits,
  ...ExportFlags.common
}, (flags) =>
  runExport(
    flags,
    {
      label: "deposits",
      endpoint: "depositHistory",
      columns: depositColumns,
      time: (d: DepositRecord.DepositRecord) => d.insertTime
    },
    ExportQuery.depositFilters(flags),
    (history, query) => history.deposits(query)
  )).pipe(Command.withDescription(
    "Stream the full deposit history, oldest first, each deposit once. " + ClientOptions.variablesHelp
  ))
