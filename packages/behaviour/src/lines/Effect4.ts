/**
 * The Effect 4 line (`@broker-history/client-effect4`) behind the suite's `Line`: the ready undici
 * layer built from the settings, each call run on one runtime that lives as long as the client.
 * `effect-4` is this package's name for effect 4 (an npm alias), the copy the line itself runs on.
 */
import { BrokerConfig, type BrokerError, BrokerHistory } from "@broker-history/client-effect4"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Redacted, Stream } from "effect-4"
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
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") throw Cause.squash(exit.cause)
  const failure = error.value
  return { _tag: "Failure", failure: { _tag: failure._tag, message: failure.message, fields: fieldsOf(failure) } }
}

/** The line under its suite name. */
export const line: Line = {
  name: "effect4",
  withClient: async (settings, use) => {
    const runtime = ManagedRuntime.make(
      BrokerHistory.layerUndici.pipe(Layer.provide(BrokerConfig.layer(options(settings))))
    )
    try {
      const history = await runtime.runPromise(Effect.service(BrokerHistory.BrokerHistory))
      const call = <A>(effect: Effect.Effect<A, BrokerError.BrokerError>) =>
        runtime.runPromiseExit(effect).then(outcomeOf)
      const collect = <A>(stream: Stream.Stream<A, BrokerError.BrokerError>, take: number | undefined) =>
        call(Stream.runCollect(take === undefined ? stream : Stream.take(stream, take)))
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
