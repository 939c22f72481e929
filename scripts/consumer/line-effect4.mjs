// The Effect 4 line's modules, as the line-neutral checks (neutral.mjs, neutral-runtime.mjs) import
// them: run.sh copies this file as line.mjs into the Effect 4 project. Imports nothing from Node.
export { BrokerConfig, BrokerHistory } from "@broker-history/client-effect4"
export { DepositRecord, TransferRecord } from "@broker-history/domain-effect4"
export * as FetchHttpClient from "effect/http/FetchHttpClient"

export const line = "Effect 4"
