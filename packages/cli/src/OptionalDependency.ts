/**
 * The commands that run the reference service or write SQLite (`serve`, `demo`, `sync --db FILE`)
 * load their code when they run: `@broker-history/server` and the SQLite driver are optional
 * dependencies (the driver, better-sqlite3, is compiled on install and cannot be everywhere), so
 * `transfers` and `deposits` start fast and work without them.
 *
 * @since 0.1.0
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/**
 * An optional dependency a command needs is not installed (or its native part did not build).
 *
 * @example
 * import { OptionalDependency } from "@broker-history/cli"
 * new OptionalDependency.NotInstalled({ message: "broker-history serve needs …" })
 */
export class NotInstalled extends Data.TaggedError("NotInstalled")<{ readonly message: string }> {}

const missingCodes = new Set(["ERR_MODULE_NOT_FOUND", "MODULE_NOT_FOUND"])

/** True for a failed import of a package that is not there, or of a native addon that was not built. */
const isMissing = (cause: unknown): boolean => {
  const code = (cause as { code?: unknown } | null)?.code
  const message = String((cause as { message?: unknown } | null)?.message ?? cause)
  return (typeof code === "string" && missingCodes.has(code)) || /Could not locate the bindings file/.test(message)
}

/**
 * Imports a command's code; a missing optional dependency fails with `NotInstalled`, naming the
 * command and what to do. Any other failure of the import is a defect.
 *
 * @example
 * import { OptionalDependency } from "@broker-history/cli"
 * const server = OptionalDependency.load("broker-history serve", () => import("@broker-history/server"))
 */
export const load = <M>(command: string, load: () => Promise<M>): Effect.Effect<M, NotInstalled> =>
  Effect.tryPromise({ try: load, catch: (cause) => cause }).pipe(
    Effect.catchAll((cause) =>
      isMissing(cause)
        ? Effect.fail(
          new NotInstalled({
            message: `${command} needs @broker-history/server and the SQLite driver better-sqlite3, optional ` +
              `dependencies that are not installed here (${
                String((cause as { message?: unknown }).message ?? cause).split("\n")[0]
              }); reinstall @broker-history/cli where native modules can be built (Python 3, make and a C++ compiler)`
          })
        )
        : Effect.die(cause)
    )
  )
