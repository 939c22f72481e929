// Checks the READMEs a newcomer follows:
// - every README.md code block introduced by `<!-- file: PATH -->` equals that file, so the usage
//   examples are exactly the example programs that `tsc -b` type-checks;
// - README.md stays under 250 lines (details live in docs/ and the package READMEs);
// - every pnpm command in a README runs unattended: `npx --yes pnpm@<the pinned version>` (without
//   --yes, npx asks for confirmation on a terminal and fails in a script when pnpm is not cached).
import { readdirSync, readFileSync } from "node:fs"

const root = new URL("../", import.meta.url)
const read = (path) => readFileSync(new URL(path, root), "utf8")
let failed = 0

const readme = read("README.md")
const readmeLines = readme.split("\n").length - (readme.endsWith("\n") ? 1 : 0)
if (readmeLines >= 250) {
  failed++
  console.error(`README.md has ${readmeLines} lines: keep it under 250 (move details to docs/ or a package README)`)
}
const pattern = /<!-- file: (\S+) -->\s*```ts\n([\s\S]*?)```/g
let checked = 0
for (const [, path, code] of readme.matchAll(pattern)) {
  checked++
  if (read(path) !== code) {
    failed++
    console.error(`README block for ${path} differs from the file; copy the file into the README.`)
  }
}
if (checked === 0) {
  console.error("README has no `<!-- file: … -->` example blocks")
  process.exit(1)
}

const pinned = JSON.parse(read("package.json")).packageManager
const readmes = ["README.md", ...readdirSync(new URL("packages/", root)).map((p) => `packages/${p}/README.md`)]
let commands = 0
for (const path of readmes) {
  let text
  try {
    text = read(path)
  } catch {
    continue
  }
  for (const [line, index] of text.split("\n").map((l, i) => [l, i + 1])) {
    for (const [call] of line.matchAll(/npx(\s+-{1,2}[a-z-]+)*\s+pnpm(@\S*)?/g)) {
      commands++
      if (!/\s--yes\s/.test(call) || !call.endsWith(` ${pinned}`)) {
        failed++
        console.error(`${path}:${index}: "${call}" must be "npx --yes ${pinned}" (runs unattended, pinned version)`)
      }
    }
  }
}
console.log(`README examples: ${checked} checked; pnpm commands: ${commands} checked; ${failed} wrong`)
process.exit(failed === 0 ? 0 : 1)
