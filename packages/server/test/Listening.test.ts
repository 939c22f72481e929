// The listening line of `serveForever` names the keys the service accepts.
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Logger } from "effect"
import { ApiKeys, ReferenceServer } from "../src/index.js"

const listeningLine = (options: ReferenceServer.Options) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const capture = Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
    })
    const serving = yield* ReferenceServer.serveForever({ port: 0, ...options }).pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, capture)),
      Effect.fork
    )
    yield* Effect.sleep(Duration.millis(20)).pipe(
      Effect.repeat({ until: () => lines.some((line) => line.startsWith("listening on")), times: 500 })
    )
    yield* Fiber.interrupt(serving)
    return lines.find((line) => line.startsWith("listening on")) ?? ""
  })

describe("serveForever", () => {
  it.live("without keys, the line names the demo key, which the service accepts", () =>
    Effect.gen(function*() {
      expect(yield* listeningLine({})).toContain(`API keys: ${ApiKeys.demo.apiKey};`)
    }))

  it.live("with keys, the line names exactly those", () =>
    Effect.gen(function*() {
      const key = { apiKey: "mx0vglOTHER", secretKey: "s", permissions: ApiKeys.demo.permissions }
      expect(yield* listeningLine({ keys: [key] })).toContain("API keys: mx0vglOTHER;")
    }))
})
