/**
 * Which transfer streams cover a broker's history. One transfer query covers one account pair and
 * one ordered pair of account types, and an omitted account is the master account
 * (docs/wire-contract.md), so the whole broker is: for every sub-account and every ordered pair of
 * account types, master→sub and sub→master, plus the master's own transfers; explicit pairs
 * (sub→sub included) may be given instead or besides. Each planned stream carries its stable key
 * and, when the sub-account list gave a creation time, where its history starts
 * (docs/streams.md, "Planning the whole broker"). Pure: the plan is
 * `@broker-history/core/plan/TransferPlan`, re-exported here.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the re-export.
import type {} from "@broker-history/core/plan/TransferPlan"

/**
 * Everything of `@broker-history/core/plan/TransferPlan`: the models (`Account`, `Pair`,
 * `TransferQuery`, `PlannedStream`), a stream's stable `key`, `nameOf`, `createdAt`, `typePairs`,
 * `defaultPairs`, `withListed`, `streams` and `ofSubAccounts`. A planned stream's query is what
 * `BrokerHistory.transferChanges` and `followTransfers` take.
 *
 * @example
 * ```ts
 * import type { StreamOptions } from "@broker-history/client-effect4"
 * import { TransferPlan } from "@broker-history/client-effect4"
 *
 * const planned = TransferPlan.ofSubAccounts([{ subAccount: "a@x", note: "", timestamp: 1700000000000 }], ["SPOT"])
 * assert.strictEqual(planned.length, 3) // master→master, master→a@x, a@x→master
 * const query: StreamOptions.TransferStreamQuery = { ...planned[1]!.query, since: "2025-01-01" }
 * assert.strictEqual(query.toAccount, "a@x")
 * assert.strictEqual(TransferPlan.key(planned[1]!.query), '["transfers","SPOT","SPOT",null,"a@x"]')
 * ```
 *
 * @since 0.2.0
 * @category exports
 */
export * from "@broker-history/core/plan/TransferPlan"
