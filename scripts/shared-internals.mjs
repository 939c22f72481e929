#!/usr/bin/env node
// The Effect 4 client's internal modules, and their tests, are the Effect 3 client's, compiled against
// Effect 4: this copies what `shared` lists from packages/client/ into packages/client-effect4/ (a
// folder: every .ts file below it but its line/ folder, which each line writes for itself), read-only,
// each with a first line naming its source.
// The copies are not committed (.gitignore); install, check, test, build and docs make them.
// `--check` only reports copies that are missing, stale or left over (exit 1).
// docs/architecture.md, "One source, two lines".
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const fromPackage = "packages/client"
const toPackage = "packages/client-effect4"
/** What is shared, relative to the packages: folders and single files. */
const shared = [
  "src/internal",
  "test/internal",
  "test/support/LimiterRun.ts",
  "test/support/MockService.ts",
  "test/support/TestPipeline.ts",
  "test/support/WalkRows.ts"
]
const perLine = "line"
const check = process.argv.includes("--check")

const headerOf = (rel) =>
  `// Generated from ${fromPackage}/${rel} by scripts/shared-internals.mjs: edit that file, not this one.\n`
const isCopy = (file) => fs.readFileSync(file, "utf8").startsWith(`// Generated from ${fromPackage}/`)

/** Every .ts file below `dir` (relative to the package, `/`-separated), but its per-line folder. */
const sources = (pkg, dir) => {
  const walk = (rel) =>
    fs.readdirSync(path.join(root, pkg, rel), { withFileTypes: true }).flatMap((entry) => {
      const sub = `${rel}/${entry.name}`
      if (entry.isDirectory()) return rel === dir && entry.name === perLine ? [] : walk(sub)
      return entry.name.endsWith(".ts") ? [sub] : []
    })
  return fs.existsSync(path.join(root, pkg, dir)) ? walk(dir) : []
}

const folders = shared.filter((entry) => !entry.endsWith(".ts"))
const files = shared.filter((entry) => entry.endsWith(".ts"))
/** The copies, by path relative to the packages. */
const wanted = new Map(
  [...folders.flatMap((dir) => sources(fromPackage, dir)), ...files].map((rel) => [
    rel,
    headerOf(rel) + fs.readFileSync(path.join(root, fromPackage, rel), "utf8")
  ])
)
/** What is there now: everything in a shared folder, and the copies beside a shared file. */
const present = new Set([
  ...folders.flatMap((dir) => sources(toPackage, dir)),
  ...[...new Set(files.map((file) => path.posix.dirname(file)))].flatMap((dir) =>
    fs.existsSync(path.join(root, toPackage, dir))
      ? fs.readdirSync(path.join(root, toPackage, dir))
        .map((name) => `${dir}/${name}`)
        .filter((rel) => rel.endsWith(".ts") && isCopy(path.join(root, toPackage, rel)))
      : []
  )
])
const problems = []

for (const rel of present) {
  if (wanted.has(rel)) continue
  if (check) problems.push(`left over: ${rel}`)
  else fs.rmSync(path.join(root, toPackage, rel), { force: true })
}
for (const [rel, text] of wanted) {
  const target = path.join(root, toPackage, rel)
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : undefined
  if (current === text) continue
  if (check) {
    problems.push(`${current === undefined ? "missing" : "stale"}: ${rel}`)
    continue
  }
  fs.mkdirSync(path.dirname(target), { recursive: true })
  fs.rmSync(target, { force: true })
  fs.writeFileSync(target, text, { mode: 0o444 })
}
// Folders emptied by a removed source go too.
const prune = (dir, top) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || (top && entry.name === perLine)) continue
    const sub = path.join(dir, entry.name)
    prune(sub, false)
    if (fs.readdirSync(sub).length === 0) fs.rmdirSync(sub)
  }
}
if (!check) {
  for (const dir of folders) {
    if (fs.existsSync(path.join(root, toPackage, dir))) prune(path.join(root, toPackage, dir), true)
  }
}

if (problems.length > 0) {
  console.error(
    `${toPackage} is not what ${fromPackage} makes (run node scripts/shared-internals.mjs):\n  ${problems.join("\n  ")}`
  )
  process.exit(1)
}
