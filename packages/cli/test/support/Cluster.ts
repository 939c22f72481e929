// A throwaway PostgreSQL cluster of one test's own, which the test may stop and start (the shared
// cluster of BROKER_TEST_PG_URL is never touched): initdb in a temporary directory with the binaries
// under /usr/lib/postgresql/*/bin, as .ci/postgres does (as root, through `runuser -u postgres --`),
// trust authentication, listening on 127.0.0.1 only, on a free port. Every command is bounded in time.
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"

/** The newest PostgreSQL binaries installed, or `undefined`. */
export const binaries = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!Fs.existsSync(root)) return undefined
  const versions = Fs.readdirSync(root)
    .filter((v) => Fs.existsSync(Path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(a) - Number(b))
  return versions.length === 0 ? undefined : Path.join(root, versions[versions.length - 1], "bin")
}

/** A port free on 127.0.0.1 now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = Net.createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as Net.AddressInfo
      server.close(() => resolve(port))
    })
  })

const run = (command: string, args: ReadonlyArray<string>, timeoutMs: number) =>
  new Promise<void>((resolve, reject) => {
    ChildProcess.execFile(command, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error === null) resolve()
      else reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}`))
    })
  })

export interface Cluster {
  /** `postgres://postgres@127.0.0.1:PORT/broker_history_outage`. */
  readonly url: string
  /** Stops the server (fast shutdown: sessions are terminated, 57P01). */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port and data. */
  readonly start: () => Promise<void>
  /** Stops it and removes its data. */
  readonly destroy: () => Promise<void>
}

/** Creates and starts a cluster with one database. */
export const create = async (bin: string): Promise<Cluster> => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-history-outage-pg-"))
  const data = Path.join(dir, "data")
  Fs.mkdirSync(data)
  const port = await freePort()
  // initdb refuses to run as root: the cluster is then the postgres user's.
  const asRoot = Os.userInfo().uid === 0
  if (asRoot) {
    const { gid, uid } = postgresIds()
    Fs.chownSync(dir, uid, gid)
    Fs.chownSync(data, uid, gid)
  }
  const as = (command: string, args: ReadonlyArray<string>, timeoutMs: number) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", Path.join(bin, command), ...args], timeoutMs) : run(
      Path.join(bin, command),
      args,
      timeoutMs
    )
  await as("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"], 60_000)
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${data} -c fsync=off`
  const start = () =>
    as("pg_ctl", ["-D", data, "-l", Path.join(data, "server.log"), "-w", "-t", "30", "-o", options, "start"], 40_000)
  const stop = () => as("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"], 40_000)
  await start()
  await as("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "broker_history_outage"], 30_000)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/broker_history_outage`,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined)
      Fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** The postgres user's ids (the Debian packages create it). */
const postgresIds = (): { uid: number; gid: number } => {
  const line = Fs.readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("postgres:"))
  if (line === undefined) throw new Error("running as root, but there is no postgres user to run the cluster as")
  const [, , uid, gid] = line.split(":")
  return { uid: Number(uid), gid: Number(gid) }
}
