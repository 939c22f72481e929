/**
 * A part's process of its own: one of the package's `src/*Main.ts` programs, given its job as JSON,
 * run with `--expose-gc` through tsx, talking back over IPC; with `profile`, it writes a CPU profile
 * into that directory (one per process thread). The packages it measures load compiled, as users
 * run them (`Built`): the part builds them before it forks.
 */
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"
import { packageDir } from "./Against.js"
import * as Built from "./Built.js"

/** Forks `src/<main>` with `job`. */
export const fork = (main: string, job: unknown, profile?: string | undefined): ChildProcess.ChildProcess =>
  ChildProcess.fork(Path.join(packageDir, "src", main), [JSON.stringify(job)], {
    cwd: packageDir,
    execArgv: [
      "--expose-gc",
      "--import",
      "tsx",
      "--import",
      Built.preload,
      ...(profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`])
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
