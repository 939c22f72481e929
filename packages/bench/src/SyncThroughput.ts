/**
 * Sync throughput: `SyncRun` (what `broker-history sync` runs, in this process) reads a seeded
 * reference service (child process, loopback, budget far above what it uses) into SQLite and into
 * PostgreSQL, against a raw loop that upserts the same rows, already fetched, in batches of the same
 * size over the same driver (better-sqlite3, `pg`) into the same tables, against the sync's store
 * alone (the same batches applied through `SyncStore`) and against the fetch alone (the sync's
 * streams read and dropped). Rounds alternate the contenders; rows per second,
 * CPU of this process, medians and per-round ratios to the raw loop. Optionally the demo's data is
 * then synced by the CLI in its own process (compiled, as installed) at the default request budget:
 * wall time against requests / budget.
 *
 * @since 0.2.0
 */
import * as Progress from "@broker-history/cli/Progress"
import * as SyncPlan from "@broker-history/cli/SyncPlan"
import * as SyncRun from "@broker-history/cli/SyncRun"
import * as SyncStore from "@broker-history/cli/SyncStore"
import { BrokerConfig, BrokerHistory, BrokerHttpClient, HttpProxy } from "@broker-history/client"
import type { Checkpoint } from "@broker-history/client"
import * as NodeTransport from "@broker-history/client/NodeTransport"
import type { DepositRecord, TransferRecord } from "@broker-history/domain"
import { Accounts, ApiKeys } from "@broker-history/server"
import Database from "better-sqlite3"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import Pg from "pg"
import * as Measure from "./Measure.js"
import * as ServiceProcess from "./ServiceProcess.js"

/**
 * The data and the rounds.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const tiny: SyncThroughput.Options = { seed: 1, transfers: 500, deposits: 100, subAccounts: 2, rounds: 1, batchSize: 500, concurrency: 4, defaultBudget: false }
 */
export interface Options {
  readonly seed: number
  /** Transfers the service generates (the sync reads those touching the master account). */
  readonly transfers: number
  readonly deposits: number
  readonly subAccounts: number
  readonly rounds: number
  /** `--batch-size`: records per transaction. */
  readonly batchSize: number
  /** `--concurrency`: streams read at once. */
  readonly concurrency: number
  /** Also sync the demo's data with `broker-history sync` (own process) at the default budget. */
  readonly defaultBudget: boolean
}

/**
 * Where rows go: SQLite, PostgreSQL, or nowhere (the fetch alone).
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const targets: ReadonlyArray<SyncThroughput.Target> = ["sqlite", "pg", "none"]
 */
export type Target = "sqlite" | "pg" | "none"

/**
 * One contender's run in one round.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const cpuPerRow = (s: SyncThroughput.Sample) => s.cpuMillis / s.rows
 */
export interface Sample {
  readonly round: number
  readonly target: Target
  readonly contender: "sync" | "store" | "raw" | "fetch"
  /** Records written (fetch: read). */
  readonly rows: number
  readonly requests: number
  readonly wallMillis: number
  /** User + system CPU of this process. */
  readonly cpuMillis: number
  /** User + system CPU of the service's process meanwhile (`NaN` where it cannot be read). */
  readonly serviceCpuMillis: number
  readonly rowsPerSecond: number
  /** The table counts (fetch: the records read) equal the service's rows for the plan. */
  readonly exact: boolean
}

/**
 * Medians of one contender over the rounds.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const met = (s: SyncThroughput.Summary) => s.ratio >= 0.8
 */
export interface Summary {
  readonly target: Target
  readonly contender: Sample["contender"]
  readonly rowsPerSecond: number
  readonly cpuMicrosPerRow: number
  /** The service's CPU per row meanwhile (fetch and sync; about 0 for the others). */
  readonly serviceCpuMicrosPerRow: number
  readonly wallMillis: number
  /** Median of the per-round ratios of rows/s to the raw loop of the same target (fetch: to raw SQLite). */
  readonly ratio: number
  readonly ratioRange: readonly [number, number]
  readonly exact: boolean
}

/**
 * `broker-history sync` of the demo's data at the default budget.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const met = (r: SyncThroughput.BudgetRun) => r.overBound <= 1.1
 */
export interface BudgetRun {
  /** The client's default budget, requests per second. */
  readonly budget: number
  readonly requests: number
  readonly retries: number
  readonly rows: number
  /** From starting the process to its exit. */
  readonly wallMillis: number
  /** The command's own elapsed time (its summary line: flags read to the end). */
  readonly commandMillis: number
  /** requests / budget. */
  readonly boundMillis: number
  readonly overBound: number
  readonly commandOverBound: number
  readonly exitCode: number | null
  /** What was started: the compiled CLI, or the sources through tsx and why. */
  readonly runs: string
  /** From starting the process to the service's answer to its first request (start, flags, opening the database, the first request). */
  readonly firstRequestMillis: number
  /** From the first answer to the last (the bound's part). */
  readonly requestsMillis: number
  /** From the last answer to the exit (the last writes, the summary, closing). */
  readonly exitMillis: number
}

/**
 * Everything the part measured.
 *
 * @example
 * import type { SyncThroughput } from "@broker-history/bench"
 * const rows = (r: SyncThroughput.Result) => r.expected.transfers + r.expected.deposits
 */
export interface Result {
  readonly options: Options
  readonly expected: { readonly transfers: number; readonly deposits: number; readonly streams: number }
  readonly samples: ReadonlyArray<Sample>
  readonly summaries: ReadonlyArray<Summary>
  /** Why PostgreSQL was not measured, or `undefined` when it was. */
  readonly postgresSkipped: string | undefined
  readonly atDefaultBudget: BudgetRun | undefined
}

const day = 86_400_000
const endpoints = ["transferHistory", "depositHistory"]

/** The demo key, no proxy (the service is on loopback), and the given budget (default: the client's). */
const client = (baseUrl: string, budget: number | undefined) =>
  NodeTransport.layerProxy(HttpProxy.none).pipe(Layer.provide(BrokerConfig.layer({
    baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    ...(budget === undefined ? {} : { rateLimit: { limit: budget, interval: "1 second" } })
  })))

/** High enough never to bind. */
const unboundedBudget = 1_000_000

const requestCount = Effect.map(
  Effect.all(endpoints.map((e) => Metric.value(Metric.tagged(BrokerHttpClient.metrics.requests, "endpoint", e)))),
  (states) => states.reduce((sum, state) => sum + Number(state.count), 0)
)

/** The plan of `broker-history sync --sub-accounts <all> --since <start of the history>`. */
const plan = (options: Options) => {
  const transferStreams = SyncPlan.transferStreams(
    SyncPlan.defaultPairs(Accounts.subAccountNames(options.subAccounts)),
    ["SPOT", "FUTURES"]
  )
  const since = { transfers: 0, deposits: Date.now() - (2 * 365 + 2) * day }
  return { transferStreams, since }
}

type Plan = ReturnType<typeof plan>

/** One batch as the sync writes it: up to `batchSize` records of one stream. */
type Batch =
  & (
    | { readonly kind: "transfers"; readonly records: ReadonlyArray<TransferRecord.TransferRecord> }
    | { readonly kind: "deposits"; readonly records: ReadonlyArray<DepositRecord.DepositRecord> }
  )
  & {
    /** The stream's id and its checkpoint after the batch's last record. */
    readonly stream: string
    readonly checkpoint: Checkpoint.Checkpoint
  }

const measured = async <A>(work: () => Promise<A>) => {
  Measure.collectGarbage()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const result = await work()
  const wallMillis = performance.now() - started
  const used = process.cpuUsage(cpu)
  return { result, wallMillis, cpuMillis: (used.user + used.system) / 1000 }
}

/**
 * The plan's streams read and dropped (`keep`: also kept as the sync's batches, per stream), with the
 * sync's concurrency.
 */
const fetchAll = (baseUrl: string, p: Plan, options: Options, keep: boolean) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(client(baseUrl, unboundedBudget))
    const history = Context.get(context, BrokerHistory.BrokerHistory)
    const batches: Array<Batch> = []
    const counts = { transfers: 0, deposits: 0 }
    const read = <A>(
      kind: Batch["kind"],
      id: string,
      stream: Stream.Stream<Checkpoint.Change<A>, unknown>
    ) =>
      Effect.suspend(() => {
        const kept: Array<Checkpoint.Change<A>> = []
        return Effect.zipRight(
          Stream.runForEachChunk(stream, (chunk) =>
            Effect.sync(() => {
              counts[kind] += chunk.length
              if (keep) { for (const change of chunk) kept.push(change) }
            })),
          Effect.sync(() => {
            for (let i = 0; i < kept.length; i += options.batchSize) {
              const changes = kept.slice(i, i + options.batchSize)
              batches.push(
                {
                  kind,
                  stream: id,
                  records: changes.map((c) => c.record),
                  checkpoint: changes[changes.length - 1]!.checkpoint
                } as Batch
              )
            }
          })
        )
      })
    const streams = [
      read("deposits", SyncPlan.depositStreamId, history.depositChanges({ since: p.since.deposits, concurrency: 2 })),
      ...p.transferStreams.map((s) =>
        read("transfers", s.id, history.transferChanges({ ...s.query, since: p.since.transfers }))
      )
    ]
    const before = yield* requestCount
    const { wallMillis, cpuMillis } = yield* Effect.promise(() =>
      measured(() => Effect.runPromise(Effect.all(streams, { concurrency: options.concurrency, discard: true })))
    )
    return { counts, batches, requests: (yield* requestCount) - before, wallMillis, cpuMillis }
  }).pipe(Effect.scoped)

/** A fresh database with the sync's schema: a new SQLite file, or PostgreSQL without the sync's tables. */
const freshDatabase = (target: "sqlite" | "pg", dir: string, pgUrl: string | undefined, name: string) =>
  Effect.promise(async () => {
    if (target === "sqlite") return Path.join(dir, `${name}.db`)
    const pg = new Pg.Client({ connectionString: pgUrl })
    await pg.connect()
    await pg.query("DROP TABLE IF EXISTS transfers, deposits, sync_checkpoints, sync_migrations")
    await pg.end()
    return pgUrl!
  })

/** Creates the sync's tables (its migrations), as `sync` does on open. */
const migrate = (db: string) => Effect.scoped(Layer.build(SyncStore.layer(db)))

const syncInto = (db: string, baseUrl: string, p: Plan, options: Options) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(Layer.mergeAll(
      SyncStore.layer(db),
      Progress.layer({ label: "sync", endpoints, live: false }),
      client(baseUrl, unboundedBudget)
    ))
    const settings: SyncRun.Settings = {
      transferStreams: p.transferStreams,
      since: p.since,
      reset: undefined,
      follow: undefined,
      settlement: day,
      concurrency: options.concurrency,
      batchSize: options.batchSize,
      batchWait: 250,
      log: () => {},
      warn: () => {}
    }
    const before = yield* requestCount
    const { result, wallMillis, cpuMillis } = yield* Effect.promise(() =>
      measured(() => Effect.runPromise(SyncRun.run(settings).pipe(Effect.scoped, Effect.provide(context))))
    )
    return {
      rows: result.totals.transfers + result.totals.deposits,
      counts: result.counts,
      requests: (yield* requestCount) - before,
      wallMillis,
      cpuMillis
    }
  }).pipe(Effect.scoped)

/**
 * The sync's store alone: the pre-fetched batches applied in turn through `SyncStore` (each with its
 * stream's checkpoint, as the sync writes them), nothing fetched.
 */
const storeInto = (db: string, batches: ReadonlyArray<Batch>, since: Plan["since"]) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(SyncStore.layer(db))
    const store = Context.get(context, SyncStore.SyncStore)
    const apply = Effect.forEach(batches, (b) => {
      const position: SyncStore.Position = {
        _tag: "Checkpoint",
        checkpoint: b.checkpoint,
        coveredSince: since[b.kind]
      }
      return b.kind === "transfers"
        ? store.applyTransfers(b.stream, b.records, position)
        : store.applyDeposits(b.stream, b.records, position)
    }, { discard: true })
    const { wallMillis, cpuMillis } = yield* Effect.promise(() => measured(() => Effect.runPromise(apply)))
    return { counts: yield* store.counts, wallMillis, cpuMillis }
  }).pipe(Effect.scoped)

/** A table's columns (in order) and its primary key, as the raw loop upserts it. */
interface Shape {
  readonly columns: ReadonlyArray<string>
  readonly key: ReadonlyArray<string>
}

const rowOf = (batch: Batch, i: number): Record<string, unknown> =>
  batch.kind === "transfers" ? SyncStore.transferRow(batch.records[i]!) : SyncStore.depositRow(batch.records[i]!)

/** The values of a batch's rows, row after row, in the table's column order. */
const values = (batch: Batch, shape: Shape, from: number, to: number): Array<unknown> => {
  const out: Array<unknown> = []
  for (let i = from; i < to; i++) {
    const row = rowOf(batch, i)
    for (const c of shape.columns) out.push(c === "profile" ? "default" : row[c])
  }
  return out
}

/** `INSERT … ON CONFLICT (key) DO UPDATE` of `rows` rows, as the sync's upsert. */
const upsertSql = (table: string, shape: Shape, rows: number, placeholder: (n: number) => string) => {
  const tuples: Array<string> = []
  for (let r = 0; r < rows; r++) {
    tuples.push(`(${shape.columns.map((_, c) => placeholder(r * shape.columns.length + c + 1)).join(", ")})`)
  }
  const update = shape.columns.filter((c) => !shape.key.includes(c)).map((c) => `${c} = excluded.${c}`).join(", ")
  return `INSERT INTO ${table} (${shape.columns.join(", ")}) VALUES ${tuples.join(", ")} ON CONFLICT (${
    shape.key.join(", ")
  }) DO UPDATE SET ${update}`
}

/** Rows per statement: below SQLite's and PostgreSQL's parameter limits. */
const statementRows = (shape: Shape) => Math.floor(30_000 / shape.columns.length)

/** The raw SQLite loop: one transaction per batch, multi-row upserts through prepared statements. */
const rawSqlite = (file: string, batches: ReadonlyArray<Batch>) => {
  const db = new Database(file)
  db.pragma("journal_mode = WAL")
  const shapeOf = (table: string): Shape => {
    const info = db.prepare("SELECT name, pk FROM pragma_table_info(?)").all(table) as Array<
      { name: string; pk: number }
    >
    return {
      columns: info.map((c) => c.name),
      key: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name)
    }
  }
  const shapes = { transfers: shapeOf("transfers"), deposits: shapeOf("deposits") }
  const prepared = new Map<string, Database.Statement>()
  const statement = (table: Batch["kind"], rows: number) => {
    const key = `${table}:${rows}`
    let s = prepared.get(key)
    if (s === undefined) {
      s = db.prepare(upsertSql(table, shapes[table], rows, () => "?"))
      prepared.set(key, s)
    }
    return s
  }
  const write = db.transaction((batch: Batch) => {
    const shape = shapes[batch.kind]
    const step = statementRows(shape)
    for (let i = 0; i < batch.records.length; i += step) {
      const to = Math.min(batch.records.length, i + step)
      statement(batch.kind, to - i).run(values(batch, shape, i, to))
    }
  })
  return {
    run: async () => {
      for (const batch of batches) write(batch)
    },
    counts: () => {
      const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
      return { transfers: count("transfers"), deposits: count("deposits") }
    },
    close: () => db.close()
  }
}

/** The raw PostgreSQL loop: one transaction per batch (BEGIN, multi-row upserts, COMMIT) on one connection. */
const rawPg = async (url: string, batches: ReadonlyArray<Batch>) => {
  const pg = new Pg.Client({ connectionString: url })
  await pg.connect()
  const shapeOf = async (table: string): Promise<Shape> => {
    const columns = await pg.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
      [table]
    )
    const key = await pg.query<{ attname: string }>(
      "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary",
      [table]
    )
    return { columns: columns.rows.map((r) => r.column_name), key: key.rows.map((r) => r.attname) }
  }
  const shapes = { transfers: await shapeOf("transfers"), deposits: await shapeOf("deposits") }
  const texts = new Map<string, string>()
  const text = (table: Batch["kind"], rows: number) => {
    const key = `${table}:${rows}`
    let s = texts.get(key)
    if (s === undefined) {
      s = upsertSql(table, shapes[table], rows, (n) => `$${n}`)
      texts.set(key, s)
    }
    return s
  }
  return {
    run: async () => {
      for (const batch of batches) {
        const shape = shapes[batch.kind]
        const step = statementRows(shape)
        await pg.query("BEGIN")
        for (let i = 0; i < batch.records.length; i += step) {
          const to = Math.min(batch.records.length, i + step)
          await pg.query(text(batch.kind, to - i), values(batch, shape, i, to))
        }
        await pg.query("COMMIT")
      }
    },
    counts: async () => {
      const { rows } = await pg.query<{ transfers: string; deposits: string }>(
        "SELECT (SELECT COUNT(*) FROM transfers) AS transfers, (SELECT COUNT(*) FROM deposits) AS deposits"
      )
      return { transfers: Number(rows[0]!.transfers), deposits: Number(rows[0]!.deposits) }
    },
    close: () => pg.end()
  }
}

const rawInto = (target: "sqlite" | "pg", db: string, batches: ReadonlyArray<Batch>) =>
  Effect.promise(async () => {
    const loop = target === "sqlite" ? rawSqlite(db, batches) : await rawPg(db, batches)
    try {
      const { wallMillis, cpuMillis } = await measured(loop.run)
      const counts = await loop.counts()
      return { counts, wallMillis, cpuMillis }
    } finally {
      await loop.close()
    }
  })

/** PostgreSQL as the tests find it (`BROKER_TEST_PG_URL`), or why it cannot be used. */
const postgres = (): Effect.Effect<{ readonly url: string } | { readonly skipped: string }> =>
  Effect.promise(async () => {
    const url = process.env.BROKER_TEST_PG_URL
    const enable = "set BROKER_TEST_PG_URL=postgres://user@127.0.0.1:port/database (its sync tables are dropped), " +
      "or start a throwaway cluster first: source .ci/postgres && pg_start"
    if (url === undefined || url === "") return { skipped: `skipped: no PostgreSQL (${enable})` }
    const pg = new Pg.Client({ connectionString: url })
    try {
      await pg.connect()
      await pg.end()
      return { url }
    } catch (e) {
      return { skipped: `skipped: no PostgreSQL at BROKER_TEST_PG_URL (${(e as Error).message}; ${enable})` }
    }
  })

const packagesDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../..")
const cliDir = Path.join(packagesDir, "cli")

/**
 * Resolves the workspace's packages to their compiled `dist/` files, as their published `exports`
 * do: `@broker-history/<package>` to `dist/index.js`, `@broker-history/<package>/<Module>` to
 * `dist/<Module>.js` (in the workspace their exports name the TypeScript sources).
 */
const distRoot = JSON.stringify(pathToFileURL(packagesDir).href)
const distResolveHook = `export async function resolve(specifier, context, next) {
  const m = /^@broker-history\\/(domain|client|server|cli)(?:\\/([A-Za-z]+))?$/.exec(specifier)
  if (m === null) return next(specifier, context)
  return { url: ${distRoot} + "/" + m[1] + "/dist/" + (m[2] ?? "index") + ".js", shortCircuit: true }
}`
const distPreload = `import { register } from "node:module"; register(${
  JSON.stringify(`data:text/javascript,${encodeURIComponent(distResolveHook)}`)
})`

/**
 * How the CLI is started: the compiled `dist/main.js` (the package's `build` script, as a release
 * builds it) with the workspace's packages resolved to their `dist/` as when installed; or, when the
 * build fails, `bin/broker-history.mjs` (TypeScript sources through tsx), with the reason.
 */
const cliCommand = Effect.sync((): { readonly args: ReadonlyArray<string>; readonly runs: string } => {
  const tsc = Path.resolve(packagesDir, "../node_modules/typescript/bin/tsc")
  const build = ChildProcess.spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], {
    cwd: cliDir,
    encoding: "utf8",
    timeout: 300_000
  })
  if (build.status === 0 && Fs.existsSync(Path.join(cliDir, "dist/main.js"))) {
    return {
      args: ["--import", `data:text/javascript,${encodeURIComponent(distPreload)}`, Path.join(cliDir, "dist/main.js")],
      runs: "dist/main.js (compiled)"
    }
  }
  const why = (build.stdout + build.stderr).trim().split("\n")[0] ?? `exit ${build.status}`
  return {
    args: [Path.join(cliDir, "bin/broker-history.mjs")],
    runs: `bin/broker-history.mjs (sources through tsx: the build failed: ${why})`
  }
})

/**
 * `broker-history sync` in its own process, as a user runs it: the demo key, the default budget (no
 * BROKER_RATE_LIMIT), `--sub-accounts` naming every sub-account, into a new SQLite file.
 */
const syncCommand = (cli: ReadonlyArray<string>, baseUrl: string, db: string, subAccounts: number) =>
  Effect.promise(() => {
    const env: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !k.startsWith("BROKER_")) env[k] = v
    }
    Object.assign(env, {
      BROKER_BASE_URL: baseUrl,
      BROKER_API_KEY: ApiKeys.demo.apiKey,
      BROKER_SECRET_KEY: ApiKeys.demo.secretKey,
      BROKER_PROXY: "none"
    })
    const args = [...cli, "sync", "--db", db, "--sub-accounts", Accounts.subAccountNames(subAccounts).join(",")]
    const startedAt = Date.now()
    const started = performance.now()
    return new Promise<
      { code: number | null; stdout: string; stderr: string; wallMillis: number; startedAt: number; endedAt: number }
    >((resolve) => {
      const child = ChildProcess.spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
      const timer = setTimeout(() => child.kill("SIGKILL"), 600_000)
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr, wallMillis: performance.now() - started, startedAt, endedAt: Date.now() })
      })
    })
  })

const atDefaultBudget = (dir: string, log: (line: string) => void) =>
  Effect.gen(function*() {
    // The demo's data: the service's defaults (seed 42, 100,000 transfers, 20,000 deposits, 40 sub-accounts).
    // The service logs a line per answered request: when the command's requests start and end.
    const answered: Array<number> = []
    const service = yield* ServiceProcess.spawn(["--log"], (line) => {
      const request = /^(\S+) INFO GET \/api\/v3\/broker\//.exec(line)
      if (request !== null) answered.push(Date.parse(request[1]!))
    })
    const budget = (yield* BrokerConfig.BrokerConfig.pipe(
      Effect.provide(BrokerConfig.layer({
        baseUrl: service.baseUrl,
        apiKey: Redacted.make(ApiKeys.demo.apiKey),
        secretKey: Redacted.make(ApiKeys.demo.secretKey)
      }))
    )).rateLimit
    const perSecond = budget.limit / (Duration.toMillis(budget.interval) / 1000)
    const cli = yield* cliCommand
    const run = yield* syncCommand(cli.args, service.baseUrl, Path.join(dir, "demo.db"), 40)
    const summary =
      /applied (\d+) transfer and (\d+) deposit records .*\((\d+) requests, (\d+) retr(?:y|ies), ([\d.]+) s\)/.exec(
        run.stdout
      )
    if (run.code !== 0 || summary === null) {
      return yield* Effect.fail(
        new Error(`broker-history sync exited ${run.code}: ${run.stderr.trim() || run.stdout.trim()}`)
      )
    }
    const requests = Number(summary[3])
    const boundMillis = (requests / perSecond) * 1000
    const result: BudgetRun = {
      budget: perSecond,
      requests,
      retries: Number(summary[4]),
      rows: Number(summary[1]) + Number(summary[2]),
      wallMillis: run.wallMillis,
      commandMillis: Number(summary[5]) * 1000,
      boundMillis,
      overBound: run.wallMillis / boundMillis,
      commandOverBound: (Number(summary[5]) * 1000) / boundMillis,
      exitCode: run.code,
      runs: cli.runs,
      firstRequestMillis: answered.length === 0 ? Number.NaN : answered[0]! - run.startedAt,
      requestsMillis: answered.length === 0 ? Number.NaN : answered[answered.length - 1]! - answered[0]!,
      exitMillis: answered.length === 0 ? Number.NaN : run.endedAt - answered[answered.length - 1]!
    }
    log(
      `sync at the default budget (${perSecond}/s, demo's data): ${requests} requests, ${result.retries} retries, ${result.rows} rows in ${
        (run.wallMillis / 1000).toFixed(1)
      } s from start to exit (command's own ${summary[5]} s); bound ${(boundMillis / 1000).toFixed(1)} s: ${
        result.overBound.toFixed(3)
      }x (${result.commandOverBound.toFixed(3)}x); ${cli.runs}; first request answered ${
        (result.firstRequestMillis / 1000).toFixed(2)
      } s after the start, the last ${(result.requestsMillis / 1000).toFixed(2)} s after the first, exit ${
        (result.exitMillis / 1000).toFixed(2)
      } s after the last`
    )
    return result
  }).pipe(Effect.scoped)

const summarise = (samples: ReadonlyArray<Sample>): ReadonlyArray<Summary> => {
  const keys = [...new Set(samples.map((s) => `${s.target}:${s.contender}`))]
  return keys.map((k) => {
    const mine = samples.filter((s) => `${s.target}:${s.contender}` === k)
    const { target, contender } = mine[0]!
    const baseline = target === "none" ? "sqlite" : target
    const ratios = mine.map((s) => {
      const raw = samples.find((r) => r.round === s.round && r.target === baseline && r.contender === "raw")
      return raw === undefined ? Number.NaN : s.rowsPerSecond / raw.rowsPerSecond
    })
    return {
      target,
      contender,
      rowsPerSecond: Measure.median(mine.map((s) => s.rowsPerSecond)),
      cpuMicrosPerRow: Measure.median(mine.map((s) => (s.cpuMillis * 1000) / s.rows)),
      serviceCpuMicrosPerRow: Measure.median(mine.map((s) => (s.serviceCpuMillis * 1000) / s.rows)),
      wallMillis: Measure.median(mine.map((s) => s.wallMillis)),
      ratio: Measure.median(ratios),
      ratioRange: [Math.min(...ratios), Math.max(...ratios)] as const,
      exact: mine.every((s) => s.exact)
    }
  })
}

/**
 * Starts the seeded service in a child process, reads the plan once (warm-up; its records are the raw
 * loops' input), then runs the rounds, each contender in turn (the first rotating): the sync and the
 * raw loop into SQLite and into PostgreSQL (when `BROKER_TEST_PG_URL` reaches one), and the fetch
 * alone. With `defaultBudget`, then syncs the demo's data through the CLI at the default budget.
 *
 * @example
 * import { SyncThroughput } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const result = Effect.runPromise(SyncThroughput.run({ seed: 1, transfers: 500, deposits: 100, subAccounts: 2, rounds: 1, batchSize: 500, concurrency: 4, defaultBudget: false }))
 */
export const run = (options: Options, log: (line: string) => void = () => {}): Effect.Effect<Result, unknown> =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-bench-sync-"))),
      (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
    )
    const pg = yield* postgres()
    const pgUrl = "url" in pg ? pg.url : undefined
    if ("skipped" in pg) log(`sync into PostgreSQL ${pg.skipped}`)
    const service = yield* ServiceProcess.spawn([
      "--no-log",
      "--seed",
      String(options.seed),
      "--transfers",
      String(options.transfers),
      "--deposits",
      String(options.deposits),
      "--sub-accounts",
      String(options.subAccounts),
      "--rate-limit",
      String(unboundedBudget),
      "--rate-window-ms",
      "1000"
    ])
    const p = plan(options)
    const warm = yield* fetchAll(service.baseUrl, p, options, true)
    const expected = { ...warm.counts, streams: p.transferStreams.length + 1 }
    const total = expected.transfers + expected.deposits
    const exactCounts = (c: { transfers: number; deposits: number }) =>
      c.transfers === expected.transfers && c.deposits === expected.deposits
    log(
      `sync plan: ${expected.streams} streams, ${expected.transfers} transfers + ${expected.deposits} deposits, ${warm.requests} requests`
    )
    // One sync before the rounds, so that every contender runs warm.
    yield* syncInto(yield* freshDatabase("sqlite", dir, pgUrl, "warm"), service.baseUrl, p, options)

    const targets: ReadonlyArray<"sqlite" | "pg"> = pgUrl === undefined ? ["sqlite"] : ["sqlite", "pg"]
    const jobs = [
      ...targets.flatMap((t) => [
        { target: t, contender: "sync" as const },
        { target: t, contender: "store" as const },
        { target: t, contender: "raw" as const }
      ]),
      { target: "none" as const, contender: "fetch" as const }
    ]
    const samples: Array<Sample> = []
    for (let round = 0; round < options.rounds; round++) {
      for (let j = 0; j < jobs.length; j++) {
        const job = jobs[(j + round) % jobs.length]!
        const serviceCpu = service.cpuMillis()
        const sample = yield* Effect.gen(function*() {
          if (job.contender === "fetch") {
            const f = yield* fetchAll(service.baseUrl, p, options, false)
            return { rows: f.counts.transfers + f.counts.deposits, exact: exactCounts(f.counts), ...f }
          }
          const db = yield* freshDatabase(job.target, dir, pgUrl, `${job.contender}-${round}`)
          if (job.contender === "sync") {
            const s = yield* syncInto(db, service.baseUrl, p, options)
            return { ...s, exact: exactCounts(s.counts) && s.rows === total }
          }
          if (job.contender === "store") {
            const s = yield* storeInto(db, warm.batches, p.since)
            return { ...s, rows: total, requests: 0, exact: exactCounts(s.counts) }
          }
          yield* migrate(db)
          const r = yield* rawInto(job.target, db, warm.batches)
          return { ...r, rows: total, requests: 0, exact: exactCounts(r.counts) }
        })
        const done: Sample = {
          round,
          target: job.target,
          contender: job.contender,
          rows: sample.rows,
          requests: sample.requests,
          wallMillis: sample.wallMillis,
          cpuMillis: sample.cpuMillis,
          serviceCpuMillis: service.cpuMillis() - serviceCpu,
          rowsPerSecond: sample.rows / (sample.wallMillis / 1000),
          exact: sample.exact
        }
        samples.push(done)
        log(
          `sync round ${round + 1}: ${job.contender} (${job.target}) ${done.rows} rows in ${
            done.wallMillis.toFixed(0)
          } ms = ${Measure.fixed(done.rowsPerSecond, 0)} rows/s, CPU ${done.cpuMillis.toFixed(0)} ms (service ${
            done.serviceCpuMillis.toFixed(0)
          } ms)${done.exact ? "" : ", NOT EXACT"}`
        )
      }
    }
    const budget = options.defaultBudget ? yield* atDefaultBudget(dir, log) : undefined
    return {
      options,
      expected,
      samples,
      summaries: summarise(samples),
      postgresSkipped: "skipped" in pg ? pg.skipped : undefined,
      atDefaultBudget: budget
    }
  }).pipe(Effect.scoped)

/**
 * The part's rows of the bench table: the fetch alone, then per database the sync, the store alone and
 * the raw loop (PostgreSQL's three rows say why it was skipped), then the run at the default budget when there is one.
 *
 * @example
 * import { SyncThroughput } from "@broker-history/bench"
 * declare const result: SyncThroughput.Result
 * const rows = SyncThroughput.rows(result)
 */
export const rows = (result: Result): Array<[string, string, string]> => {
  const out: Array<[string, string, string]> = []
  const find = (target: Target, contender: Sample["contender"]) =>
    result.summaries.find((s) => s.target === target && s.contender === contender)
  const figures = (s: Summary) =>
    `${Measure.fixed(s.rowsPerSecond / 1000, 1)}k rows/s, ${Measure.fixed(s.cpuMicrosPerRow, 1)} CPU µs/row${
      s.contender === "fetch" || s.contender === "sync"
        ? ` (+ service ${Measure.fixed(s.serviceCpuMicrosPerRow, 1)})`
        : ""
    }, ${(s.wallMillis / 1000).toFixed(2)} s${s.exact ? "" : ", NOT EXACT"}`
  const ratio = (s: Summary, of: string) =>
    `${Measure.fixed(s.ratio, 2)}x ${of} (rounds ${s.ratioRange.map((r) => Measure.fixed(r, 2)).join("–")})`
  const e = result.expected
  const fetch = find("none", "fetch")
  if (fetch !== undefined) {
    out.push([
      `sync: fetch only (${e.streams} streams, ${e.transfers + e.deposits} rows)`,
      figures(fetch),
      ratio(fetch, "raw SQLite")
    ])
  }
  for (const [target, name, driver] of [["sqlite", "SQLite", "better-sqlite3"], ["pg", "PostgreSQL", "pg"]] as const) {
    const sync = find(target, "sync")
    const store = find(target, "store")
    const raw = find(target, "raw")
    const labels = [
      `sync → ${name} (SyncRun in-process, fetch + insert)`,
      `sync: the store alone → ${name} (SyncStore applies, rows pre-fetched)`,
      `sync: raw ${driver} upsert loop → ${name} (rows pre-fetched)`
    ]
    if (sync === undefined || store === undefined || raw === undefined) {
      for (const label of labels) out.push([label, result.postgresSkipped ?? "not measured", ""])
      continue
    }
    out.push([labels[0]!, figures(sync), `${ratio(sync, "raw")}; target ≥ 0.8x`])
    out.push([labels[1]!, figures(store), ratio(store, "raw")])
    out.push([labels[2]!, figures(raw), "1.00x"])
  }
  const b = result.atDefaultBudget
  if (b !== undefined) {
    out.push([
      `sync: demo's data, \`broker-history sync\` (${
        b.runs.startsWith("dist") ? "compiled" : "sources through tsx"
      }) at the default budget (${b.budget}/s)`,
      `${b.requests} requests, ${b.retries} retries, ${b.rows} rows in ${(b.wallMillis / 1000).toFixed(1)} s (bound ${
        (b.boundMillis / 1000).toFixed(1)
      } s)`,
      `${b.overBound.toFixed(3)}x bound (command alone ${b.commandOverBound.toFixed(3)}x); target ≤ 1.1x`
    ])
  }
  return out
}
