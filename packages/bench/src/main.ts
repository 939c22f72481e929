/**
 * `pnpm bench`: runs every part at full size, prints one table and writes the raw figures to
 * `.bench/results.json` (package directory). Flags: `--smoke` (tiny sizes), `--only a,b` (parts:
 * throughput, memory, saturation, soak, sync, clustered, staleness, broker, startup, decoding), `--out <file>`, `--cpu-prof <dir>` (every throughput
 * and decoding contender process writes a CPU profile there; summarise one with `src/ProfileMain.ts`), `--shape short|long|both`,
 * `--rounds <n>` and `--contenders a,b` (the throughput part's datasets, rounds and contenders), `--against <git-rev>`
 * (the page calls, the stream, memory and the page decoder also with the client of that revision; see `Against.ts`). Run with `node --expose-gc` (the package's
 * `bench` script does) so that memory is measured after full collections.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as Against from "./Against.js"
import * as Bench from "./Bench.js"
import * as Contender from "./Contender.js"

const args = process.argv.slice(2)
const flag = (name: string) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const chosen = args.includes("--smoke") ? Bench.smoke : Bench.full
const profileDir = flag("--cpu-prof")
const shape = flag("--shape") ?? "both"
const rounds = flag("--rounds")
const contenders = flag("--contenders")?.split(",") as ReadonlyArray<Contender.Name> | undefined
if (!["short", "long", "both"].includes(shape) || contenders?.some((c) => !Contender.names.includes(c))) {
  console.error(`--shape takes short, long or both; --contenders takes ${Contender.names.join(", ")}`)
  process.exit(2)
}
const sizes: Bench.Sizes = {
  ...chosen,
  throughput: {
    ...chosen.throughput,
    datasets: chosen.throughput.datasets.filter((d) => shape === "both" || d.kind === shape),
    ...(rounds === undefined ? {} : { rounds: Number(rounds) }),
    ...(contenders === undefined ? {} : { only: contenders }),
    ...(profileDir === undefined ? {} : { profileDir: Path.resolve(profileDir) })
  },
  decoding: { ...chosen.decoding, ...(profileDir === undefined ? {} : { profileDir: Path.resolve(profileDir) }) }
}
const only = (flag("--only")?.split(",") ?? Bench.parts) as ReadonlyArray<Bench.Part>
const unknown = only.filter((p) => !Bench.parts.includes(p))
if (unknown.length > 0) {
  console.error(`unknown part(s): ${unknown.join(", ")}; parts: ${Bench.parts.join(", ")}`)
  process.exit(2)
}
const packageDir = Path.resolve(Path.dirname(fileURLToPath(import.meta.url)), "..")
const out = flag("--out") ?? Path.join(packageDir, ".bench", "results.json")

const log = (line: string) => console.log(`  ${line}`)
const againstRev = flag("--against")
const against = againstRev === undefined ? undefined : Against.prepare(againstRev, log)
const results = await Bench.run(sizes, only, log, against)
Fs.mkdirSync(Path.dirname(out), { recursive: true })
Fs.writeFileSync(out, JSON.stringify(results, null, 2) + "\n")
const m = results.machine
console.log(
  `\n${m.date}  Node ${m.node}  ${m.cpus} x ${m.cpuModel}  ${m.memoryGb} GB  load ${
    m.loadAverageAtStart.join(" ")
  }  gc ${m.gcExposed ? "exposed" : "NOT exposed (run with node --expose-gc)"}\n`
)
console.log(Bench.table(results))
console.log(`\nraw figures: ${Path.relative(process.cwd(), out)}`)
// Undici keeps idle sockets open for a while; the run is over.
process.exit(0)
