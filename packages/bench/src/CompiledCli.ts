/**
 * The CLI as a release installs it: the package compiled by its own `build` script into `dist/`, and
 * started with a resolve hook that maps the workspace's packages to their compiled `dist/` files as
 * their published `exports` do (in the workspace their exports name the TypeScript sources). When the
 * build fails, the sources through tsx, with the reason, so that a run still says what it measured.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const packagesDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../..")
const cliDir = Path.join(packagesDir, "cli")

/**
 * A module, for `node --import`, that registers a resolve hook mapping `@broker-history/<package>` to
 * `<packages>/<package>/dist/index.js` and `@broker-history/<package>/<Module>` to
 * `<packages>/<package>/dist/<Module>.js`; every other specifier resolves as usual.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * const args = ["--import", `data:text/javascript,${encodeURIComponent(CompiledCli.distPreload("/repo/packages"))}`, "main.js"]
 */
export const distPreload = (packages: string): string => {
  const root = JSON.stringify(pathToFileURL(packages).href)
  const hook = `export async function resolve(specifier, context, next) {
  const m = /^@broker-history\\/(domain|client|server|cli)(?:\\/([A-Za-z]+))?$/.exec(specifier)
  if (m === null) return next(specifier, context)
  return { url: ${root} + "/" + m[1] + "/dist/" + (m[2] ?? "index") + ".js", shortCircuit: true }
}`
  return `import { register } from "node:module"; register(${
    JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)
  })`
}

/**
 * How the CLI is started: the compiled `dist/main.js` (the package's `build` script, as a release
 * builds it) with the workspace's packages resolved to their `dist/` as when installed; or, when the
 * build fails, `bin/broker-history.mjs` (TypeScript sources through tsx), with the reason. `args` go
 * after the Node executable; `runs` says which of the two it is.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * import { Effect } from "effect"
 * const compiled = Effect.map(CompiledCli.command, (cli) => cli.runs.startsWith("dist"))
 */
export const command = Effect.sync((): { readonly args: ReadonlyArray<string>; readonly runs: string } => {
  const tsc = Path.resolve(packagesDir, "../node_modules/typescript/bin/tsc")
  const build = ChildProcess.spawnSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], {
    cwd: cliDir,
    encoding: "utf8",
    timeout: 300_000
  })
  if (build.status === 0 && Fs.existsSync(Path.join(cliDir, "dist/main.js"))) {
    return {
      args: [
        "--import",
        `data:text/javascript,${encodeURIComponent(distPreload(packagesDir))}`,
        Path.join(cliDir, "dist/main.js")
      ],
      runs: "dist/main.js (compiled)"
    }
  }
  const why = (build.stdout + build.stderr).trim().split("\n")[0] ?? `exit ${build.status}`
  return {
    args: [Path.join(cliDir, "bin/broker-history.mjs")],
    runs: `bin/broker-history.mjs (sources through tsx: the build failed: ${why})`
  }
})
