/**
 * The memory part in a process of its own, forked by `MemoryAgainst.memory`
 * (`node --expose-gc --import tsx src/MemoryMain.ts '<MemoryJob as JSON>'`, with an IPC channel):
 * it runs `Memory.run` with the current client or with that of the copy in the job, sends its log
 * lines and its result, and exits.
 *
 * @since 0.1.0
 */
import * as Memory from "./Memory.js"
import type * as MemoryAgainst from "./MemoryAgainst.js"

const job = JSON.parse(process.argv[2] ?? "") as MemoryAgainst.MemoryJob
const send = (message: MemoryAgainst.MemoryMessage, then: () => void = () => {}) => process.send!(message, then)

try {
  const result = await Memory.run(job.options, (line) => send({ type: "log", line }), job.against)
  send({ type: "done", result }, () => process.exit(0))
} catch (error) {
  send({ type: "failed", message: String(error) }, () => process.exit(1))
}
