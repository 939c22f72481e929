// The install line of a README section (README.md's Install by default), as the consumer test runs
// it: the arguments of the first `npm install` of its first sh block (not a --global one; a line
// ending in `\` goes on), one per line, with each @broker-history package replaced by its packed
// tarball in PACKS_DIR and the packed packages it does not name appended, so the README's own line
// (its Effect versions included) is what the fresh project installs.
// Usage: node readme-install.mjs README.md PACKS_DIR [SECTION]
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const [readmePath, packs, heading = "Install"] = process.argv.slice(2)
const fail = (message) => {
  console.error(`readme-install: ${message}`)
  process.exit(1)
}
const readme = readFileSync(readmePath, "utf8")
const section = readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`))
if (section === undefined) fail(`${readmePath} has no "## ${heading}" section`)
const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1]
if (block === undefined) fail(`the ${heading} section of ${readmePath} has no sh block`)
const line = block.replace(/\\\n/g, " ").split("\n").find((l) =>
  /^npm install /.test(l) && !/\s(--global|-g)\b/.test(l)
)
if (line === undefined) fail(`the ${heading} section's sh block has no "npm install" line without --global`)

// Words as the shell reads this line: separated by spaces, "…" and '…' quoted, # starts a comment.
const words = []
for (const [, double, single, bare] of line.replace(/\s#.*$/, "").matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
  words.push(double ?? single ?? bare)
}
const args = words.slice(2)
if (args.some((a) => a.startsWith("-") || /[$`\\]/.test(a))) fail(`unexpected option or shell syntax in: ${line}`)

const tarballs = new Map(
  readdirSync(packs)
    .map((file) => [/^broker-history-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)?.[1], join(packs, file)])
    .filter(([name]) => name !== undefined)
)
const named = new Set()
const out = args.map((arg) => {
  const name = /^@broker-history\/([a-z-]+)$/.exec(arg)?.[1]
  if (name === undefined) return arg
  if (!tarballs.has(name)) fail(`${arg} is in the README's install line, but ${packs} has no tarball of it`)
  named.add(name)
  return tarballs.get(name)
})
if (named.size === 0) fail(`the README's install line names no @broker-history package: ${line}`)
for (const [name, file] of tarballs) if (!named.has(name)) out.push(file)
process.stdout.write(out.join("\n") + "\n")
