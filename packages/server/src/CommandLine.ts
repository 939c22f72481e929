/**
 * The server program's command line, defined once with `@effect/cli`: every flag with its
 * `BROKER_SERVER_*` environment variable, its default and its check, read into
 * `ReferenceServer.Options`. The server program (`main.ts`) and `broker-history serve` both run
 * `options`, so they accept the same flags and variables with the same defaults, rules and
 * messages, and their `--help` lists them from the same descriptions.
 *
 * This module stays light (it loads neither the service nor SQLite): the CLI imports it to build
 * `serve` and loads the service only when `serve` runs.
 *
 * @since 0.1.0
 */
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Net from "node:net"
import * as ApiKeys from "./ApiKeys.js"
import * as ServerSettings from "./internal/ServerSettings.js"
import * as Setting from "./internal/Setting.js"
import type * as ReferenceServer from "./ReferenceServer.js"

/**
 * True when `host` is this machine's loopback only: `localhost`, `127.0.0.0/8`, `::1` (or an
 * IPv4-mapped `127.x`); anything else, `0.0.0.0` and `::` included, may be reachable from elsewhere.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 *
 * assert.strictEqual(CommandLine.isLoopback("127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("[::1]"), true)
 * assert.strictEqual(CommandLine.isLoopback("::ffff:127.0.0.1"), true)
 * assert.strictEqual(CommandLine.isLoopback("0.0.0.0"), false)
 * assert.strictEqual(CommandLine.isLoopback("::"), false)
 * ```
 *
 * @since 0.1.0
 * @category guards
 */
export const isLoopback = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  if (bare.toLowerCase() === "localhost") return true
  if (Net.isIPv4(bare)) return bare.startsWith("127.")
  if (!Net.isIPv6(bare)) return false
  // The URL parser writes an IPv6 address in its one canonical form.
  const canonical = new URL(`http://[${bare}]/`).hostname
  return canonical === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical)
}

/**
 * The server program's options: every flag with its `BROKER_SERVER_*` variable (read when the flag is
 * absent; empty counts as absent) and its default, checked (ports, integers, probabilities from 0 to
 * 1, keys `apiKey:secretKey:PERMS`), read into `ReferenceServer.Options`. A `--host` other than
 * loopback is refused unless a key is given (`--key` or `BROKER_SERVER_KEYS`): without one, the
 * service would accept the demo key, whose secret is published. A problem is a usage error that names
 * the flag or the variable given and says what the value must be; a key's text is never repeated.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { CliConfig, HelpDoc, Options } from "@effect/cli"
 * import { NodeContext } from "@effect/platform-node"
 * import { ConfigProvider, Effect, Either } from "effect"
 *
 * // The options as `Command.run` reads them: flags, then the variables of the configuration provider.
 * const read = (args: ReadonlyArray<string>, env: Record<string, string>) =>
 *   Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
 *     Effect.map(([, , options]) => options),
 *     Effect.mapError((error) => HelpDoc.toAnsiText(error.error).trim()),
 *     Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
 *     Effect.provide(NodeContext.layer),
 *     Effect.either,
 *     Effect.runSync
 *   )
 *
 * const options = Either.getOrThrow(
 *   read(["--port", "0", "--fault-drop", "0.1"], { BROKER_SERVER_PORT: "9000", BROKER_SERVER_SEED: "7" })
 * )
 * assert.strictEqual(options.port, 0) // the flag wins over BROKER_SERVER_PORT
 * assert.strictEqual(options.seed?.seed, 7) // the variable stands in for --seed
 * assert.strictEqual(options.faults?.drop, 0.1)
 * assert.strictEqual(options.logRequests, true)
 *
 * assert.deepStrictEqual(read(["--port", "99999"], {}), Either.left("--port must be at most 65535, got 99999"))
 * assert.deepStrictEqual(
 *   read([], { BROKER_SERVER_FAULT_HANG: "2" }),
 *   Either.left(`BROKER_SERVER_FAULT_HANG must be a probability from 0 to 1, got "2"`)
 * )
 * // Off loopback, the published demo key is refused: a key must be chosen.
 * assert.ok(Either.isLeft(read(["--host", "0.0.0.0"], {})))
 * assert.ok(Either.isRight(read(["--host", "0.0.0.0", "--key", "k1:s1:SPOT_DEPOSIT_READ"], {})))
 * ```
 *
 * @since 0.1.0
 * @category options
 */
export const options: Options.Options<ReferenceServer.Options> = ServerSettings.settings.pipe(
  Options.mapEffect((s) =>
    Option.isNone(s.keys) && !isLoopback(s.host.value)
      ? Effect.fail(Setting.usage(ServerSettings.demoKeyOffLoopback(s.host.from, s.host.value)))
      : Effect.succeed(ServerSettings.toServerOptions(s))
  )
)

/**
 * What the server program does, for its `--help` (and that of `broker-history serve`): the service,
 * the demo key it accepts unless `--key` is given, and why a `--host` off loopback needs a key.
 *
 * @example
 * ```ts
 * import { ApiKeys, CommandLine } from "@broker-history/server"
 *
 * assert.ok(CommandLine.description.includes(`apiKey ${ApiKeys.demo.apiKey}`))
 * assert.ok(CommandLine.description.includes("BROKER_SERVER_"))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const description: string =
  "The reference service: both history endpoints over SQLite, with API keys, a rate limit and fault " +
  "injection, until SIGINT/SIGTERM. Signed requests use the public demo key unless --key is given: " +
  `apiKey ${ApiKeys.demo.apiKey}, secretKey ${ApiKeys.demo.secretKey}. That secret is published, so a ` +
  "--host other than loopback (127.0.0.1, localhost, ::1) is refused unless a key is given (--key or " +
  "BROKER_SERVER_KEYS). Every flag has a BROKER_SERVER_* variable, read when the flag is absent."

/**
 * Runs `self` with the command line parser's own messages (`@effect/cli` writes a usage error
 * through `Console.error`) rendered by `render`, one call per message, its blank lines dropped: how
 * `main.ts` and `broker-history` word their usage errors.
 *
 * @example
 * ```ts
 * import { CommandLine } from "@broker-history/server"
 * import { Console, Effect } from "effect"
 *
 * const written: Array<string> = []
 * const stderrWrite = process.stderr.write
 * process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write
 * try {
 *   Effect.runSync(Console.error("Expected a port\n\nagain").pipe(CommandLine.renderUsageErrors((lines) => lines.join("|"))))
 * } finally {
 *   process.stderr.write = stderrWrite
 * }
 * assert.deepStrictEqual(written, ["Expected a port|again\n"])
 * ```
 *
 * @since 0.1.0
 * @category execution
 */
export const renderUsageErrors =
  (render: (lines: ReadonlyArray<string>) => string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.consoleWith((current) =>
      Effect.withConsole(self, {
        ...current,
        error: (...args: ReadonlyArray<unknown>) =>
          Effect.sync(() => {
            const lines = args.map(String).join(" ").split("\n").filter((line) => line.trim() !== "")
            process.stderr.write(render(lines) + "\n")
          })
      })
    )
