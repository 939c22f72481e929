/**
 * The reference service as a program in a child process (its own event loop, as the real service
 * has), started with the given flags on 127.0.0.1 port 0; killed when its scope closes.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Readline from "node:readline"
import { fileURLToPath } from "node:url"

const serverMain = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../../server/src/main.ts")

/**
 * A running service: its base URL and process.
 *
 * @example
 * import type { ServiceProcess } from "@broker-history/bench"
 * const url = (s: ServiceProcess.Running) => s.baseUrl
 */
export interface Running {
  readonly baseUrl: string
  readonly child: ChildProcess.ChildProcess
  /** The service's CPU time so far (user + system, ms), from `/proc` (Linux); `NaN` where it cannot be read. */
  readonly cpuMillis: () => number
}

/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`; 100 on Linux). */
const ticksPerSecond = 100

/** A process's user + system CPU time (ms) from `/proc/<pid>/stat`, or `NaN`. */
const processCpuMillis = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN
  try {
    // The fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const stat = Fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}

/**
 * Starts `server/src/main.ts --port 0 …flags` and succeeds with its base URL once it listens (at
 * most 60 s). Its error and fatal log lines are passed on to this process's stderr; `onLine` sees
 * every line it logs (one per request unless `--no-log`).
 *
 * @example
 * import { ServiceProcess } from "@broker-history/bench"
 * import { Effect } from "effect"
 * const baseUrl = Effect.map(ServiceProcess.spawn(["--transfers", "1000", "--no-log"]), (s) => s.baseUrl)
 */
export const spawn = (
  flags: ReadonlyArray<string>,
  onLine: (line: string) => void = () => {}
): Effect.Effect<Running, Error, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<Running, Error>((resume) => {
      const child = ChildProcess.spawn(process.execPath, ["--import", "tsx", serverMain, "--port", "0", ...flags], {
        cwd: Path.dirname(serverMain),
        stdio: ["ignore", "ignore", "pipe"]
      })
      const timer = setTimeout(() => resume(Effect.fail(new Error("the reference service did not start"))), 60_000)
      child.once("exit", (code) => resume(Effect.fail(new Error(`the reference service exited (${code})`))))
      Readline.createInterface({ input: child.stderr! }).on("line", (line) => {
        onLine(line)
        if (/ (ERROR|FATAL) /.test(line)) process.stderr.write(line + "\n")
        const match = /listening on (http:\/\/[^\s]+)/.exec(line)
        if (match !== null) {
          clearTimeout(timer)
          resume(Effect.succeed({ baseUrl: match[1]!, child, cpuMillis: () => processCpuMillis(child.pid) }))
        }
      })
      return Effect.sync(() => {
        clearTimeout(timer)
        child.kill("SIGKILL")
      })
    }),
    ({ child }) =>
      Effect.async<void>((resume) => {
        if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
        child.once("exit", () => resume(Effect.void))
        child.kill("SIGKILL")
      })
  )
