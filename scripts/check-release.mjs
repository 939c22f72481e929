// Checks what a release needs of each public package: a LICENSE file, a CHANGELOG.md whose newest
// entry is the package's version, publish metadata (public access, repository, files, dist exports
// with types), and one version shared by all of them (they are released together).
import { existsSync, readdirSync, readFileSync } from "node:fs"

const root = new URL("../", import.meta.url)
const problems = []
const versions = new Set()
let checked = 0
for (const dir of readdirSync(new URL("packages/", root))) {
  const base = new URL(`packages/${dir}/`, root)
  const pkg = JSON.parse(readFileSync(new URL("package.json", base), "utf8"))
  if (pkg.private === true) continue
  checked++
  versions.add(pkg.version)
  const where = `packages/${dir}`
  if (!existsSync(new URL("LICENSE", base))) problems.push(`${where}: no LICENSE file`)
  const changelog = existsSync(new URL("CHANGELOG.md", base)) ? readFileSync(new URL("CHANGELOG.md", base), "utf8") : ""
  const newest = /^## (\S+)/m.exec(changelog)?.[1]
  if (newest !== pkg.version) {
    problems.push(`${where}: CHANGELOG.md's newest entry is ${newest ?? "missing"}, the version is ${pkg.version}`)
  }
  if (pkg.publishConfig?.access !== "public") problems.push(`${where}: publishConfig.access must be "public"`)
  if (typeof pkg.repository?.url !== "string") problems.push(`${where}: no repository`)
  if (!Array.isArray(pkg.files) || !pkg.files.includes("dist")) problems.push(`${where}: files must list dist`)
  const main = pkg.publishConfig?.exports?.["."]
  if (main?.types === undefined || !String(main.default).startsWith("./dist/")) {
    problems.push(`${where}: publishConfig.exports["."] needs types and a default in ./dist`)
  }
}
if (versions.size > 1) problems.push(`the public packages must share one version, found ${[...versions].join(", ")}`)
for (const problem of problems) console.error(problem)
console.log(`release metadata: ${checked} public packages checked, ${problems.length} problems`)
process.exit(problems.length === 0 && checked > 0 ? 0 : 1)
