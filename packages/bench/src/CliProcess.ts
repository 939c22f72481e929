/**
 * The CLI in a child process of its own, as a user runs it: the demo key and the service's address
 * in its environment (no other `BROKER_*` variable of this process leaks in), stdout and stderr kept.
 *
 * @since 0.2.0
 */
import { ApiKeys } from "@broker-history/server"
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"

/**
 * How a run ended: its exit code (`null` when killed), its output, its wall time and when it started
 * and ended (real ms).
 *
 * @example
 * import type * as CliProcess from "@broker-history/bench/CliProcess"
 * const ok = (run: CliProcess.Run) => run.code === 0
 */
export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly wallMillis: number
  readonly startedAt: number
  readonly endedAt: number
}

/**
 * Runs `node <cli…> <args…>` against the service at `baseUrl` with the demo key (`BROKER_PROXY=none`),
 * killed after `timeoutMillis` (default 10 minutes).
 *
 * @example
 * import * as CliProcess from "@broker-history/bench/CliProcess"
 * const help = CliProcess.run(["bin/broker-history.mjs"], "http://127.0.0.1:1", ["--help"])
 */
export const run = (
  cli: ReadonlyArray<string>,
  baseUrl: string,
  args: ReadonlyArray<string>,
  timeoutMillis = 600_000
): Effect.Effect<Run> =>
  Effect.async<Run>((resume) => {
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
    const startedAt = Date.now()
    const started = performance.now()
    const child = ChildProcess.spawn(process.execPath, [...cli, ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMillis)
    child.on("close", (code) => {
      clearTimeout(timer)
      resume(
        Effect.succeed({
          code,
          stdout,
          stderr,
          wallMillis: performance.now() - started,
          startedAt,
          endedAt: Date.now()
        })
      )
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      child.kill("SIGKILL")
    })
  })
