// The Effect 3 line's modules, as the line-neutral checks (neutral.mjs, neutral-runtime.mjs) import
// them: run.sh copies this file as line.mjs into the Effect 3 project. Imports nothing from Node.
export { BrokerConfig, BrokerHistory } from "@broker-history/client"
export { DepositRecord, TransferRecord } from "@broker-history/domain"
// The subpath, not the "@effect/platform" barrel: on Node the barrel also loads MsgPack, whose
// msgpackr dependency resolves to its Node entry (node:module, node:stream).
export * as FetchHttpClient from "@effect/platform/FetchHttpClient"

export const line = "Effect 3"
