/**
 * Where exported records go: stdout or a file, written one chunk at a time. A write completes when
 * the destination has taken the chunk, so a slow reader slows the export down (backpressure) and
 * memory stays flat. A reader that goes away (`EPIPE`, as with `| head -1`) ends the export with
 * `PipeClosed`, which the command treats as success.
 *
 * A file is written under a temporary name in its directory and renamed over the destination by
 * `complete`, so a failed or interrupted export leaves what was there before untouched.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Fs from "node:fs"
import * as Path from "node:path"
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
  /** Everything is written: flush, and put a file in place of the destination. */
  readonly complete: Effect.Effect<void, OutputError>
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
  ).pipe(Effect.map(({ write }) => Output.of({ write, complete: Effect.void })))
)

const reason = (error: NodeJS.ErrnoException) => error.code !== undefined ? `${error.code}` : error.message

/** The temporary file beside `path`: same directory, so the final rename is atomic. */
const temporaryPath = (path: string) =>
  Path.join(Path.dirname(path), `.${Path.basename(path)}.${process.pid}-${Date.now().toString(36)}.tmp`)

/**
 * Writes to a file: to a temporary file beside it first, renamed over `path` by `complete` (keeping
 * the old file's permissions). When the scope closes without `complete` (a failure, an interruption)
 * the temporary file is removed and `path` is left as it was.
 *
 * @example
 * import { Output } from "@broker-history/cli"
 * const layer = Output.layerFile("transfers.ndjson")
 */
export const layerFile = (path: string): Layer.Layer<Output, OutputError> =>
  Layer.scoped(
    Output,
    Effect.gen(function*() {
      const temporary = temporaryPath(path)
      const cannotOpen = (error: NodeJS.ErrnoException) =>
        new OutputError({ message: `cannot open ${path} for writing (${reason(error)}); check the path` })
      const previous = yield* Effect.try({
        try: () => Fs.statSync(path, { throwIfNoEntry: false }),
        catch: (error) => cannotOpen(error as NodeJS.ErrnoException)
      })
      if (previous?.isDirectory() === true) {
        return yield* new OutputError({ message: `cannot write ${path}: it is a directory; give a file path` })
      }
      let completed = false
      const file = yield* Effect.acquireRelease(
        Effect.async<Fs.WriteStream, OutputError>((resume) => {
          const stream = Fs.createWriteStream(temporary, { flags: "wx", mode: previous?.mode ?? 0o666 })
          const onError = (error: Error) => resume(Effect.fail(cannotOpen(error)))
          stream.once("error", onError)
          stream.once("open", () => {
            stream.off("error", onError)
            resume(Effect.succeed(stream))
          })
          return Effect.sync(() => stream.destroy())
        }),
        (stream, exit) =>
          completed ? Effect.void : Effect.sync(() => {
            stream.destroy()
            Fs.rmSync(temporary, { force: true })
            if (Exit.isInterrupted(exit)) process.stderr.write(`broker-history: interrupted; ${path} left unchanged\n`)
          })
      )
      const { write } = make(file, path)
      const complete = Effect.async<void, OutputError>((resume) => {
        file.end((error?: Error | null) => {
          if (error !== undefined && error !== null) {
            return resume(Effect.fail(
              new OutputError({ message: `cannot write ${path} (${reason(error)}); check the path and free space` })
            ))
          }
          try {
            // The mode given at creation is reduced by the umask: set the old file's exactly.
            if (previous !== undefined) Fs.chmodSync(temporary, previous.mode)
            Fs.renameSync(temporary, path)
            completed = true
            resume(Effect.void)
          } catch (error) {
            resume(Effect.fail(
              new OutputError({
                message: `cannot put the export in place at ${path} (${
                  reason(error as NodeJS.ErrnoException)
                }); check the path and its permissions`
              })
            ))
          }
        })
      })
      return Output.of({ write, complete })
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
