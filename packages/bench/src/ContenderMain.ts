/**
 * One contender of the throughput benchmark in a process of its own, forked by `Throughput.run`
 * (`node --expose-gc --import tsx src/ContenderMain.ts '<Job as JSON>'`, with an IPC channel).
 * It warms up, says `ready`, waits for `go`, reads the pages after a full collection and answers
 * `done` with the records read and its own wall and CPU time; it exits when the harness disconnects.
 *
 * @since 0.1.0
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import * as Contender from "./Contender.js"
import * as Measure from "./Measure.js"
import * as Profile from "./Profile.js"
import type * as Throughput from "./Throughput.js"

const job = JSON.parse(process.argv[2] ?? "") as Throughput.Job
const send = (message: Throughput.Message) => process.send!(message)
/** Under `--cpu-prof`, the measured reading's time span goes beside the profiles (`ProfileMain` reads it). */
const profileDir = process.execArgv.find((a) => a.startsWith("--cpu-prof-dir="))?.slice("--cpu-prof-dir=".length)
const micros = () => Number(process.hrtime.bigint() / 1000n)

try {
  const contender = await Contender.make(job.name, job.baseUrl, job.shape, job.against)
  if (job.warmupPages > 0) await contender.read(0, Math.min(job.warmupPages, job.shape.pages))
  process.once("disconnect", () => {
    void contender.close().finally(() => process.exit(0))
  })
  process.once("message", () => {
    let from = 0
    void Measure.timed(() => {
      from = micros()
      return contender.read(0, job.shape.pages)
    }).then(
      ({ result, timing }) => {
        if (profileDir !== undefined) {
          Fs.mkdirSync(profileDir, { recursive: true })
          Fs.writeFileSync(Path.join(profileDir, Profile.windowFile), JSON.stringify({ from, to: micros() }))
        }
        send({ type: "done", records: result, ...timing })
      },
      (error: unknown) => {
        send({ type: "failed", message: String(error) })
        process.exit(1)
      }
    )
  })
  send({ type: "ready" })
} catch (error) {
  send({ type: "failed", message: String(error) })
  process.exit(1)
}
