/**
 * Prints the top self-time functions of CPU profiles:
 * `node --import tsx src/ProfileMain.ts [--top N] FILE.cpuprofile...` (several files are added up;
 * where a contender's `measured.json` lies beside a file, only its measured reading counts).
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Profile from "./Profile.js"

const args = process.argv.slice(2)
const topAt = args.indexOf("--top")
const top = topAt === -1 ? 15 : Number(args[topAt + 1])
const files = args.filter((_, i) => topAt === -1 || (i !== topAt && i !== topAt + 1))
const read = (file: string) => JSON.parse(Fs.readFileSync(file, "utf8")) as unknown
const entries = Profile.selfTime(files.map((file) => {
  const window = Path.join(Path.dirname(file), Profile.windowFile)
  return {
    profile: read(file) as Profile.CpuProfile,
    window: Fs.existsSync(window) ? read(window) as Profile.Window : undefined
  }
}))
for (const e of entries.slice(0, top)) console.log(`${e.share.toFixed(1).padStart(5)} %  ${e.name}`)
