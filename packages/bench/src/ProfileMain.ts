/**
 * Prints the top self-time functions of CPU profiles:
 * `node --import tsx src/ProfileMain.ts [--top N] FILE.cpuprofile...` (several files are added up).
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Profile from "./Profile.js"

const args = process.argv.slice(2)
const topAt = args.indexOf("--top")
const top = topAt === -1 ? 15 : Number(args[topAt + 1])
const files = args.filter((_, i) => topAt === -1 || (i !== topAt && i !== topAt + 1))
const entries = Profile.selfTime(files.map((f) => JSON.parse(Fs.readFileSync(f, "utf8")) as Profile.CpuProfile))
for (const e of entries.slice(0, top)) console.log(`${e.share.toFixed(1).padStart(5)} %  ${e.name}`)
