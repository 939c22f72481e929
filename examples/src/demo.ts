// The main job: start the bundled reference service on 127.0.0.1 with a seeded two-year history,
// read it back through @broker-history/client's full-history streams exactly as a user would, and
// print what came back. No credentials, no network. Run: npx pnpm@10.34.9 demo
// (the same program as `broker-history demo`; it lives in packages/cli/src/Demo.ts).
//
// Environment (all optional): DEMO_TRANSFERS (default 100000), DEMO_DEPOSITS (20000), DEMO_SEED (42),
// DEMO_CONCURRENCY (streams read at once, default 8).
import { Demo } from "@broker-history/cli"
import { Console, Effect } from "effect"

Demo.config.pipe(
  Effect.flatMap(Demo.run),
  Effect.tapErrorCause((cause) => Console.error("demo failed:", cause)),
  Effect.runPromise
).catch(() => process.exit(1))
