/**
 * Where exported records go: stdout or a file, written one chunk at a time. A write completes when
 * the destination has taken the chunk, so a slow reader slows the export down (backpressure) and
 * memory stays flat. A reader that goes away (`EPIPE`, as with `| head -1`) ends the export with
 * `PipeClosed`, which the command treats as success.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import type { Writable } from "node:stream"
import { PipeClosed } from "./ExitCode.js"

/**
 * The output file could not be opened or written.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * new Output.OutputError({ message: "cannot write out.csv: ENOSPC" })
 */
export class OutputError extends Data.TaggedError("OutputError")<{ readonly message: string }> {}

/**
 * The destination.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * import { Effect } from "effect"
 * const hello = Effect.flatMap(Output.Output, (out) => out.write("hello\n"))
 */
export class Output extends Context.Tag("@broker-history/cli/Output")<Output, {
  /** Writes `text`; completes once the destination has taken it. */
  readonly write: (text: string) => Effect.Effect<void, OutputError | PipeClosed>
}>() {}

const make = (stream: Writable, describe: string) => {
  let failure: OutputError | PipeClosed | undefined
  const toFailure = (error: NodeJS.ErrnoException) =>
    error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED"
      ? new PipeClosed()
      : new OutputError({ message: `cannot write ${describe}: ${error.message}; check the path and free space` })
  // Without a listener an EPIPE would be thrown as an uncaught exception.
  const onError = (error: NodeJS.ErrnoException) => {
    failure ??= toFailure(error)
  }
  stream.on("error", onError)
  const write = (text: string) =>
    Effect.async<void, OutputError | PipeClosed>((resume) => {
      if (failure !== undefined) return resume(Effect.fail(failure))
      stream.write(text, (error) => {
        if (error !== undefined && error !== null) {
          failure ??= toFailure(error)
          resume(Effect.fail(failure))
        } else if (failure !== undefined) {
          resume(Effect.fail(failure))
        } else {
          resume(Effect.void)
        }
      })
    })
  return { write, onError }
}

/**
 * Writes to the process's stdout.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * const layer = Output.layerStdout
 */
export const layerStdout: Layer.Layer<Output> = Layer.scoped(
  Output,
  Effect.acquireRelease(
    Effect.sync(() => make(process.stdout, "stdout")),
    // The listener stays: a late EPIPE must not crash the process after the command is done.
    () => Effect.void
  ).pipe(Effect.map(({ write }) => Output.of({ write })))
)

/**
 * Writes to a file (created or truncated), flushed and closed when the scope closes.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * const layer = Output.layerFile("transfers.ndjson")
 */
export const layerFile = (path: string): Layer.Layer<Output, OutputError> =>
  Layer.scoped(
    Output,
    Effect.gen(function*() {
      const stream = yield* Effect.acquireRelease(
        Effect.async<Fs.WriteStream, OutputError>((resume) => {
          const file = Fs.createWriteStream(path)
          const onError = (error: Error) =>
            resume(Effect.fail(new OutputError({ message: `cannot open ${path}: ${error.message}; check the path` })))
          file.once("error", onError)
          file.once("open", () => {
            file.off("error", onError)
            resume(Effect.succeed(file))
          })
          return Effect.sync(() => {
            file.destroy()
          })
        }),
        (file) =>
          Effect.async<void>((resume) => {
            file.end(() => resume(Effect.void))
          })
      )
      const { write } = make(stream, path)
      return Output.of({ write })
    })
  )

/**
 * Stdout when `path` is undefined or `-`, the file otherwise.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * const layer = Output.layer(undefined) // stdout
 */
export const layer = (path: string | undefined): Layer.Layer<Output, OutputError> =>
  path === undefined || path === "-" ? layerStdout : layerFile(path)
