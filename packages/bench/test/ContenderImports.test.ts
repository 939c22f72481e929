// A contender process loads only its own libraries: the harness code it runs (the contenders, the
// page dataset) brings no `effect` of its own. Otherwise the `--against` and Effect 4 processes held a
// second `effect` beside the client's (its global state shared with the client's copy made the same
// client ~8 % slower as `@<rev>`), and the raw loops carried a runtime they do not use.
import { describe, expect, it } from "@effect/vitest"
import * as ChildProcess from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")

// A module hook that reports every module file a process loads, on stderr.
const reportLoads = `export async function load(url, context, next) {
  process.stderr.write("loaded " + url + "\\n")
  return next(url, context)
}`
const register = `import { register } from "node:module"; register(${
  JSON.stringify(`data:text/javascript,${encodeURIComponent(reportLoads)}`)
})`

const loadedBy = (module: string): ReadonlyArray<string> => {
  const run = ChildProcess.spawnSync(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(`./src/${module}`)})`
    ],
    { cwd: packageDir, encoding: "utf8" }
  )
  expect(run.status).toBe(0)
  return run.stderr.split("\n").filter((line) => line.startsWith("loaded ")).map((line) => line.slice(7))
}

describe("the modules of a contender process", () => {
  it("the contenders and the page dataset load no effect", () => {
    const loaded = loadedBy("Contender.ts")
    // The hook sees the contender module itself, so an empty list would not pass by accident.
    expect(loaded.some((url) => url.endsWith("/src/Contender.ts"))).toBe(true)
    expect(loaded.filter((url) => /\/node_modules\/(\.pnpm\/effect@[^/]+\/node_modules\/)?effect\//.test(url)))
      .toEqual([])
  }, 60_000)
})
