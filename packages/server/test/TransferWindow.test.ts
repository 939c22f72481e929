// A maximum transfer window of 30 days, configured on the command line (or its variable) as the
// exchange applies one: a longer window is refused with 33333 naming the maximum, the maximum itself
// is accepted, and a query without a start reads the last 30 days.
import { CliConfig, HelpDoc, Options } from "@effect/cli"
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { ApiKeys, CommandLine, ReferenceServer } from "../src/index.js"
import { json, signedGet, transfersPath } from "./support/Requests.js"
import { transferRow } from "./support/Rows.js"

const day = 86_400_000
const thirtyDays = 30 * day

/** `CommandLine.options` over `args` and `env`, as the server program reads them. */
const optionsOf = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Options.processCommandLine(CommandLine.options, args, CliConfig.defaultConfig).pipe(
    Effect.map(([, , options]) => options),
    Effect.mapError((error) => new Error(HelpDoc.toAnsiText(error.error))),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
    Effect.provide(NodeContext.layer)
  )

const route = [["fromAccountType", "SPOT"], ["toAccountType", "FUTURES"], ["toAccount", "sub@x"]] as const

describe("a 30-day transfer window from the command line", () => {
  it.effect("--max-window-transfers-ms and BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS read 30 days", () =>
    Effect.gen(function*() {
      expect((yield* optionsOf(["--max-window-transfers-ms", String(thirtyDays)])).maxWindow?.transfers).toBe(
        2_592_000_000
      )
      expect(
        (yield* optionsOf([], { BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS: "2592000000" })).maxWindow?.transfers
      ).toBe(thirtyDays)
      expect((yield* optionsOf([])).maxWindow?.transfers).toBeUndefined()
    }))

  it.live(
    "refuses 30 days and 1 ms with 33333 naming the maximum; 30 days, and no start at all, are read",
    () =>
      Effect.gen(function*() {
        const options = yield* optionsOf(
          ["--port", "0", "--transfers", "0", "--deposits", "0", "--no-log"],
          { BROKER_SERVER_MAX_WINDOW_TRANSFERS_MS: String(thirtyDays) }
        )
        const server = Context.get(yield* Layer.build(ReferenceServer.layer(options)), ReferenceServer.ReferenceServer)
        const now = Date.now()
        yield* server.store.insertTransfers([
          transferRow("1", now - 40 * day),
          transferRow("2", now - 29 * day),
          transferRow("3", now - 1_000)
        ])
        const window = (params: ReadonlyArray<readonly [string, string]>) =>
          signedGet(server.baseUrl, transfersPath, [...route, ...params], ApiKeys.demo)
        const tooLong = yield* window([["startTime", String(now - thirtyDays - 1)], ["endTime", String(now)]])
        expect([tooLong.status, json(tooLong)]).toEqual([400, {
          code: 33333,
          msg: "Param is error: endTime - startTime must not exceed 2592000000 ms (30d)"
        }])
        const exactly = yield* window([["startTime", String(now - thirtyDays)], ["endTime", String(now)]])
        expect((json(exactly) as ReadonlyArray<{ tranId: string }>).map((t) => t.tranId)).toEqual(["3", "2"])
        const noStart = yield* window([])
        expect((json(noStart) as ReadonlyArray<{ tranId: string }>).map((t) => t.tranId)).toEqual(["3", "2"])
      }).pipe(Effect.scoped),
    30_000
  )
})
