/**
 * The memory part of the bench against an earlier revision: the current client and the copy's, each
 * in a fresh process of its own (`MemoryMain.ts`).
 */
import type { Copy } from "./Against.js"
import * as Built from "./Built.js"
import * as ContenderProcess from "./ContenderProcess.js"
import type * as Memory from "./Memory.js"

/**
 * What a memory process is told to do (its command-line argument, as JSON): the current client when
 * `against` is absent.
 *
 * @example
 * import type { MemoryAgainst } from "@broker-history/bench"
 * const job: MemoryAgainst.MemoryJob = { options: { records: 20_000, checkpoint: 10_000, rounds: 1 } }
 */
export interface MemoryJob {
  readonly options: Memory.Options
  readonly against?: Copy | undefined
}

/**
 * What a memory process says: log lines, then its result (or why it failed).
 *
 * @example
 * import type { MemoryAgainst } from "@broker-history/bench"
 * const line = (m: MemoryAgainst.MemoryMessage) => (m.type === "log" ? m.line : undefined)
 */
export type MemoryMessage =
  | { readonly type: "log"; readonly line: string }
  | { readonly type: "done"; readonly result: Memory.Result }
  | { readonly type: "failed"; readonly message: string }

/**
 * The memory part with the current client and with the copy's, each in a fresh process of its own
 * (`MemoryMain.ts`), one after the other, so that neither shares a heap with the other or with the
 * harness.
 *
 * @example
 * import type { MemoryAgainst } from "@broker-history/bench"
 * const grew = (m: MemoryAgainst.MemoryVersus) => m.against.medianStreamAtEnd - m.current.medianStreamAtEnd
 */
export interface MemoryVersus {
  readonly rev: string
  readonly current: Memory.Result
  readonly against: Memory.Result
}

const memoryProcess = (job: MemoryJob, log: (line: string) => void): Promise<Memory.Result> =>
  new Promise((resolve, reject) => {
    const child = ContenderProcess.fork("MemoryMain.ts", job)
    const who = job.against === undefined ? "current" : `@${job.against.rev}`
    let result: Memory.Result | undefined
    let failure: string | undefined
    child.once("error", reject)
    child.on("message", (message: MemoryMessage) => {
      if (message.type === "log") log(`${who}: ${message.line}`)
      else if (message.type === "done") result = message.result
      else failure = message.message
    })
    child.once("exit", (code, signal) => {
      if (result !== undefined) resolve(result)
      else reject(new Error(`memory process (${who}) failed: ${failure ?? `exited with ${code ?? signal}`}`))
    })
  })

/**
 * Runs the memory part once with the current client and once with the copy's, each in its own process.
 *
 * @example
 * import { Against, MemoryAgainst } from "@broker-history/bench"
 * const copy = Against.prepare("HEAD~1")
 * const both = await MemoryAgainst.memory({ records: 20_000, checkpoint: 10_000, rounds: 1 }, copy)
 */
export const memory = async (
  options: Memory.Options,
  copy: Copy,
  log: (line: string) => void = () => {}
): Promise<MemoryVersus> => {
  Built.clients(Built.packagesDir)
  const current = await memoryProcess({ options }, log)
  const against = await memoryProcess({ options, against: copy }, log)
  return { rev: copy.rev, current, against }
}
