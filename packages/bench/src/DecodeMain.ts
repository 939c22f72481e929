/**
 * One contender of the decoding part in a process of its own, forked by `Decoding.run`
 * (`node --expose-gc --import tsx src/DecodeMain.ts '<Job as JSON>'`, with an IPC channel). It builds
 * the pages, checks its contender once on every page (each valid page gives all its records, each
 * broken page an error that names `amount`), warms up, says `ready`, waits for `go`, then decodes
 * every page of each kind `passes` times after a full collection and answers `done` with its wall and
 * CPU time per kind.
 *
 * @since 0.2.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as DecodeContenders from "./DecodeContenders.js"
import * as DecodePages from "./DecodePages.js"
import type * as Decoding from "./Decoding.js"
import * as Measure from "./Measure.js"
import * as Profile from "./Profile.js"

const job = JSON.parse(process.argv[2] ?? "") as Decoding.Job
const send = (message: Decoding.Message) => process.send!(message)
const profileDir = process.execArgv.find((a) => a.startsWith("--cpu-prof-dir="))?.slice("--cpu-prof-dir=".length)
const micros = () => Number(process.hrtime.bigint() / 1000n)

try {
  const pages = DecodePages.make(job.sizes)
  const contender = await DecodeContenders.make(job.name, job.against)
  const decodeOf = (kind: DecodePages.Kind) => kind === "deposits" ? contender.deposits : contender.transfers
  for (const kind of DecodePages.kinds) {
    const decode = decodeOf(kind)
    for (const page of pages[kind]) {
      const outcome = decode(page)
      const right = kind === "broken"
        ? typeof outcome === "string" && outcome.includes("amount")
        : typeof outcome !== "string" && outcome.length === page.length
      if (!right) throw new Error(`${job.name} decoded a ${kind} page wrongly: ${String(outcome).slice(0, 300)}`)
    }
  }
  // Returns the sum of the outcomes' lengths, so that no decoding can be left out as unused.
  const decodeAll = (kind: DecodePages.Kind, passes: number): number => {
    const decode = decodeOf(kind)
    let sink = 0
    for (let pass = 0; pass < passes; pass++) {
      for (const page of pages[kind]) sink += decode(page).length
    }
    return sink
  }
  for (const kind of DecodePages.kinds) decodeAll(kind, job.warmupPasses)
  process.once("disconnect", () => process.exit(0))
  process.once("message", () => {
    void (async () => {
      const from = micros()
      const timings: Array<Decoding.Timing> = []
      for (const kind of DecodePages.kinds) {
        const { timing } = await Measure.timed(async () => decodeAll(kind, job.passes))
        const records = pages[kind].reduce((n, page) => n + page.length, 0)
        timings.push({ kind, pages: pages[kind].length * job.passes, records: records * job.passes, ...timing })
      }
      if (profileDir !== undefined) {
        Fs.mkdirSync(profileDir, { recursive: true })
        Fs.writeFileSync(Path.join(profileDir, Profile.windowFile), JSON.stringify({ from, to: micros() }))
      }
      send({ type: "done", timings })
    })().catch((error: unknown) => {
      send({ type: "failed", message: String(error) })
      process.exit(1)
    })
  })
  send({ type: "ready" })
} catch (error) {
  send({ type: "failed", message: String(error) })
  process.exit(1)
}
