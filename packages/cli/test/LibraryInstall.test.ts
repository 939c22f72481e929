// The library modules (`Cli`, `SyncDatabase`) run on the program's own Effect 3 packages, which the
// package does not install (its bin is a bundle with its own copies): the README's "In a program"
// section names them in one `npm install` line. That line must name exactly the packages the
// sources import, each at the range the workspace builds with, so that it is all a program needs.
import * as Fs from "node:fs"
import * as Module from "node:module"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { packageDir } from "./support/PackageDir.js"

const manifest = JSON.parse(Fs.readFileSync(Path.join(packageDir, "package.json"), "utf8")) as {
  readonly name: string
  readonly devDependencies: Record<string, string>
}

/** The words of the first `npm install` command of the section's sh block (`\` continues a line). */
const installLine = (readme: string, heading: string): ReadonlyArray<string> => {
  const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? ""
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
  const command = /^npm install (?:[^\n\\]|\\\n)*/m.exec(block)?.[0] ?? ""
  return [...command.replace(/\\\n/g, " ").matchAll(/"([^"]*)"|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare)
    .slice(2)
}

/** `name@range` or `name` (also scoped) as [name, range]. */
const nameAndRange = (spec: string): readonly [string, string | undefined] => {
  const at = spec.indexOf("@", 1)
  return at === -1 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)]
}

/** The packages the sources import (statically, dynamically or for types), Node's and the package's own aside. */
const importedPackages = (): ReadonlyArray<string> => {
  const names = new Set<string>()
  const files = Fs.readdirSync(Path.join(packageDir, "src"), { recursive: true, encoding: "utf8" })
  for (const file of files.filter((f) => f.endsWith(".ts"))) {
    const text = Fs.readFileSync(Path.join(packageDir, "src", file), "utf8")
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*"([^".][^"]*)"/g)) {
      if (Module.isBuiltin(specifier)) continue
      const name = specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
      if (name !== manifest.name) names.add(name)
    }
  }
  return [...names].sort()
}

describe("the library modules' install line (README, In a program)", () => {
  const specs = installLine(Fs.readFileSync(Path.join(packageDir, "README.md"), "utf8"), "In a program")
    .map(nameAndRange)

  it("names the package and exactly the packages its sources import", () => {
    expect(specs[0]).toEqual([manifest.name, undefined])
    expect(specs.slice(1).map(([name]) => name).sort()).toEqual(importedPackages())
  })

  it("at the workspace's ranges (its own packages without one: they share its version)", () => {
    for (const [name, range] of specs.slice(1)) {
      const workspace = manifest.devDependencies[name]
      expect(workspace, `${name} is not a devDependency`).toBeDefined()
      expect(range, name).toBe(workspace?.startsWith("workspace:") ? undefined : workspace)
    }
  })
})
