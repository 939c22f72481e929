import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as Path from "node:path"
import { ApiKeys } from "../src/index.js"
import { signedGet, transfersPath } from "./support/Requests.js"

const packageDir = Path.join(import.meta.dirname, "..")

/** Starts `src/main.ts` through tsx; collects its output; resolves when `until` matches or it exits. */
const start = (args: ReadonlyArray<string>, until?: RegExp) =>
  Effect.acquireRelease(
    Effect.async<{ readonly output: () => string; readonly code: () => number | null; readonly stop: () => void }>(
      (resume) => {
        const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", ...args], {
          cwd: packageDir,
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        let code: number | null = null
        let resumed = false
        const handle = { output: () => output, code: () => code, stop: () => child.kill("SIGTERM") }
        const onData = (chunk: Buffer) => {
          output += chunk.toString("utf8")
          if (!resumed && until !== undefined && until.test(output)) {
            resumed = true
            resume(Effect.succeed(handle))
          }
        }
        child.stdout.on("data", onData)
        child.stderr.on("data", onData)
        child.on("exit", (exitCode) => {
          code = exitCode
          if (!resumed) {
            resumed = true
            resume(Effect.succeed(handle))
          }
        })
      }
    ),
    (handle) => Effect.sync(() => handle.stop())
  )

describe("main.ts", () => {
  it.scoped(
    "--help documents every flag, its environment variable and its default, and exits 0",
    () =>
      Effect.gen(function*() {
        const program = yield* start(["--help"])
        expect(program.code()).toBe(0)
        const help = program.output().replace(new RegExp(String.fromCharCode(27) + "\\[[0-9;]*m", "g"), "")
        expect(help).toContain(ApiKeys.demo.secretKey)
        const blocks = new Map(
          help.split(/\n(?=--)/).filter((b) => /^--[a-z]/.test(b)).map((b) => [/^--([a-z-]+)/.exec(b)![1], b])
        )
        for (
          const [flag, variable] of [
            ["host", "HOST"],
            ["port", "PORT"],
            ["database", "DATABASE"],
            ["seed", "SEED"],
            ["transfers", "TRANSFERS"],
            ["deposits", "DEPOSITS"],
            ["years", "YEARS"],
            ["sub-accounts", "SUB_ACCOUNTS"],
            ["staggered-sub-accounts", "STAGGERED_SUB_ACCOUNTS"],
            ["futures-account-type", "FUTURES_ACCOUNT_TYPE"],
            ["master-account", "MASTER_ACCOUNT"],
            ["key", "KEYS"],
            ["rate-limit", "RATE_LIMIT"],
            ["rate-window-ms", "RATE_WINDOW_MS"],
            ["rate-limit-shape", "RATE_LIMIT_SHAPE"],
            ["max-window-transfers-ms", "MAX_WINDOW_TRANSFERS_MS"],
            ["max-window-deposits-ms", "MAX_WINDOW_DEPOSITS_MS"],
            ["fault-seed", "FAULT_SEED"],
            ["fault-server-error", "FAULT_SERVER_ERROR"],
            ["fault-rate-limited", "FAULT_RATE_LIMITED"],
            ["fault-retry-after", "FAULT_RETRY_AFTER"],
            ["fault-drop", "FAULT_DROP"],
            ["fault-hang", "FAULT_HANG"],
            ["fault-truncate", "FAULT_TRUNCATE"],
            ["fault-latency-ms", "FAULT_LATENCY_MS"],
            ["settle-pending-after-ms", "SETTLE_PENDING_AFTER_MS"],
            ["settle-failed-share", "SETTLE_FAILED_SHARE"],
            ["no-log", "LOG"],
            ["log", "LOG"]
          ]
        ) {
          expect(blocks.get(flag), flag).toMatch(new RegExp(`\\(env BROKER_SERVER_${variable}, default [^)]+\\)`))
        }
        expect(blocks.get("port")).toContain("(env BROKER_SERVER_PORT, default 8080)")
      }),
    30_000
  )

  it.scoped("a bad flag exits 2 with a message", () =>
    Effect.gen(function*() {
      const program = yield* start(["--port", "nope"])
      expect(program.code()).toBe(2)
      expect(program.output()).toMatch(/--port must be an integer/)
    }), 30_000)

  it.live(
    "serves on the port it prints and logs method, path, status and duration, never the query string",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const program = yield* start(["--port", "0", "--transfers", "300", "--deposits", "30"], /listening on (\S+)/)
        const baseUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(program.output())?.[1]
        expect(baseUrl).toBeDefined()
        const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"]] as const
        expect((yield* signedGet(baseUrl!, transfersPath, route, ApiKeys.demo)).status).toBe(200)
        const secret: ApiKeys.ApiKey = { ...ApiKeys.demo, secretKey: "wrong-secret-value" }
        expect((yield* signedGet(baseUrl!, transfersPath, route, secret)).status).toBe(401)
        while (!/universalTransfer 401/.test(program.output())) yield* Effect.sleep("20 millis")
        const log = program.output()
        expect(log).toMatch(/GET \/api\/v3\/broker\/sub-account\/universalTransfer 200 \d+ms/)
        expect(log).not.toMatch(/signature|timestamp=|\?|wrong-secret-value|45d0b3c26f2644f19bfb98b07741b2f5/)
        expect(log).toContain("300 transfers, 30 deposits")
      })),
    30_000
  )
})
