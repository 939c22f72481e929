/**
 * The Effect 3 line (`@broker-history/client`) behind the suite's `Line`: the ready undici layer
 * built from the settings, each call run on one runtime that lives as long as the client.
 */
import { BrokerConfig, type BrokerError, BrokerHistory } from "@broker-history/client"
import { Cause, Chunk, Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Stream } from "effect"
import type { Client, Line, Outcome, Settings } from "../Line.js"
import { fieldsOf } from "../Line.js"

const options = (settings: Settings): BrokerConfig.Options => ({
  ...settings,
  apiKey: Redacted.make(settings.apiKey),
  secretKey: Redacted.make(settings.secretKey)
})

/** The outcome of an exit: a typed failure as data; a defect or an interruption is thrown. */
const outcomeOf = <A>(exit: Exit.Exit<A, { readonly _tag: string; readonly message: string }>): Outcome<A> => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) throw Cause.squash(exit.cause)
  const error = failure.value
  return { _tag: "Failure", failure: { _tag: error._tag, message: error.message, fields: fieldsOf(error) } }
}

/** The line under its suite name. */
export const line: Line = {
  name: "effect3",
  withClient: async (settings, use) => {
    const runtime = ManagedRuntime.make(
      BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer(options(settings))))
    )
    try {
      const history = await runtime.runPromise(BrokerHistory.BrokerHistory)
      const call = <A>(effect: Effect.Effect<A, BrokerError.BrokerError>) =>
        runtime.runPromiseExit(effect).then(outcomeOf)
      const collect = <A>(stream: Stream.Stream<A, BrokerError.BrokerError>, take: number | undefined) =>
        call(Effect.map(Stream.runCollect(take === undefined ? stream : Stream.take(stream, take)), Chunk.toArray))
      // The suite passes queries as plain objects (sometimes wrong on purpose): the line checks them.
      const client: Client = {
        transferHistory: (query) => call(history.transferHistory(query as never)),
        depositHistory: (query) => call(history.depositHistory(query as never)),
        subAccountList: (query) => call(history.subAccountList(query as never)),
        transfers: (query, take) => collect(history.transfers(query as never), take),
        deposits: (query, take) => collect(history.deposits(query as never), take),
        transferChanges: (query, take) => collect(history.transferChanges(query as never), take),
        depositChanges: (query, take) => collect(history.depositChanges(query as never), take),
        subAccounts: (options, take) => collect(history.subAccounts(options as never), take)
      }
      return await use(client)
    } finally {
      await runtime.dispose()
    }
  }
}
