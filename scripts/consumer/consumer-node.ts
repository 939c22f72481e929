// Consumer check (b), Node-only packages: the public types of @broker-history/server and
// @broker-history/cli, type-checked (never run) with consumer.ts under tsconfig.nodenext.json.
import { Cli, SyncDatabase } from "@broker-history/cli"
import { ApiKeys, ReferenceServer } from "@broker-history/server"
import type { Layer } from "effect"

export const server: Layer.Layer<ReferenceServer.ReferenceServer, ReferenceServer.StartError> = ReferenceServer.layer({
  port: 0,
  seed: { seed: 7, transfers: 100, deposits: 10 }
})
export const demoKey: string = ApiKeys.demo.apiKey
export const commands = [Cli.command] as const
export const database: Layer.Layer<SyncDatabase.SyncDatabase, SyncDatabase.SyncSetupError> = SyncDatabase.layer(
  "history.db"
)
