// What a CLI process loads: every module URL it resolves, recorded by the record-loads preload, and
// the patterns of what only some commands may load.
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { packageDir } from "./Harness.js"

// The database drivers, and the reference service itself with its internal modules. Its flag table,
// `CommandLine`, is light, and so are the internal modules it reads its settings with
// (`internal/settings/`, `internal/Accounts`) and the pure limiter arithmetic its rate-limit shapes
// name (`internal/limit/`); so are the store's module and its migrations, whose transfer columns the
// sync database shares (the driver loads only when a database opens). Any other internal module of
// the server (of the service's HTTP side, its requests or the seed) is heavy.
export const heavy =
  /better-sqlite3|sql-sqlite-node|sql-pg|\/pg@|server\/(src|dist)\/(ReferenceServer|Seed|internal\/(?!(settings\/|limit\/|Accounts\.|Migrations\.))[\w/]+)\./

// What `sync` runs once its flags are read: its program, plans, run and follower, store and
// migrations, and `@effect/sql`'s migrator.
export const syncRun =
  /cli\/(src|dist)\/internal\/sync\/(Program|Summary|plan\/\w+|run\/\w+|store\/(Store|Columns|Migrations))\.|@effect\/sql\/dist\/esm\/Migrator/

/**
 * Runs `program args…` (a CLI entry point) under plain Node with every resolved module recorded
 * (the file goes in `dir`); returns the exit code, stderr and the module URLs.
 */
export const recordLoads = (
  program: string,
  args: ReadonlyArray<string>,
  dir: string,
  env: Record<string, string | undefined> = {}
) => {
  const file = Path.join(dir, `loads-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`)
  const result = ChildProcess.spawnSync(
    process.execPath,
    ["--import", Path.join(packageDir, "test/support/record-loads.mjs"), program, ...args],
    {
      env: {
        ...process.env,
        BROKER_API_KEY: "mx0vglEXAMPLE",
        BROKER_SECRET_KEY: "x",
        ...env,
        RECORD_LOADS_FILE: file
      },
      encoding: "utf8",
      timeout: 60_000
    }
  )
  const urls = Fs.existsSync(file) ? Fs.readFileSync(file, "utf8").trim().split("\n") : []
  return { code: result.status, stderr: result.stderr, urls }
}
