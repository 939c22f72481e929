/**
 * The Effect 4 line as the client contenders load it: `@broker-history/client-effect4` and the
 * `effect` 4 that package resolves (the bench's own `effect` is 3). Effect 4 keeps every name and
 * call shape the contenders use (`ManagedRuntime.make`, `Layer.provide`, `Effect.gen`,
 * `Stream.runCount`, `Redacted.make`, the client's layers and calls), so one contender code runs on
 * both lines; the modules are handed to it typed as the Effect 3 line's.
 *
 * @since 0.2.0
 */
import type * as ClientModule from "@broker-history/client"
import type * as EffectModule from "effect"
import { createRequire } from "node:module"
import * as Path from "node:path"
import * as Against from "./Against.js"

/**
 * `@broker-history/client-effect4` and its `effect` 4, loaded in this process.
 *
 * @example
 * import { Effect4Line } from "@broker-history/bench"
 * const { BrokerHistory, ManagedRuntime } = await Effect4Line.load()
 */
export const load = async (): Promise<Against.Modules> => {
  const index = createRequire(Path.join(Against.packageDir, "package.json")).resolve("@broker-history/client-effect4")
  const [client, effect] = await Promise.all([import("@broker-history/client-effect4"), Against.importEffect(index)])
  return Against.modules(client as unknown as typeof ClientModule, effect as typeof EffectModule)
}
