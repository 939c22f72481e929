// The install line a README gives for a package, as the consumer test runs it: in the first SOURCE
// that has one, the first `npm install` line (not a --global one; a line ending in `\` goes on) of an
// sh block that names PACKAGE, its arguments one per line, with each @broker-history package
// replaced by its packed tarball in PACKS_DIR, the packed packages it does not name appended, and
// the optional peers those packages declare that it does not name appended at their declared
// ranges (the transport a user adds where it runs), so the README's own line (its Effect versions
// included) is what the fresh project installs. A SOURCE is README[#SECTION]: the `## SECTION` of
// README, or the whole file. Prints which line it read on stderr (SOURCE as given:
// run it from the repository's root with relative paths).
// Usage: node readme-install.mjs PACKS_DIR PACKAGE SOURCE...
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const [packs, wanted, ...sources] = process.argv.slice(2)
const fail = (message) => {
  console.error(`readme-install: ${message}`)
  process.exit(1)
}
if (wanted === undefined || sources.length === 0) fail("usage: readme-install.mjs PACKS_DIR PACKAGE SOURCE...")

// Words as the shell reads a line: separated by spaces, "…" and '…' quoted, # starts a comment.
const wordsOf = (line) => {
  const words = []
  for (const [, double, single, bare] of line.replace(/\s#.*$/, "").matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    words.push(double ?? single ?? bare)
  }
  return words
}

/** The first `npm install` line of SOURCE's sh blocks that names `wanted`, or undefined. */
const lineIn = (source) => {
  const [path, heading] = source.split("#")
  if (!existsSync(path)) fail(`${path} does not exist`)
  const readme = readFileSync(path, "utf8")
  const section = heading === undefined
    ? readme
    : readme.split(/^## /m).find((part) => part.startsWith(`${heading}\n`))
  if (section === undefined) fail(`${path} has no "## ${heading}" section`)
  for (const [, block] of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const line of block.replace(/\\\n/g, " ").split("\n")) {
      if (/^npm install /.test(line) && !/\s(--global|-g)\b/.test(line) && wordsOf(line).includes(wanted)) return line
    }
  }
  return undefined
}

let found
for (const source of sources) {
  const line = lineIn(source)
  if (line !== undefined) {
    found = { source, line }
    break
  }
}
if (found === undefined) fail(`no sh block of ${sources.join(", ")} has an "npm install" line naming ${wanted}`)
const args = wordsOf(found.line).slice(2)
if (args.some((a) => a.startsWith("-") || /[$`\\]/.test(a))) fail(`unexpected option or shell syntax in: ${found.line}`)

const tarballs = new Map(
  readdirSync(packs)
    .map((file) => [/^broker-history-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)?.[1], join(packs, file)])
    .filter(([name]) => name !== undefined)
)
const named = new Set()
const out = args.map((arg) => {
  const name = /^@broker-history\/([a-z0-9-]+)$/.exec(arg)?.[1]
  if (name === undefined) return arg
  if (!tarballs.has(name)) fail(`${arg} is in the install line, but ${packs} has no tarball of it`)
  named.add(name)
  return tarballs.get(name)
})
for (const [name, file] of tarballs) if (!named.has(name)) out.push(file)

// A package argument's name: `effect@^4`, `@effect/platform-node@^4.1.0` or a bare name.
const installs = new Set(args.map((arg) => arg.replace(/^(@?[^@]+)@.*$/, "$1")))
const optionalPeers = []
for (const file of tarballs.values()) {
  const pkg = JSON.parse(execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }))
  for (const [peer, range] of Object.entries(pkg.peerDependencies ?? {})) {
    if (pkg.peerDependenciesMeta?.[peer]?.optional === true && !installs.has(peer)) {
      installs.add(peer)
      optionalPeers.push(`${peer}@${range}`)
    }
  }
}
out.push(...optionalPeers)

const [path, heading] = found.source.split("#")
const where = heading === undefined ? path : `${path} (## ${heading})`
console.error(
  `   ${where}: ${found.line.replace(/\s+#.*$/, "").replace(/\s+/g, " ")}` +
    (optionalPeers.length > 0 ? `, with the optional peer(s) ${optionalPeers.join(" ")}` : "")
)
process.stdout.write(out.join("\n") + "\n")
