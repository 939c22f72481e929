/**
 * Where exported records go: stdout or what `--out` names, written one chunk at a time. A write
 * completes when the destination has taken the chunk, so a slow reader slows the export down
 * (backpressure) and memory stays flat. A reader that goes away (`EPIPE`, as with `| head -1`) ends
 * the export with `PipeClosed`, which the command treats as success.
 *
 * `--out` writes to what the user named: a symlink's target (the link stays); straight into a
 * character device, a FIFO or an open descriptor (`/dev/stdout`, `/dev/fd/3`); a regular file under a
 * temporary name beside it, renamed over it by `complete` with its owner, group and mode, so that a
 * failed or interrupted export leaves what was there before untouched. A file the user could not
 * write is refused before anything is fetched. An export interrupted before `complete` says so on
 * stderr and makes the program end with 130/143 (`ExitCode.interrupted`).
 *
 * @internal
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { Writable } from "node:stream"
import * as ExitCode from "../shared/ExitCode.js"
import * as OutputTarget from "./OutputTarget.js"

/** The output file could not be opened, written or put in place; the message says which and what to check. */
export class OutputError extends Data.TaggedError("OutputError")<{ readonly message: string }> {}

/**
 * The destination of exported records: `write` completes once the destination has taken the text
 * (backpressure), `complete` ends the output.
 */
export class Output extends Context.Tag("@broker-history/cli/Output")<Output, {
  /** Writes `text`; completes once the destination has taken it. */
  readonly write: (text: string) => Effect.Effect<void, OutputError | ExitCode.PipeClosed>
  /** Everything is written: flush, and put a file in place of the destination (not interrupted once begun). */
  readonly complete: Effect.Effect<void, OutputError>
}>() {}

/** Writes to `stream`, each write waiting until the stream has taken the text; `failure` is its first error. */
const make = (stream: Writable, describe: string) => {
  let failure: OutputError | ExitCode.PipeClosed | undefined
  const toFailure = (error: NodeJS.ErrnoException) =>
    error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED"
      ? new ExitCode.PipeClosed()
      : new OutputError({ message: `cannot write ${describe}: ${error.message}; check the path and free space` })
  // Without a listener an EPIPE would be thrown as an uncaught exception.
  const onError = (error: NodeJS.ErrnoException) => {
    failure ??= toFailure(error)
  }
  stream.on("error", onError)
  /** The first failure, this one included if given (a callback's error). */
  const failed = (error?: NodeJS.ErrnoException | null) => {
    if (error !== undefined && error !== null) onError(error)
    return failure
  }
  const write = (text: string) =>
    Effect.async<void, OutputError | ExitCode.PipeClosed>((resume) => {
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
  return { write, failed }
}

/** A file's failure: an EPIPE cannot happen there, but would still mean the file was not written. */
const asOutputError = (named: string, failure: OutputError | ExitCode.PipeClosed) =>
  failure instanceof OutputError
    ? failure
    : new OutputError({ message: `cannot write ${named}: the output was closed early; check the path and free space` })

/** Whether the export reached `complete`, and how it was being written: what an interruption says. */
interface Progress {
  completed: boolean
  plan: OutputTarget.Plan | undefined
}

/**
 * Registered first by each layer: an interruption before `complete` (SIGINT/SIGTERM) says the
 * export is incomplete, and how that left the destination, and the program ends with 130/143.
 */
const sayIfInterrupted = (progress: Progress, named: string) =>
  Effect.addFinalizer((exit) =>
    !progress.completed && Exit.isInterrupted(exit)
      ? ExitCode.interrupted(OutputTarget.interruptedLine(progress.plan, named))
      : Effect.void
  )

/** The service on the process's stdout. */
const onStdout = (progress: Progress) => {
  const { write } = make(process.stdout, "stdout")
  // The error listener stays: a late EPIPE must not crash the process after the command is done.
  return Output.of({ write, complete: Effect.sync(() => void (progress.completed = true)) })
}

/**
 * The output on the process's stdout; a reader that goes away (`EPIPE`) fails the write with
 * `PipeClosed`, which commands treat as success.
 */
export const layerStdout: Layer.Layer<Output> = Layer.scoped(
  Output,
  Effect.suspend(() => {
    const progress: Progress = { completed: false, plan: { _tag: "Stdout" } }
    return Effect.as(sayIfInterrupted(progress, "stdout"), onStdout(progress))
  })
)

/** A Node error's code (`EACCES`), or its message. */
const reason = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code
  return code !== undefined ? code : error instanceof Error ? error.message : String(error)
}

/** The error code of `f`'s failure, `undefined` if it succeeds. */
const failureCode = (f: () => void): string | undefined => {
  try {
    f()
    return undefined
  } catch (error) {
    return reason(error)
  }
}

/** `stat` (or `lstat`) of `path`; `undefined` if it does not exist. */
const statOf = (path: string, follow: boolean): Fs.Stats | undefined => {
  try {
    return follow ? Fs.statSync(path) : Fs.lstatSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
}

/** The open descriptor that `path` names (an entry of `/proc/PID/fd`, reached through any symlinked directory). */
const descriptorOf = (path: string): OutputTarget.Descriptor | undefined => {
  try {
    return OutputTarget.descriptorIn(Fs.realpathSync(Path.dirname(path)), Path.basename(path))
  } catch {
    return undefined
  }
}

/** `path` with the symlinks of its last component followed, stopping at an open descriptor's entry. */
const follow = (path: string) => {
  let current = Path.resolve(path)
  for (let hop = 0; hop <= 40; hop++) {
    const descriptor = descriptorOf(current)
    if (descriptor !== undefined) return { resolved: current, descriptor, loop: false }
    if (statOf(current, false)?.isSymbolicLink() !== true) return { resolved: current, descriptor, loop: false }
    current = Path.resolve(Path.dirname(current), Fs.readlinkSync(current))
  }
  return { resolved: current, descriptor: undefined, loop: true }
}

const kindOf = (stat: Fs.Stats | undefined): OutputTarget.Kind =>
  stat === undefined
    ? "missing"
    : stat.isFile()
    ? "file"
    : stat.isDirectory()
    ? "directory"
    : stat.isCharacterDevice()
    ? "characterDevice"
    : stat.isBlockDevice()
    ? "blockDevice"
    : stat.isFIFO()
    ? "fifo"
    : "socket"

/** What `named` is, as `OutputTarget.plan` needs to know it. */
const probe = (named: string): OutputTarget.Probe => {
  const { descriptor, loop, resolved } = follow(named)
  let stat: Fs.Stats | undefined
  const unreachable = loop ? undefined : failureCode(() => (stat = statOf(resolved, true)))
  const directory = stat === undefined || stat.isFile() ? statOf(Path.dirname(resolved), true) : undefined
  return {
    named,
    resolved,
    descriptor,
    loop,
    kind: kindOf(stat),
    unreachable,
    file: stat?.isFile() === true
      ? { uid: stat.uid, gid: stat.gid, mode: stat.mode & 0o7777, nlink: stat.nlink }
      : undefined,
    notWritable: stat === undefined ? undefined : failureCode(() => Fs.accessSync(resolved, Fs.constants.W_OK)),
    directory: directory?.isDirectory() === true
      ? {
        notWritable: failureCode(() => Fs.accessSync(Path.dirname(resolved), Fs.constants.W_OK | Fs.constants.X_OK)),
        sticky: (directory.mode & 0o1000) !== 0,
        uid: directory.uid
      }
      : undefined
  }
}

/** The descriptor of an open file stream (`fd` is set once it has emitted `open`; not in Node's types). */
const descriptorOfStream = (stream: Fs.WriteStream): number => (stream as unknown as { readonly fd: number }).fd

/** Opens a write stream; interrupting the wait (a FIFO waits for its reader) destroys it. */
const openStream = (path: string, named: string, options: Parameters<typeof Fs.createWriteStream>[1]) =>
  Effect.async<Fs.WriteStream, OutputError>((resume) => {
    const stream = Fs.createWriteStream(path, options)
    const onError = (error: Error) =>
      resume(
        Effect.fail(new OutputError({ message: `cannot open ${named} for writing (${reason(error)}); check the path` }))
      )
    stream.once("error", onError)
    stream.once("open", () => {
      stream.off("error", onError)
      resume(Effect.succeed(stream))
    })
    return Effect.sync(() => stream.destroy())
  })

/** A device, a FIFO or an open descriptor: written straight into, no temporary file. */
const direct = (plan: Extract<OutputTarget.Plan, { _tag: "Direct" }>, named: string, progress: Progress) =>
  Effect.gen(function*() {
    const stream = yield* Effect.acquireRelease(
      Effect.interruptible(openStream(plan.path, named, { flags: plan.flags })),
      (stream) => Effect.sync(() => stream.destroy())
    )
    const { failed, write } = make(stream, named)
    const complete = Effect.async<void, OutputError>((resume) => {
      stream.end((error?: NodeJS.ErrnoException | null) => {
        const failure = failed(error)
        // A reader that went away at the very end had what it wanted, as with `| head`.
        if (failure instanceof OutputError) return resume(Effect.fail(failure))
        progress.completed = true
        resume(Effect.void)
      })
    })
    return Output.of({ write, complete })
  })

/** Whether process `pid` exists (EPERM: it does, as another user's). */
const isAlive = (pid: number) => failureCode(() => process.kill(pid, 0)) !== "ESRCH"

/** Removes the temporary files of `base` that killed runs on this host left in `directory`. */
const removeLeftBehind = (directory: string, base: string) => {
  let names: ReadonlyArray<string> = []
  failureCode(() => (names = Fs.readdirSync(directory)))
  for (const name of names) {
    const owner = OutputTarget.temporaryOwner(base, name)
    if (owner !== undefined && OutputTarget.isLeftBehind(owner, Os.hostname(), isAlive)) {
      failureCode(() => Fs.rmSync(Path.join(directory, name), { force: true }))
    }
  }
}

/**
 * Gives the temporary file `previous`'s owner and group where permitted (root: always; a user: a
 * group they are in) and its mode; the notes to write once it is in place (what could not be kept).
 */
const keepAttributes = (fd: number, named: string, previous: OutputTarget.FileFacts) =>
  Effect.try({
    try: () => {
      if (failureCode(() => Fs.fchownSync(fd, previous.uid, previous.gid)) !== undefined) {
        failureCode(() => Fs.fchownSync(fd, -1, previous.gid))
      }
      // After chown, which clears setuid/setgid bits; the mode given at open was reduced by the umask.
      Fs.fchmodSync(fd, previous.mode)
      const now = Fs.fstatSync(fd)
      return OutputTarget.replacedNotes(named, previous, { uid: now.uid, gid: now.gid })
    },
    catch: (error) =>
      new OutputError({ message: `cannot set the permissions of ${named}'s export (${reason(error)}); check the path` })
  })

/**
 * A regular file, new or replaced: written under a temporary name beside it (its owner, group and
 * mode set at once), flushed to disk and renamed over it by `complete`; left as it was otherwise.
 */
const replace = (
  plan: Extract<OutputTarget.Plan, { _tag: "Create" | "Replace" }>,
  named: string,
  progress: Progress
) =>
  Effect.gen(function*() {
    const directory = Path.dirname(plan.path)
    const base = Path.basename(plan.path)
    removeLeftBehind(directory, base)
    const owner = { pid: process.pid, host: Os.hostname() }
    const temporary = Path.join(
      directory,
      OutputTarget.temporaryName(base, owner, Crypto.randomBytes(4).toString("hex"))
    )
    const stream = yield* Effect.acquireRelease(
      // A new file gets the usual 0666 less the umask; a replaced one is private until keepAttributes gives it the old mode.
      openStream(temporary, named, { flags: "wx", mode: plan._tag === "Create" ? 0o666 : 0o600, flush: true }),
      (stream) =>
        progress.completed ? Effect.void : Effect.sync(() => {
          stream.destroy()
          Fs.rmSync(temporary, { force: true })
        })
    )
    const notes = plan._tag === "Replace" ? yield* keepAttributes(descriptorOfStream(stream), named, plan.previous) : []
    const { failed, write } = make(stream, named)
    const putInPlace = () => {
      try {
        Fs.renameSync(temporary, plan.path)
      } catch (error) {
        return new OutputError({
          message: `cannot put the export in place at ${named} (${reason(error)}); check the path and its permissions`
        })
      }
      progress.completed = true
      for (const note of notes) process.stderr.write(`broker-history: note: ${note}\n`)
    }
    const complete = Effect.uninterruptible(Effect.async<void, OutputError>((resume) => {
      const early = failed()
      if (early !== undefined || stream.destroyed) {
        return resume(Effect.fail(asOutputError(named, early ?? new ExitCode.PipeClosed())))
      }
      // Closed once flushed to disk (`flush`): only then renamed, so a crash never leaves a short file.
      stream.once("close", () => {
        const failure = failed()
        const error = failure !== undefined ? asOutputError(named, failure) : putInPlace()
        resume(error === undefined ? Effect.void : Effect.fail(error))
      })
      stream.end()
    }))
    return Output.of({ write, complete })
  })

const self = () => ({ pid: process.pid, uid: process.geteuid?.() })

/**
 * The output where `path` (the `--out` flag) points, written to what the user named:
 *
 * - a regular file: written under a temporary name beside it (`.NAME.PID-XXXX.HOST.tmp`, which the
 *   next run removes if its process was killed) and renamed over it by `complete`, keeping its owner,
 *   group and mode where permitted (a note on stderr says what could not be kept, and names other hard
 *   links, which keep the previous content); without `complete` (a failure, an interruption) `path`
 *   is left as it was; a missing file is created the same way;
 * - a symlink: the same for its target (created if missing); the link stays;
 * - a character device, a FIFO or an open descriptor (`/dev/null`, a named pipe, `/dev/fd/3`): written
 *   straight into, no temporary file; `/dev/stdout` is stdout;
 * - a directory, a block device, a socket, or a file the user could not write: refused with an
 *   `OutputError` that says what to do, before anything is fetched.
 */
export const layerFile = (path: string): Layer.Layer<Output, OutputError> =>
  Layer.scoped(
    Output,
    Effect.gen(function*() {
      const progress: Progress = { completed: false, plan: undefined }
      yield* sayIfInterrupted(progress, path)
      const plan = yield* Effect.try({
        try: () => OutputTarget.plan(probe(path), self()),
        catch: (error) => new OutputError({ message: `cannot write ${path} (${reason(error)}); check the path` })
      })
      progress.plan = plan
      switch (plan._tag) {
        case "Refuse":
          return yield* new OutputError({ message: plan.message })
        case "Stdout":
          return onStdout(progress)
        case "Direct":
          return yield* direct(plan, path, progress)
        default:
          return yield* replace(plan, path, progress)
      }
    })
  )

/** The output on stdout when `path` is undefined or `-`, in the file `path` otherwise. */
export const layer = (path: string | undefined): Layer.Layer<Output, OutputError> =>
  path === undefined || path === "-" ? layerStdout : layerFile(path)
