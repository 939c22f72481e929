/**
 * A scratch directory for one benchmark part's files (SQLite databases), removed with its scope.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"

/**
 * A new directory under the system's temporary directory, its name starting with `prefix`; it and
 * everything in it are removed when the scope closes.
 *
 * @example
 * import * as TempDir from "@broker-history/bench/TempDir"
 * import { Effect } from "effect"
 * import * as Path from "node:path"
 * const database = Effect.scoped(Effect.map(TempDir.scoped("broker-bench-"), (dir) => Path.join(dir, "history.sqlite")))
 */
export const scoped = (prefix: string): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), prefix))),
    (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
  )
