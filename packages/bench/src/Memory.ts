/**
 * Memory: the `BrokerHistory.transfers` stream reads a large history from the page server, counting
 * and dropping the records; the heap in use after a full garbage collection is measured against the
 * heap before the stream started, after 10,000 records and after the last one (inside the stream,
 * so the stream's own state is included). Beside it, the buffering baseline: `Stream.runCollect` of
 * the same history. Needs `node --expose-gc`.
 *
 * @since 0.1.0
 */
import * as ApiKeys from "@broker-history/server/ApiKeys"
import * as Against from "./Against.js"
import * as Measure from "./Measure.js"
import * as PageServer from "./PageServer.js"

/**
 * How much to stream and how often.
 *
 * @example
 * import type { Memory } from "@broker-history/bench"
 * const smoke: Memory.Options = { records: 20_000, checkpoint: 10_000, rounds: 1 }
 */
export interface Options {
  /** Records streamed (a multiple of 500). */
  readonly records: number
  /** The early measuring point. */
  readonly checkpoint: number
  readonly rounds: number
}

/**
 * One round: heap growth (bytes) of the streaming reader at the checkpoint and at the end, and of the
 * buffering baseline holding everything.
 *
 * @example
 * import type { Memory } from "@broker-history/bench"
 * const drift = (r: Memory.Round) => r.streamAtEnd - r.streamAtCheckpoint
 */
export interface Round {
  readonly streamAtCheckpoint: number
  readonly streamAtEnd: number
  readonly collected: number
  readonly records: number
}

/**
 * Medians over rounds, in bytes.
 *
 * @example
 * import type { Memory } from "@broker-history/bench"
 * const mb = (r: Memory.Result) => r.medianStreamAtEnd / 1e6
 */
export interface Result {
  readonly options: Options
  readonly gcAvailable: boolean
  readonly rounds: ReadonlyArray<Round>
  readonly medianStreamAtCheckpoint: number
  readonly medianStreamAtEnd: number
  readonly medianCollected: number
}

/**
 * Runs the memory benchmark against a fresh page server (always stopped), with the current client or
 * with that of a prepared copy of another revision (`against`, loaded in this process).
 *
 * @example
 * import { Memory } from "@broker-history/bench"
 * const result = await Memory.run({ records: 20_000, checkpoint: 10_000, rounds: 1 })
 */
export const run = async (
  options: Options,
  log: (line: string) => void = () => {},
  against?: Against.Copy | undefined
): Promise<Result> => {
  const { BrokerConfig, BrokerHistory, Chunk, Effect, Layer, ManagedRuntime, Redacted, Stream } = await Against.load(
    against
  )
  const pages = Math.ceil(options.records / PageServer.pageSize)
  const shape: PageServer.Shape = { ...PageServer.defaultShape, pages }
  const total = pages * PageServer.pageSize
  const server = await PageServer.spawn(shape)
  const runtime = ManagedRuntime.make(BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer({
    baseUrl: server.baseUrl,
    apiKey: Redacted.make(ApiKeys.demo.apiKey),
    secretKey: Redacted.make(ApiKeys.demo.secretKey),
    rateLimit: { limit: 10_000, interval: "1 millis" }
  }))))
  try {
    const history = await runtime.runPromise(BrokerHistory.BrokerHistory)
    const [since, until] = PageServer.range(shape)
    const stream = history.transfers({ fromAccountType: "SPOT", toAccountType: "FUTURES", since, until })
    // Warm-up: code paths compiled, connection open, before any baseline is taken.
    await runtime.runPromise(Stream.runDrain(Stream.take(stream, Math.min(total, 20_000))))

    // Each measurement in its own function, so that nothing of one (a closure, a collected chunk)
    // is still reachable from the next.
    const streamed = async () => {
      const base = Measure.heapAfterGc()
      let seen = 0
      let atCheckpoint = Number.NaN
      let atEnd = Number.NaN
      await runtime.runPromise(Stream.runForEachChunk(stream, (chunk) =>
        Effect.sync(() => {
          const before = seen
          seen += Chunk.size(chunk)
          if (before < options.checkpoint && seen >= options.checkpoint) atCheckpoint = Measure.heapAfterGc() - base
          if (seen === total) atEnd = Measure.heapAfterGc() - base
        })))
      if (seen !== total) throw new Error(`the stream read ${seen} records, expected ${total}`)
      return { atCheckpoint, atEnd }
    }
    const collected = async () => {
      const base = Measure.heapAfterGc()
      const all = await runtime.runPromise(Stream.runCollect(stream))
      const growth = Measure.heapAfterGc() - base
      if (Chunk.size(all) !== total) throw new Error(`collected ${Chunk.size(all)} records, expected ${total}`)
      return growth
    }

    const rounds: Array<Round> = []
    for (let round = 0; round < options.rounds; round++) {
      const { atCheckpoint, atEnd } = await streamed()
      const growth = await collected()
      rounds.push({ streamAtCheckpoint: atCheckpoint, streamAtEnd: atEnd, collected: growth, records: total })
      log(
        `memory round ${round + 1}/${options.rounds}: stream +${
          (atCheckpoint / 1e6).toFixed(2)
        } MB at ${options.checkpoint}, +${(atEnd / 1e6).toFixed(2)} MB at ${total}; collect +${
          (growth / 1e6).toFixed(1)
        } MB`
      )
    }
    return {
      options,
      gcAvailable: Measure.canCollectGarbage(),
      rounds,
      medianStreamAtCheckpoint: Measure.median(rounds.map((r) => r.streamAtCheckpoint)),
      medianStreamAtEnd: Measure.median(rounds.map((r) => r.streamAtEnd)),
      medianCollected: Measure.median(rounds.map((r) => r.collected))
    }
  } finally {
    await runtime.dispose()
    await server.stop()
  }
}
