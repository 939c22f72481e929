// The published bin as the package's build writes it (scripts/bundle.mjs), built for a test file
// into a directory of build/ inside the package, so that Node resolves the native addon the bundle
// leaves out (better-sqlite3) from the package's own dependencies, as it does when installed.
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Module from "node:module"
import * as Path from "node:path"
import * as Url from "node:url"
import { packageDir } from "./PackageDir.js"

export interface Bundle {
  /** The bundle's entry point: what `publishConfig.bin` names once built into `dist/bin/`. */
  readonly bin: string
  /** The directory of the entry point and its chunks. */
  readonly dir: string
  /** The source files bundled into a loaded file (a `file:` URL), or none for a file not in the bundle. */
  readonly inputsOf: (url: string) => ReadonlyArray<string>
  /** The packages some output file imports from outside the bundle (Node's built-in modules aside), sorted. */
  readonly externalPackages: ReadonlyArray<string>
  readonly cleanup: () => void
}

/** Builds the bundle (bounded to 2 minutes); throws with esbuild's output when it fails. */
export const buildBundle = (): Bundle => {
  Fs.mkdirSync(Path.join(packageDir, "build"), { recursive: true })
  const root = Fs.mkdtempSync(Path.join(packageDir, "build", "bundle-test-"))
  // Readable by every user: some tests run the CLI as another user.
  Fs.chmodSync(root, 0o755)
  const dir = Path.join(root, "bin")
  const metafile = Path.join(root, "meta.json")
  const built = ChildProcess.spawnSync(
    process.execPath,
    [Path.join(packageDir, "scripts/bundle.mjs"), "--outdir", dir, "--metafile", metafile],
    { encoding: "utf8", timeout: 120_000 }
  )
  if (built.status !== 0) {
    Fs.rmSync(root, { recursive: true, force: true })
    throw new Error(`scripts/bundle.mjs exited ${built.status}: ${built.stderr}${built.stdout}`)
  }
  // The metafile names its outputs relative to the package directory (esbuild's working directory).
  const { outputs } = JSON.parse(Fs.readFileSync(metafile, "utf8")) as {
    readonly outputs: Record<string, {
      readonly inputs: Record<string, unknown>
      readonly imports: ReadonlyArray<{ readonly path: string; readonly external?: boolean }>
    }>
  }
  const externalPackages = new Set(
    Object.values(outputs).flatMap((output) =>
      output.imports.filter((i) => i.external === true && !isNodes(i.path)).map((i) => packageName(i.path))
    )
  )
  return {
    bin: Path.join(dir, "broker-history.js"),
    dir,
    inputsOf: (url) => {
      if (!url.startsWith("file:")) return []
      const relative = Path.relative(packageDir, Url.fileURLToPath(url)).split(Path.sep).join("/")
      return Object.keys(outputs[relative]?.inputs ?? {})
    },
    externalPackages: [...externalPackages].sort(),
    cleanup: () => Fs.rmSync(root, { recursive: true, force: true })
  }
}

/** A module of Node's own: `node:` ones (`node:sqlite` too, which Node 20 lacks) and the bare built-in names. */
const isNodes = (specifier: string) => specifier.startsWith("node:") || Module.isBuiltin(specifier)

/** The package a bare specifier names: `@scope/name` or `name`, without the subpath. */
const packageName = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
