/**
 * The CLI compiled as a release builds it: the package's own `build` script writes `dist/` (tsc) and
 * the published bin, `dist/bin/broker-history.js` (a bundle). Two ways to start it. `command`:
 * `dist/main.js` with a resolve hook that maps the workspace's packages to their compiled `dist/`
 * files as their published `exports` do (in the workspace their exports name the TypeScript
 * sources); Node runs such a hook on a thread of its own and asks it for every module, which slows
 * the start-up (see the bench README). `installed`: the compiled packages copied into a
 * `node_modules` of their own with their published manifests, their dependencies linked beside them,
 * as a package manager installs a release, and the published bin run: no hook. When the build fails,
 * both are the sources through tsx, with the reason, so that a run still says what it measured.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as TempDir from "./TempDir.js"

const packagesDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "../..")
const cliDir = Path.join(packagesDir, "cli")

/**
 * A module, for `node --import`, that registers a resolve hook mapping `@broker-history/<package>` to
 * `<packages>/<package>/dist/index.js` and `@broker-history/<package>/<path>` (a module, or one in a
 * folder: `@broker-history/core/walk/Crowded`) to `<packages>/<package>/dist/<path>.js`; every other
 * specifier resolves as usual.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * const args = ["--import", `data:text/javascript,${encodeURIComponent(CompiledCli.distPreload("/repo/packages"))}`, "main.js"]
 */
export const distPreload = (packages: string): string => {
  const root = JSON.stringify(pathToFileURL(packages).href)
  const hook = `export async function resolve(specifier, context, next) {
  const m = /^@broker-history\\/([a-z][a-z0-9-]*)(?:\\/([A-Za-z]+(?:\\/[A-Za-z]+)*))?$/.exec(specifier)
  if (m === null) return next(specifier, context)
  return { url: ${root} + "/" + m[1] + "/dist/" + (m[2] ?? "index") + ".js", shortCircuit: true }
}`
  return `import { register } from "node:module"; register(${
    JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)
  })`
}

/**
 * The CLI as the workspace runs it: `bin/broker-history.mjs`, the TypeScript sources through tsx.
 * `args` go after the Node executable.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * CompiledCli.sources.runs // "bin/broker-history.mjs (sources through tsx)"
 *
 * @since 0.2.0
 * @category commands
 */
export const sources: { readonly args: ReadonlyArray<string>; readonly runs: string } = {
  args: [Path.join(cliDir, "bin/broker-history.mjs")],
  runs: "bin/broker-history.mjs (sources through tsx)"
}

/**
 * How the CLI is started: the compiled `dist/main.js` (the package's `build` script, as a release
 * builds it, run first) with the workspace's packages resolved to their `dist/` as when installed;
 * or, when the build fails, `bin/broker-history.mjs` (TypeScript sources through tsx), with the
 * reason. `args` go after the Node executable; `runs` says which of the two it is.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * import { Effect } from "effect"
 * const compiled = Effect.map(CompiledCli.command, (cli) => cli.runs.startsWith("dist"))
 */
export const command = Effect.sync((): { readonly args: ReadonlyArray<string>; readonly runs: string } => {
  // The package's `build` script as a package manager runs it: in a shell, the package's and the
  // workspace's `node_modules/.bin` first on the PATH.
  const script = (JSON.parse(Fs.readFileSync(Path.join(cliDir, "package.json"), "utf8")) as {
    readonly scripts: { readonly build: string }
  }).scripts.build
  const bins = [Path.join(cliDir, "node_modules/.bin"), Path.resolve(packagesDir, "../node_modules/.bin")]
  const build = ChildProcess.spawnSync(script, {
    cwd: cliDir,
    shell: true,
    env: { ...process.env, PATH: [...bins, process.env.PATH].join(Path.delimiter) },
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
  return { args: sources.args, runs: `bin/broker-history.mjs (sources through tsx: the build failed: ${why})` }
})

/** The workspace's packages a release installs, the CLI's dependencies among them. */
const released = ["domain", "client", "server", "cli"] as const

/** Lays the compiled packages out in `modules` (a `node_modules`) as an install of a release does. */
const layOut = (modules: string): void => {
  for (const name of released) {
    const source = Path.join(packagesDir, name)
    const manifest = JSON.parse(Fs.readFileSync(Path.join(source, "package.json"), "utf8")) as {
      readonly publishConfig?: Record<string, unknown>
      readonly dependencies?: Record<string, string>
      readonly peerDependencies?: Record<string, string>
      readonly optionalDependencies?: Record<string, string>
    }
    const target = Path.join(modules, "@broker-history", name)
    Fs.mkdirSync(target, { recursive: true })
    // Publishing replaces the manifest's fields with `publishConfig`'s: `exports` name `dist/`.
    Fs.writeFileSync(Path.join(target, "package.json"), JSON.stringify({ ...manifest, ...manifest.publishConfig }))
    Fs.cpSync(Path.join(source, "dist"), Path.join(target, "dist"), {
      recursive: true,
      filter: (file) => !file.endsWith(".map") && !file.endsWith(".d.ts")
    })
    const dependencies = {
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies
    }
    for (const dependency of Object.keys(dependencies)) {
      const link = Path.join(modules, dependency)
      const from = Path.join(source, "node_modules", dependency)
      if (dependency.startsWith("@broker-history/") || Fs.existsSync(link) || !Fs.existsSync(from)) continue
      Fs.mkdirSync(Path.dirname(link), { recursive: true })
      Fs.symlinkSync(Fs.realpathSync(from), link, "dir")
    }
  }
}

/**
 * The compiled CLI as installed from a release, in a scratch directory removed when the scope closes:
 * the workspace's compiled packages copied into its `node_modules/@broker-history/` with their
 * published manifests, each third-party dependency linked to the workspace's copy; `args` run the
 * bin the published manifest names (the bundle, `dist/bin/broker-history.js`) without any hook.
 * When the build fails, what `command` falls back to.
 *
 * @example
 * import * as CompiledCli from "@broker-history/bench/CompiledCli"
 * import { Effect } from "effect"
 * const runs = Effect.runPromise(Effect.scoped(Effect.map(CompiledCli.installed, (cli) => cli.runs)))
 *
 * @since 0.2.0
 * @category commands
 */
export const installed: Effect.Effect<
  { readonly args: ReadonlyArray<string>; readonly runs: string },
  Error,
  Scope.Scope
> = Effect.gen(function*() {
  const built = yield* command
  if (!built.runs.startsWith("dist")) return built
  const dir = yield* TempDir.scoped("broker-bench-installed-")
  const modules = Path.join(dir, "node_modules")
  yield* Effect.try({
    try: () => layOut(modules),
    catch: (cause) => new Error(`could not lay the compiled packages out in ${modules}: ${String(cause)}`)
  })
  // The bin a package manager links: the published manifest's, as `layOut` wrote it.
  const cli = Path.join(modules, "@broker-history/cli")
  const bin = (JSON.parse(Fs.readFileSync(Path.join(cli, "package.json"), "utf8")) as {
    readonly bin?: Record<string, string>
  }).bin?.["broker-history"]
  if (bin === undefined || !Fs.existsSync(Path.join(cli, bin))) {
    return yield* Effect.fail(
      new Error(
        `the installed @broker-history/cli has no broker-history bin (its published manifest names ${
          bin ?? "none"
        }): check publishConfig.bin and that the package's build writes it`
      )
    )
  }
  return {
    args: [Path.join(cli, bin)],
    runs: `${Path.posix.normalize(bin)} (compiled, installed: the published bin, no hook)`
  }
})
