// API reference: runs @effect/docgen in every package that has a `docgen.json` and publishes the
// pages to docs/api/<package folder>/ (committed, so GitHub shows them; CI regenerates them and fails
// on any difference). A package is documented once it has a `docgen.json`: nothing to add here.
//
// docgen fails (and so does this script) when an export has no `@since`, description or `@example`,
// or when an example does not type-check or throws: the examples are compiled and run. docgen skips
// the examples of classes and of re-exports; this script checks those the same way.
//
// docgen writes into the package, to `outDir` ("build", ignored by git), because it compiles the
// examples in `<outDir>/examples` with the imports of the package's own name rewritten to
// `../../src`: they resolve only when `outDir` is a folder directly inside the package. The module
// pages are then copied from `<outDir>/modules` to docs/api/<package folder>/, without the front
// matter meant for a Jekyll site, with a README.md that lists them.
//
// Usage: node scripts/docs.mjs [packages/<name> ...]   (default: every packages/*/docgen.json)
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const root = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const docgen = createRequire(Path.join(root, "package.json")).resolve("@effect/docgen/bin.cjs")
// docgen runs `tsc` and `tsx` on the examples: the workspace's own.
const env = { ...process.env, PATH: [Path.join(root, "node_modules", ".bin"), process.env.PATH].join(Path.delimiter) }

const requested = process.argv.slice(2)
const packages = requested.length > 0
  ? requested.map((dir) => Path.resolve(root, dir))
  : readdirSync(Path.join(root, "packages")).sort().map((name) => Path.join(root, "packages", name))
    .filter((dir) => existsSync(Path.join(dir, "docgen.json")))

// Pages of a package that is no longer documented go too (only on a full run).
if (requested.length === 0 && existsSync(Path.join(root, "docs", "api"))) {
  const documented = new Set(packages.map((dir) => Path.basename(dir)))
  for (const name of readdirSync(Path.join(root, "docs", "api"))) {
    if (!documented.has(name)) rmSync(Path.join(root, "docs", "api", name), { recursive: true, force: true })
  }
}

const failed = []
for (const dir of packages) {
  const name = Path.basename(dir)
  const started = Date.now()
  console.log(`== docgen: packages/${name}`)
  const run = spawnSync(process.execPath, [docgen], { cwd: dir, env, stdio: "inherit" })
  if (run.status !== 0 || !checkExamplesDocgenSkips(dir)) {
    failed.push(name)
    continue
  }
  publish(dir, name)
  console.log(`== packages/${name}: docs/api/${name} written (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
if (failed.length > 0) {
  console.error(`API reference failed for ${failed.map((name) => `packages/${name}`).join(", ")} (see above)`)
  process.exit(1)
}

/**
 * docgen 0.5 compiles and runs the examples of functions, constants, interfaces, types and class
 * members, but not those of classes themselves or of re-exports (`export * as X`): this does it for
 * those, the way docgen does (same compiler options, the package's own imports rewritten to its
 * sources, `assert` imported when used). True when they all compile and run.
 */
function checkExamplesDocgenSkips(dir) {
  const config = JSON.parse(readFileSync(Path.join(dir, "docgen.json"), "utf8"))
  const pkgName = JSON.parse(readFileSync(Path.join(dir, "package.json"), "utf8")).name
  const srcDir = Path.join(dir, config.srcDir ?? "src")
  const excluded = (config.exclude ?? []).map((glob) =>
    new RegExp(
      "^" + glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*\//g, "(?:.*/)?").replace(/\*/g, "[^/]*") + "$"
    )
  )
  const ts = createRequire(Path.join(root, "package.json"))("typescript")
  const examples = []
  const sources = readdirSync(srcDir, { recursive: true }).map((f) => f.split(Path.sep).join("/"))
  for (const file of sources.filter((f) => f.endsWith(".ts")).sort()) {
    const relative = Path.relative(dir, Path.join(srcDir, file)).split(Path.sep).join("/")
    if (excluded.some((re) => re.test(relative))) continue
    const text = readFileSync(Path.join(srcDir, file), "utf8")
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    for (const statement of source.statements) {
      const exported = ts.isClassDeclaration(statement)
        ? statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && statement.name?.text
        : ts.isExportDeclaration(statement) && statement.exportClause?.kind !== ts.SyntaxKind.NamedExports &&
          (statement.exportClause?.name.text ?? "star")
      if (!exported) continue
      // The statement's own comment: the last JSDoc comment before it.
      const comment = (ts.getLeadingCommentRanges(text, statement.pos) ?? [])
        .map((range) => text.slice(range.pos, range.end)).filter((c) => c.startsWith("/**")).at(-1) ?? ""
      const jsdoc = comment.split("\n").map((line) => line.replace(/^\s*\*(?: |$)/, "")).join("\n")
      for (const [, body] of jsdoc.matchAll(/@example\s*\n```ts\n([\s\S]*?)\n```/g)) {
        examples.push({ name: `${file.slice(0, -3).replaceAll("/", "-")}-${exported}-${examples.length}`, body })
      }
    }
  }
  if (examples.length === 0) return true
  // A folder directly inside outDir, as docgen's own examples folder, so that `../../src` resolves.
  const folder = Path.join(dir, config.outDir ?? "docs", "examples-docgen-skips")
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  const own = new RegExp(`from (['"])${pkgName.replace(/[/.]/g, "\\$&")}(?:/(.*?))?\\1`, "g")
  for (const { body, name } of examples) {
    const code = body.replace(own, (_, _quote, path) => `from "../../src${path === undefined ? "" : `/${path}`}"`)
    writeFileSync(
      Path.join(folder, `${name}.ts`),
      (code.includes("assert.") ? `import * as assert from "assert"\n` : "") + code + "\n"
    )
  }
  writeFileSync(Path.join(folder, "index.ts"), examples.map(({ name }) => `import "./${name}"\n`).join(""))
  writeFileSync(
    Path.join(folder, "tsconfig.json"),
    JSON.stringify({ compilerOptions: config.examplesCompilerOptions ?? {} }, null, 2)
  )
  console.log(`== packages/${Path.basename(dir)}: ${examples.length} example(s) of classes and re-exports`)
  const tsconfig = Path.join(folder, "tsconfig.json")
  const ok = [["tsc", "--noEmit", "--project", tsconfig], [
    "tsx",
    "--tsconfig",
    tsconfig,
    Path.join(folder, "index.ts")
  ]]
    .every(([command, ...args]) => spawnSync(command, args, { cwd: dir, env, stdio: "inherit" }).status === 0)
  if (ok) rmSync(folder, { recursive: true, force: true })
  return ok
}

function publish(dir, name) {
  const config = JSON.parse(readFileSync(Path.join(dir, "docgen.json"), "utf8"))
  const modules = Path.join(dir, config.outDir ?? "docs", "modules")
  const pkg = JSON.parse(readFileSync(Path.join(dir, "package.json"), "utf8"))
  const dest = Path.join(root, "docs", "api", name)
  rmSync(dest, { recursive: true, force: true })
  mkdirSync(dest, { recursive: true })
  const entries = []
  // The package index first, then the modules in alphabetical order (by path: modules in folders,
  // such as core's `walk/Boundary.ts`, get pages in the same folders).
  const files = readdirSync(modules, { recursive: true }).map((f) => f.split(Path.sep).join("/"))
    .filter((f) => f.endsWith(".ts.md")).sort((a, b) =>
      a === "index.ts.md" ? -1 : b === "index.ts.md" ? 1 : a < b ? -1 : 1
    )
  for (const file of files) {
    // The front matter (title, nav_order, parent) is for a Jekyll site, and docgen 0.5 writes its
    // first `---` as `***`; GitHub would show it as text under a rule.
    const page = readFileSync(Path.join(modules, file), "utf8")
      .replace(/^(?:\*\*\*|---)\n+title: [^\n]*\nnav_order: [^\n]*\nparent: [^\n]*\n---\n+/, "")
    const up = "../".repeat(file.split("/").length - 1)
    mkdirSync(Path.dirname(Path.join(dest, file)), { recursive: true })
    writeFileSync(Path.join(dest, file), `[\`${pkg.name}\` API reference](${up}README.md)\n\n` + page)
    const module = file.slice(0, -".ts.md".length)
    const overview = /^## \S+ overview\n\n([\s\S]*?)\n\n/m.exec(page)?.[1].replace(/\s*\n\s*/g, " ")
    entries.push(`- [${module}](${file})${overview === undefined ? "" : `: ${overview}`}`)
  }
  writeFileSync(
    Path.join(dest, "README.md"),
    [
      `# \`${pkg.name}\` API reference`,
      "",
      pkg.description,
      "",
      `Every export of \`packages/${name}/src\` with its signature, an example (type-checked and run) and`,
      "the version that added it. Generated from the source's JSDoc by `pnpm run docs` (`scripts/docs.mjs`,",
      "`@effect/docgen`): edit the source, not these pages.",
      "",
      ...entries,
      ""
    ].join("\n")
  )
}
