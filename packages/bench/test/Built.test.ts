// The resolve hook the bench's processes run under: an `@broker-history/*` import loads the compiled
// file of the source Node resolves from the importing file, in whichever workspace that is.
import { describe, expect, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { pathToFileURL } from "node:url"
import * as Built from "../src/Built.js"

/** A package as the workspace lays it out: its manifest's exports name the TypeScript sources. */
const writePackage = (dir: string, name: string, built: ReadonlyArray<string>, publishes = true): void => {
  Fs.mkdirSync(Path.join(dir, "src", "walk"), { recursive: true })
  const exports = { ".": "./src/index.ts", "./*": "./src/*.ts" }
  const publishConfig = { exports: { ".": "./dist/index.js", "./*": "./dist/*.js" } }
  Fs.writeFileSync(
    Path.join(dir, "package.json"),
    JSON.stringify({ name, type: "module", exports, ...(publishes ? { publishConfig } : { private: true }) })
  )
  for (const file of ["index", "walk/Crowded", "Plain"]) Fs.writeFileSync(Path.join(dir, "src", `${file}.ts`), "")
  for (const file of built) {
    Fs.mkdirSync(Path.dirname(Path.join(dir, "dist", `${file}.js`)), { recursive: true })
    Fs.writeFileSync(Path.join(dir, "dist", `${file}.js`), "")
  }
}

/** What `import.meta.resolve` gives for each specifier from a module in `from`, under the hook. */
const resolved = (from: string, specifiers: ReadonlyArray<string>) => {
  const script = `for (const s of ${JSON.stringify(specifiers)}) {
  try { console.log(import.meta.resolve(s)) } catch (e) { console.log("error: " + e.message) }
}`
  const child = ChildProcess.spawnSync(process.execPath, [
    "--import",
    Built.preload,
    "--input-type=module",
    "-e",
    script
  ], {
    cwd: from,
    encoding: "utf8"
  })
  expect(child.stderr).toBe("")
  return child.stdout.trim().split("\n")
}

describe("Built.preload", () => {
  it("resolves a workspace package's source to its dist/ file, from the importer's own workspace", () => {
    const root = Fs.mkdtempSync(Path.join(Os.tmpdir(), "broker-bench-built-"))
    try {
      // Two workspaces (this one and a prepared copy of another revision), each linking its own package.
      for (const workspace of ["main", "copy"]) {
        const packages = Path.join(root, workspace, "packages")
        writePackage(Path.join(packages, "core"), "@broker-history/core", ["index", "walk/Crowded"])
        writePackage(Path.join(packages, "testing"), "@broker-history/testing", ["index"], false)
        writePackage(Path.join(packages, "lib"), "lib", ["index"])
        const modules = Path.join(packages, "bench", "node_modules")
        Fs.mkdirSync(Path.join(modules, "@broker-history"), { recursive: true })
        Fs.symlinkSync(Path.join(packages, "core"), Path.join(modules, "@broker-history", "core"), "dir")
        Fs.symlinkSync(Path.join(packages, "testing"), Path.join(modules, "@broker-history", "testing"), "dir")
        Fs.symlinkSync(Path.join(packages, "lib"), Path.join(modules, "lib"), "dir")
      }
      const url = (path: string) => pathToFileURL(Path.join(root, path)).href
      for (const workspace of ["main", "copy"]) {
        expect(
          resolved(Path.join(root, workspace, "packages", "bench"), [
            "@broker-history/core",
            "@broker-history/core/walk/Crowded",
            "@broker-history/core/Plain",
            "@broker-history/testing",
            "lib",
            "node:fs"
          ])
        ).toEqual([
          url(`${workspace}/packages/core/dist/index.js`),
          url(`${workspace}/packages/core/dist/walk/Crowded.js`),
          // Not built: a clear failure, never the sources in its place.
          `error: @broker-history/core/Plain: ${
            Path.join(root, workspace, "packages/core/dist/Plain.js")
          } is not built ` +
          `(run its package's build script)`,
          // A private package (no build) and another project's package resolve as Node resolves them.
          url(`${workspace}/packages/testing/src/index.ts`),
          url(`${workspace}/packages/lib/src/index.ts`),
          "node:fs"
        ])
      }
    } finally {
      Fs.rmSync(root, { recursive: true, force: true })
    }
  })
})
