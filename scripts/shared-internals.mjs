#!/usr/bin/env node
// The Effect 4 client's internal modules are the Effect 3 client's, compiled against Effect 4: this
// copies packages/client/src/internal/** (all but internal/line/, which each line writes for itself)
// into packages/client-effect4/src/internal/, read-only, each with a first line naming its source.
// The copies are not committed (.gitignore); install, check, test, build and docs make them.
// `--check` only reports copies that are missing, stale or left over (exit 1).
// docs/architecture.md, "One source, two lines".
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const from = path.join(root, "packages/client/src/internal")
const to = path.join(root, "packages/client-effect4/src/internal")
const perLine = "line"
const check = process.argv.includes("--check")

/** Every .ts file below `dir`, relative to it, but the per-line folder. */
const sources = (dir, prefix = "") =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(prefix, entry.name)
    if (entry.isDirectory()) {
      return prefix === "" && entry.name === perLine
        ? []
        : sources(path.join(dir, entry.name), rel)
    }
    return entry.name.endsWith(".ts") ? [rel] : []
  })

const header = (rel) =>
  `// Generated from packages/client/src/internal/${rel.split(path.sep).join("/")} ` +
  `by scripts/shared-internals.mjs: edit that file, not this one.\n`

const wanted = new Map(sources(from).map((rel) => [rel, header(rel) + fs.readFileSync(path.join(from, rel), "utf8")]))
const present = fs.existsSync(to) ? sources(to) : []
const problems = []

for (const rel of present) {
  if (wanted.has(rel)) continue
  if (check) problems.push(`left over: ${rel}`)
  else fs.rmSync(path.join(to, rel), { force: true })
}
for (const [rel, text] of wanted) {
  const target = path.join(to, rel)
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
const prune = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || (dir === to && entry.name === perLine)) continue
    const sub = path.join(dir, entry.name)
    prune(sub)
    if (fs.readdirSync(sub).length === 0) fs.rmdirSync(sub)
  }
}
if (!check && fs.existsSync(to)) prune(to)

if (problems.length > 0) {
  console.error(
    `packages/client-effect4/src/internal is not what packages/client/src/internal makes ` +
      `(run node scripts/shared-internals.mjs):\n  ${problems.join("\n  ")}`
  )
  process.exit(1)
}
