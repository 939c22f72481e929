/**
 * `broker-history transfers` and `broker-history deposits`: a full history, streamed to stdout or a
 * file as NDJSON (default), CSV or a JSON array. Records are written window by window as they
 * arrive, so memory stays flat for any history size.
 *
 * @internal
 */
import { BrokerHistory } from "@broker-history/client"
import type { BrokerError } from "@broker-history/client"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import * as Command from "@effect/cli/Command"
import * as Chunk from "effect/Chunk"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Choices from "../shared/Choices.js"
import * as ClientOptions from "../shared/ClientOptions.js"
import * as ExitCode from "../shared/ExitCode.js"
import * as Flags from "../shared/Flags.js"
import * as Progress from "../shared/Progress.js"
import type * as Csv from "./Csv.js"
import * as Encoding from "./Encoding.js"
import * as ExportFlags from "./Flags.js"
import * as Output from "./Output.js"
import * as Query from "./Query.js"

/**
 * Writes a stream of records to `Output` in `format`, one chunk (a window of records) a write, counting
 * them in `Progress`; once the stream has ended it completes the output (a file is put in place only then).
 */
export const write = <A extends object, E, R>(
  records: Stream.Stream<A, E, R>,
  format: Encoding.Format,
  columns: ReadonlyArray<string>,
  time: (record: A) => number,
  csv: Csv.Mode = "escapeFormulas"
): Effect.Effect<void, E | Output.OutputError | ExitCode.PipeClosed, R | Output.Output | Progress.Progress> =>
  Effect.gen(function*() {
    const output = yield* Output.Output
    const progress = yield* Progress.Progress
    const encode = Encoding.encoder(format, columns, csv)
    let count = 0
    if (encode.start !== "") yield* output.write(encode.start)
    yield* Stream.runForEachChunk(records, (chunk) => {
      if (Chunk.isEmpty(chunk)) return Effect.void
      const run = Encoding.encodeRun(encode, chunk, count, time)
      count += run.count
      return Effect.zipRight(output.write(run.text), progress.add(run.count, run.latest))
    })
    const end = encode.end(count)
    if (end !== "") yield* output.write(end)
    yield* output.complete
  })

interface CommonFlags {
  readonly since: string | undefined
  readonly until: string | undefined
  readonly concurrency: number
  readonly format: Encoding.Format
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
    const query = {
      ...yield* Flags.fromEither(filters),
      ...yield* Flags.fromEither(Flags.range(flags.since, flags.until, Date.now())),
      concurrency: flags.concurrency
    }
    const stream = Stream.unwrap(Effect.map(BrokerHistory.BrokerHistory, (history) => open(history, query)))
    const csv = yield* Flags.fromEither(Query.csvMode(flags.format, flags.csvRaw))
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
      columns: Encoding.transferColumns,
      time: (t: TransferRecord.TransferRecord) => t.timestamp,
      warning: (q) =>
        Choices.undocumentedAccountTypes([
          { type: q.fromAccountType, where: "--from-account-type" },
          { type: q.toAccountType, where: "--to-account-type" }
        ])
    },
    Query.transferFilters(flags),
    (history, query) => history.transfers(query)
  )).pipe(Command.withDescription(
    "Stream the full transfer history of one account pair and one account-type pair, oldest first, each record once. " +
      "An omitted --from-account/--to-account is the master account. " + ClientOptions.variablesHelp
  ))

/**
 * `broker-history deposits`: the full deposit history, optionally of one coin or status, oldest first,
 * to stdout or `--out` as NDJSON, CSV or JSON.
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
      columns: Encoding.depositColumns,
      time: (d: DepositRecord.DepositRecord) => d.insertTime
    },
    Query.depositFilters(flags),
    (history, query) => history.deposits(query)
  )).pipe(Command.withDescription(
    "Stream the full deposit history, oldest first, each deposit once. " + ClientOptions.variablesHelp
  ))
