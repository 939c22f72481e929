// Checks that every README code block introduced by `<!-- file: PATH -->` equals that file, so the
// README's usage examples are exactly the example programs that `tsc -b` type-checks.
import { readFileSync } from "node:fs"

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
const pattern = /<!-- file: (\S+) -->\s*```ts\n([\s\S]*?)```/g
let checked = 0
let failed = 0
for (const [, path, code] of readme.matchAll(pattern)) {
  checked++
  const actual = readFileSync(new URL(`../${path}`, import.meta.url), "utf8")
  if (actual !== code) {
    failed++
    console.error(`README block for ${path} differs from the file; copy the file into the README.`)
  }
}
if (checked === 0) {
  console.error("README has no `<!-- file: … -->` example blocks")
  process.exit(1)
}
console.log(`README examples: ${checked} checked, ${failed} differ`)
process.exit(failed === 0 ? 0 : 1)
