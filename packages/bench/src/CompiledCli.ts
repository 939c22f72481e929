/**
 * The CLI compiled as a release builds it: the package's own `build` script writes `dist/` (tsc) and
 * the published bin, `dist/bin/broker-history.js` (a bundle). Two ways to start it. `command`:
 * `dist/main.js` with `Built`'s resolve hook, which loads the workspace's packages from their
 * compiled `dist/` as their published `exports` do (in the workspace their exports name the
 * TypeScript sources); Node runs such a hook on a thread of its own and asks it for every module,
 * which slows the start-up (see the bench README). `installed`: the compiled packages copied into a
 * `node_modules` of their own with their published manifests, their dependencies linked beside them,
 * as a package manager installs a release, and the published bin run: no hook. When the build fails,
 * both are the sources through tsx, with the reason, so that a run still says what it measured.
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Built from "./Built.js"
import * as TempDir from "./TempDir.js"

const cliDir = Path.join(Built.packagesDir, "cli")

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
  const failed = Built.build(cliDir)
  if (failed === undefined && Fs.existsSync(Path.join(cliDir, "dist/main.js"))) {
    return { args: ["--import", Built.preload, Path.join(cliDir, "dist/main.js")], runs: "dist/main.js (compiled)" }
  }
  const why = failed ?? "it wrote no dist/main.js"
  return { args: sources.args, runs: `bin/broker-history.mjs (sources through tsx: the build failed: ${why})` }
})

/** The workspace's packages a release installs, the CLI's dependencies among them. */
const released = ["domain", "client", "server", "cli"] as const

/** Lays the compiled packages out in `modules` (a `node_modules`) as an install of a release does. */
const layOut = (modules: string): void => {
  for (const name of released) {
    const source = Path.join(Built.packagesDir, name)
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
