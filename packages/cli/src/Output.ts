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
 * The output file could not be opened, written or put in place; the message says which and what to check.
 *
 * @example
 * ```ts
 * import { Output } from "@broker-history/cli"
 * import { Effect, Layer } from "effect"
 * import * as Os from "node:os"
 *
 * const error = Effect.runSync(Effect.flip(Effect.scoped(Layer.build(Output.layerFile(Os.tmpdir())))))
 * assert.ok(error instanceof Output.OutputError)
 * assert.strictEqual(error.message, `cannot write ${Os.tmpdir()}: it is a directory; give a file path`)
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class OutputError extends Data.TaggedError("OutputError")<{ readonly message: string }> {}

/**
 * The destination of exported records: `write` completes once the destination has taken the text
 * (backpressure), `complete` ends the output.
 *
 * @example
 * ```ts
 * import { Output } from "@broker-history/cli"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * const file = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "output-")), "lines.txt")
 * const program = Effect.gen(function*() {
 *   const out = yield* Output.Output
 *   for (const line of ["first\n", "second\n"]) yield* out.write(line)
 *   yield* out.complete
 * })
 * await Effect.runPromise(Effect.provide(program, Output.layer(file)))
 * assert.strictEqual(Fs.readFileSync(file, "utf8"), "first\nsecond\n")
 * Fs.rmSync(Path.dirname(file), { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category services
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
 * The output on the process's stdout; a reader that goes away (`EPIPE`) fails the write with
 * `PipeClosed`, which commands treat as success.
 *
 * @example
 * ```ts
 * import { ExitCode, Output } from "@broker-history/cli"
 * import { Effect } from "effect"
 *
 * const hello: Effect.Effect<void, Output.OutputError | ExitCode.PipeClosed> = Effect.flatMap(
 *   Output.Output,
 *   (out) => out.write("{\"hello\":\"world\"}\n")
 * ).pipe(Effect.provide(Output.layerStdout))
 * ```
 *
 * @since 0.1.0
 * @category layers
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
 * The output in a file, written under a temporary name beside it and renamed over `path` (keeping the old
 * file's permissions) by `complete`; without `complete` (a failure, an interruption) `path` is left as it was.
 *
 * @example
 * ```ts
 * import { Output } from "@broker-history/cli"
 * import { Effect } from "effect"
 * import * as Fs from "node:fs"
 * import * as Os from "node:os"
 * import * as Path from "node:path"
 *
 * const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "output-"))
 * const file = Path.join(dir, "export.ndjson")
 * Fs.writeFileSync(file, "old\n")
 * const writeThen = (finish: Effect.Effect<void, unknown, Output.Output>) =>
 *   Effect.runPromiseExit(
 *     Effect.flatMap(Output.Output, (out) => Effect.zipRight(out.write("new\n"), finish)).pipe(
 *       Effect.provide(Output.layerFile(file))
 *     )
 *   )
 * await writeThen(Effect.fail("the export failed"))
 * assert.strictEqual(Fs.readFileSync(file, "utf8"), "old\n") // untouched, no temporary file left
 * assert.deepStrictEqual(Fs.readdirSync(dir), ["export.ndjson"])
 * await writeThen(Effect.flatMap(Output.Output, (out) => out.complete))
 * assert.strictEqual(Fs.readFileSync(file, "utf8"), "new\n")
 * Fs.rmSync(dir, { recursive: true })
 * ```
 *
 * @since 0.1.0
 * @category layers
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
 * The output on stdout when `path` is undefined or `-`, in the file `path` otherwise.
 *
 * @example
 * ```ts
 * import { Output } from "@broker-history/cli"
 *
 * assert.strictEqual(Output.layer(undefined), Output.layerStdout)
 * assert.strictEqual(Output.layer("-"), Output.layerStdout)
 * assert.notStrictEqual(Output.layer("transfers.ndjson"), Output.layerStdout)
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (path: string | undefined): Layer.Layer<Output, OutputError> =>
  path === undefined || path === "-" ? layerStdout : layerFile(path)
