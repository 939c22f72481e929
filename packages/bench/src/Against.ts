/**
 * `--against <git-rev>`: the client as it was at another commit, measured beside the current one.
 * The revision is exported with `git archive` into `.bench/against-<sha>/` of this package
 * (git-ignored) and the client's dependencies are linked there from pnpm's store; every process that
 * measures it loads the client, and the `effect` it runs on, from that copy only.
 *
 * @since 0.1.0
 */
import type * as ClientModule from "@broker-history/client"
import type * as DomainModule from "@broker-history/domain"
import type * as EffectModule from "effect"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as Built from "./Built.js"

/**
 * A prepared copy of another revision.
 *
 * @example
 * import type { Against } from "@broker-history/bench"
 * const short = (c: Against.Copy) => c.sha.slice(0, 7)
 */
export interface Copy {
  /** The revision as given (`795d82d`, `HEAD~3`, a tag). */
  readonly rev: string
  readonly sha: string
  /** The copy's root (a workspace of its own). */
  readonly dir: string
}

/**
 * What the client contenders and the memory part use of the client and of `effect`.
 *
 * @example
 * import type { Against } from "@broker-history/bench"
 * const layer = (m: Against.Modules) => m.BrokerHistory.layerUndici
 */
export type Modules =
  & Pick<typeof ClientModule, "BrokerConfig" | "BrokerHistory">
  & Pick<typeof EffectModule, "Chunk" | "Effect" | "Layer" | "ManagedRuntime" | "Redacted" | "Stream">

/** The bench package's directory. */
export const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
/** Written last: a copy without it was interrupted and is made again. */
const marker = ".prepared"
const pnpm = ["--yes", "pnpm@10.34.9", "install", "--frozen-lockfile", "--ignore-scripts"]

const git = (args: ReadonlyArray<string>, cwd = packageDir): Buffer =>
  ChildProcess.execFileSync("git", args, { cwd, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "inherit"] })

const clientDir = (copy: { readonly dir: string }) => Path.join(copy.dir, "packages", "client")

/** The manifest of the `effect` that the module or package at `from` resolves (throws when none is installed). */
const effectManifest = (from: string) => createRequire(from).resolve("effect/package.json")

/**
 * The `effect` that the module or package manifest at `from` resolves, whichever major it is, and not
 * the bench's own (the ES module its manifest exports as `.`); the caller says what it holds.
 *
 * @example
 * import { Against } from "@broker-history/bench"
 * const effect = await Against.importEffect(Against.packageDir + "/package.json")
 */
export const importEffect = async (from: string): Promise<unknown> => {
  const manifest = effectManifest(from)
  const main = (JSON.parse(Fs.readFileSync(manifest, "utf8")) as {
    exports: { ".": string | { import: string } }
  }).exports["."]
  const entry = typeof main === "string" ? main : main.import
  return import(pathToFileURL(Path.join(Path.dirname(manifest), entry)).href)
}

/**
 * Exports `rev` into `.bench/against-<sha>/`, installs its client's dependencies (from the store
 * alone if it can, else with a plain install; no install scripts: the client needs no native code)
 * and builds its client with the client's own `build` script (`Built`). A copy prepared before is
 * reused (and built again if its build is not up to date).
 *
 * @example
 * import { Against } from "@broker-history/bench"
 * const copy = Against.prepare("HEAD~1")
 */
export const prepare = (rev: string, log: (line: string) => void = () => {}): Copy => {
  const sha = ChildProcess.spawnSync("git", ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`], {
    cwd: packageDir,
    encoding: "utf8"
  }).stdout.trim()
  if (!/^[0-9a-f]{40}$/.test(sha)) {
    throw new Error(`--against ${rev}: not a commit of this repository (give a sha, branch or tag git can see)`)
  }
  const dir = Path.join(packageDir, ".bench", `against-${sha.slice(0, 12)}`)
  if (!Fs.existsSync(Path.join(dir, marker))) exportAndInstall(rev, sha, dir, log)
  const failed = Built.build(clientDir({ dir }))
  if (failed !== undefined) throw new Error(`against ${rev}: its client did not build in ${dir}: ${failed}`)
  return { rev, sha, dir }
}

/** Exports `sha` into `dir` and installs its client's dependencies (see `prepare`). */
const exportAndInstall = (rev: string, sha: string, dir: string, log: (line: string) => void): void => {
  log(`against ${rev}: exporting ${sha.slice(0, 12)} into ${Path.relative(process.cwd(), dir)}`)
  Fs.rmSync(dir, { recursive: true, force: true })
  Fs.mkdirSync(dir, { recursive: true })
  // The whole tree: `git archive` run in this package's directory would export only this package.
  const top = git(["rev-parse", "--show-toplevel"]).toString().trim()
  ChildProcess.execFileSync("tar", ["-x", "-C", dir], { input: git(["archive", sha], top) })
  const install = (offline: boolean) =>
    ChildProcess.spawnSync(
      "npx",
      [...pnpm, ...(offline ? ["--offline"] : []), "--filter", "@broker-history/client..."],
      { cwd: dir, stdio: ["ignore", "ignore", "inherit"] }
    ).status === 0
  if (!install(true)) {
    log(`against ${rev}: offline install failed, installing from the registry`)
    if (!install(false)) throw new Error(`against ${rev}: pnpm install failed in ${dir}`)
  }
  effectManifest(Path.join(clientDir({ dir }), "package.json"))
  Fs.writeFileSync(Path.join(dir, marker), sha + "\n")
}

/**
 * The client and `effect`: the current ones (as this process resolves them: compiled in a part's
 * process, see `Built`), or those of a prepared copy (the copy's compiled client and the `effect` its
 * client package resolves, never this package's).
 *
 * @example
 * import { Against } from "@broker-history/bench"
 * const { BrokerHistory } = await Against.load(undefined)
 */
export const load = async (copy: Copy | undefined): Promise<Modules> => {
  if (copy === undefined) {
    const [client, effect] = await Promise.all([import("@broker-history/client"), import("effect")])
    return modules(client, effect)
  }
  const [client, effect] = await Promise.all([
    import(pathToFileURL(Path.join(clientDir(copy), "dist", "index.js")).href) as Promise<typeof ClientModule>,
    importEffect(Path.join(clientDir(copy), "package.json")) as Promise<typeof EffectModule>
  ])
  return modules(client, effect)
}

/**
 * The record pages of a prepared copy's domain package (compiled by `prepare`, and the `effect` its
 * domain package resolves): what the decoding part measures as `against`.
 *
 * @example
 * import { Against } from "@broker-history/bench"
 * const { Field, TransferRecord } = await Against.loadDomain(Against.prepare("HEAD~1"))
 */
export const loadDomain = async (
  copy: Copy
): Promise<Pick<typeof DomainModule, "DepositRecord" | "Field" | "TransferRecord">> => {
  const { DepositRecord, Field, TransferRecord } = await import(
    pathToFileURL(Path.join(copy.dir, "packages", "domain", "dist", "index.js")).href
  ) as typeof DomainModule
  return { DepositRecord, Field, TransferRecord }
}

/**
 * What the bench uses of a loaded client and `effect`.
 *
 * @example
 * import { Against } from "@broker-history/bench"
 * import * as Client from "@broker-history/client"
 * import * as Effect from "effect"
 * const { BrokerHistory, Stream } = Against.modules(Client, Effect)
 */
export const modules = (
  { BrokerConfig, BrokerHistory }: typeof ClientModule,
  { Chunk, Effect, Layer, ManagedRuntime, Redacted, Stream }: typeof EffectModule
): Modules => ({ BrokerConfig, BrokerHistory, Chunk, Effect, Layer, ManagedRuntime, Redacted, Stream })
