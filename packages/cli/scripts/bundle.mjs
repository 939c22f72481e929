// The published `broker-history` executable: one ES module bundle of src/main.ts (esbuild, Node 20)
// with the workspace's packages and every pure-JavaScript dependency inside, so that starting the
// CLI reads a few files instead of resolving ~760 modules (packages/cli/README.md, "How the published
// CLI is built"). What only some commands need (sync's drivers and migrator, the reference service,
// OpenTelemetry, the Node transport) stays behind the sources' own `import()`, each a lazy chunk.
// Native addons cannot be bundled: they are left to Node to resolve from the installed package
// (better-sqlite3 is an optional dependency of the CLI for that reason).
// Usage: node scripts/bundle.mjs [--outdir DIR] [--sourcemap] [--metafile FILE]
import * as esbuild from "esbuild"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

const { values } = parseArgs({
  options: {
    outdir: { type: "string", default: Path.join(packageDir, "dist/bin") },
    sourcemap: { type: "boolean", default: false },
    metafile: { type: "string" }
  }
})

// Native addons, resolved by Node at run time: better-sqlite3 (SQLite), and the optional ones that
// ws (bufferutil, utf-8-validate) and pg (pg-native) try to load and do without when missing.
const external = ["better-sqlite3", "bufferutil", "utf-8-validate", "pg-native"]

const outdir = Path.resolve(values.outdir)
// Chunk names carry a content hash: a stale chunk of an earlier build must not ship beside the new
// ones, so the directory is emptied first; only a new or empty one, or an earlier bundle's.
if (
  Fs.existsSync(outdir) && Fs.readdirSync(outdir).length > 0 &&
  !Fs.existsSync(Path.join(outdir, "broker-history.js"))
) {
  console.error(
    `bundle: ${outdir} is neither empty nor an earlier bundle (no broker-history.js): name a new or empty directory`
  )
  process.exit(2)
}
Fs.rmSync(outdir, { recursive: true, force: true })

const result = await esbuild.build({
  absWorkingDir: packageDir,
  entryPoints: { "broker-history": "src/main.ts" },
  outdir,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  tsconfig: "tsconfig.src.json",
  external,
  // Bundled CommonJS dependencies (undici, pg, OpenTelemetry's) call `require` for Node's built-in
  // modules and the external addons: an ES module has none, so each output file gets one.
  banner: {
    js: "import { createRequire as __bhCreateRequire } from \"node:module\";\n" +
      "const require = __bhCreateRequire(import.meta.url);"
  },
  sourcemap: values.sourcemap ? "linked" : false,
  legalComments: "eof",
  metafile: true,
  logLevel: "warning"
})

if (values.metafile !== undefined) Fs.writeFileSync(values.metafile, JSON.stringify(result.metafile))
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"))
const bytes = outputs.reduce((n, [, output]) => n + output.bytes, 0)
console.log(
  `bundle: ${Path.relative(packageDir, outdir)}/broker-history.js and ${outputs.length - 1} chunks, ${
    (bytes / 1e6).toFixed(1)
  } MB`
)
