// The main job: start the bundled reference service on 127.0.0.1 with a seeded two-year history,
// read it back through @broker-history/client's full-history streams exactly as a user would, and
// print what came back. No credentials, no network. Run: npx pnpm@10.34.9 demo
// (`broker-history demo`, run in-process through the command line's `Cli.run`).
//
// Environment (all optional): DEMO_TRANSFERS (default 100000), DEMO_DEPOSITS (20000), DEMO_SEED (42),
// DEMO_CONCURRENCY (streams read at once, default 8); the flags of `broker-history demo --help` win.
import { Cli } from "@broker-history/cli"
import { NodeContext } from "@effect/platform-node"
import { Effect } from "effect"

// A failure is already reported on stderr; the process ends with the command's exit code (a flag
// the command line refuses: 2, usage).
Cli.run(["node", "broker-history", "demo", ...process.argv.slice(2)]).pipe(
  Effect.catchAll((failure) =>
    Effect.sync(() => {
      process.exitCode = failure._tag === "CommandFailure" ? failure.code : 2
    })
  ),
  Effect.provide(NodeContext.layer),
  Effect.runPromise
).catch(() => process.exit(1))
