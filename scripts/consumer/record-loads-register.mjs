// Preloaded with `node --import ./record-loads-register.mjs neutral.mjs`: registers the recording
// hook (record-loads.mjs) before the program under test loads, and when the process exits checks
// what the program resolved: no Node builtin (`node:*` or a bare builtin name), no undici, no
// @effect/platform-node. With RECORD_LOADS_WITHIN set to a directory, the check is instead that
// every module resolved is Node's own or a file in that directory (an installed bundle that loads
// nothing from node_modules). Only modules resolved after `register()` are recorded, so this file's
// own imports (node:fs, node:module) are not counted against the program.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { isBuiltin, register } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const dir = mkdtempSync(join(tmpdir(), "record-loads-"))
const log = join(dir, "loads.ndjson")
appendFileSync(log, "")
register("./record-loads.mjs", import.meta.url, { data: { log } })

const within = process.env.RECORD_LOADS_WITHIN
const inside = within === undefined ? undefined : pathToFileURL(within).href + "/"
const check = inside === undefined ?
  {
    name: "neutrality",
    what: "Node-only module(s)",
    ok: "none Node-only",
    forbidden: ({ specifier, url }) =>
      specifier.startsWith("node:") || isBuiltin(specifier) || url.startsWith("node:") ||
      /^undici(\/|$)/.test(specifier) || /\/node_modules\/undici\//.test(url) ||
      /^@effect\/platform-node(-shared)?(\/|$)/.test(specifier) || /\/node_modules\/@effect\/platform-node/.test(url)
  } :
  {
    name: "loads",
    what: `module(s) from outside ${within}`,
    ok: `all Node's own or in ${within}`,
    forbidden: ({ url }) => !url.startsWith("node:") && !url.startsWith(inside)
  }

process.on("exit", () => {
  const loads = readFileSync(log, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line))
  rmSync(dir, { recursive: true, force: true })
  const modules = new Set(loads.map((l) => l.url))
  const bad = loads.filter(check.forbidden)
  if (bad.length > 0) {
    console.error(`${check.name}: FAILED: the program loaded ${bad.length} ${check.what}:`)
    for (const l of bad) console.error(`  ${l.specifier} -> ${l.url} (imported by ${l.parent})`)
    process.exitCode = 1
  } else if (modules.size === 0) {
    console.error(`${check.name}: FAILED: nothing was recorded (is the hook registered?)`)
    process.exitCode = 1
  } else {
    // On stderr: the program's stdout is its output.
    console.error(`${check.name}: OK: ${modules.size} modules loaded (${loads.length} resolutions), ${check.ok}`)
  }
})
