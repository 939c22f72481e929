/**
 * The workspace's packages as a release builds them, for the processes that measure them: each
 * package's own `build` script (tsc writes `dist/`), and a module for `node --import` under which an
 * `@broker-history/*` import of a package that publishes loads the compiled file where the
 * workspace's manifests name the TypeScript source (`src/<path>.ts` → `dist/<path>.js`), as the
 * published manifests do. The import resolves as Node resolves it from the importing file, so a
 * prepared copy of another revision (`--against`) loads its own packages, and the bench's packages
 * load the bench's. Users run the compiled packages; the sources through tsx are slower (tsx names
 * every function it compiles).
 *
 * @since 0.2.0
 */
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * This workspace's `packages/` directory.
 *
 * @example
 * import * as Built from "@broker-history/bench/Built"
 * Built.clients(Built.packagesDir)
 *
 * @since 0.2.0
 * @category constants
 */
export const packagesDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../..")

/**
 * Runs the `build` script of the package in `packageDir` as a package manager runs it: in a shell,
 * the package's and its workspace's `node_modules/.bin` first on the PATH. Undefined when it
 * succeeded; otherwise the first line of what it said.
 *
 * @example
 * import * as Built from "@broker-history/bench/Built"
 * const failed = Built.build("/repo/packages/client")
 *
 * @since 0.2.0
 * @category builds
 */
export const build = (packageDir: string): string | undefined => {
  const script = (JSON.parse(Fs.readFileSync(Path.join(packageDir, "package.json"), "utf8")) as {
    readonly scripts: { readonly build: string }
  }).scripts.build
  const bins = [Path.join(packageDir, "node_modules/.bin"), Path.resolve(packageDir, "../../node_modules/.bin")]
  const run = ChildProcess.spawnSync(script, {
    cwd: packageDir,
    shell: true,
    env: { ...process.env, PATH: [...bins, process.env.PATH].join(Path.delimiter) },
    encoding: "utf8",
    timeout: 300_000
  })
  if (run.status === 0) return undefined
  return (run.stdout + run.stderr).trim().split("\n")[0] || `exit ${run.status ?? run.signal}`
}

/**
 * Builds the client packages of the workspace whose `packages/` directory is `packages` (those of
 * the two lines it has: `client`, `client-effect4`), with what they reference (`core`, the domain
 * packages); fails naming the first that does not build.
 *
 * @example
 * import * as Built from "@broker-history/bench/Built"
 * Built.clients("/repo/packages")
 *
 * @since 0.2.0
 * @category builds
 */
export const clients = (packages: string): void => {
  for (const name of ["client", "client-effect4"]) {
    const dir = Path.join(packages, name)
    if (!Fs.existsSync(Path.join(dir, "package.json"))) continue
    const failed = build(dir)
    if (failed !== undefined) {
      throw new Error(`${dir} did not build, so it cannot be measured as users run it: ${failed}`)
    }
    // tsc -b trusts its build info: outputs deleted since are not written again.
    if (!Fs.existsSync(Path.join(dir, "dist", "index.js"))) {
      throw new Error(`${dir}: its build wrote no dist/index.js (remove its build/ directory, then run again)`)
    }
  }
}

// A hook module is evaluated on the loader's thread: only `node:` builtins, nothing of the bench.
// Only the packages that publish (their manifest has `publishConfig`) load compiled: the private ones
// (test fixtures) have no build and stay sources.
const hook = `import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
const publishes = new Map()
const published = (dir) => {
  if (!publishes.has(dir)) {
    let manifest
    try { manifest = JSON.parse(readFileSync(fileURLToPath(dir + "package.json"), "utf8")) } catch {}
    publishes.set(dir, manifest?.publishConfig !== undefined)
  }
  return publishes.get(dir)
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  if (!specifier.startsWith("@broker-history/")) return resolved
  const source = /^(file:\\/\\/.*\\/)src\\/(.+)\\.ts$/.exec(resolved.url)
  if (source === null || !published(source[1])) return resolved
  const url = source[1] + "dist/" + source[2] + ".js"
  if (!existsSync(fileURLToPath(url))) {
    throw new Error(specifier + ": " + fileURLToPath(url) + " is not built (run its package's build script)")
  }
  return { url, format: "module", shortCircuit: true }
}`

/**
 * The module, for `node --import`, that registers the resolve hook (a `data:` URL).
 *
 * @example
 * import * as Built from "@broker-history/bench/Built"
 * const execArgv = ["--import", Built.preload, "main.js"]
 *
 * @since 0.2.0
 * @category hooks
 */
export const preload: string = `data:text/javascript,${
  encodeURIComponent(
    `import { register } from "node:module"; register(${
      JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)
    })`
  )
}`
