/**
 * `@broker-history/core`: the Effect-free engine shared by the Effect 3 packages
 * (`@broker-history/domain`, `@broker-history/client`) and the Effect 4 packages
 * (`@broker-history/domain-effect4`, `@broker-history/client-effect4`). Every module is also its own
 * subpath (`@broker-history/core/walk/WindowPlan`); `signing/NodeSignature` is only a subpath, so
 * importing the index loads no `node:*` module.
 *
 * @since 0.2.0
 */
// docgen reads the first statement's leading comment as the module's; this erased type-only import
// keeps that comment from also being read as the documentation of the first re-export.
import type {} from "./walk/Boundary.js"

/**
 * `walk/Boundary`.
 *
 * @since 0.2.0
 */
export * as Boundary from "./walk/Boundary.js"
/**
 * `walk/ChangePoint`.
 *
 * @since 0.2.0
 */
export * as ChangePoint from "./walk/ChangePoint.js"
/**
 * `walk/Checkpoint`.
 *
 * @since 0.2.0
 */
export * as Checkpoint from "./walk/Checkpoint.js"
/**
 * `walk/Crowded`.
 *
 * @since 0.2.0
 */
export * as Crowded from "./walk/Crowded.js"
/**
 * `walk/Emission`.
 *
 * @since 0.2.0
 */
export * as Emission from "./walk/Emission.js"
/**
 * `walk/PageOrder`.
 *
 * @since 0.2.0
 */
export * as PageOrder from "./walk/PageOrder.js"
/**
 * `walk/Settlement`.
 *
 * @since 0.2.0
 */
export * as Settlement from "./walk/Settlement.js"
/**
 * `walk/WindowFill`.
 *
 * @since 0.2.0
 */
export * as WindowFill from "./walk/WindowFill.js"
/**
 * `walk/WindowLimit`.
 *
 * @since 0.2.0
 */
export * as WindowLimit from "./walk/WindowLimit.js"
/**
 * `walk/WindowPlan`.
 *
 * @since 0.2.0
 */
export * as WindowPlan from "./walk/WindowPlan.js"
/**
 * `budget/AdaptiveRate`.
 *
 * @since 0.2.0
 */
export * as AdaptiveRate from "./budget/AdaptiveRate.js"
/**
 * `budget/SlidingWindow`.
 *
 * @since 0.2.0
 */
export * as SlidingWindow from "./budget/SlidingWindow.js"
/**
 * `follow/PollSchedule`.
 *
 * @since 0.2.0
 */
export * as PollSchedule from "./follow/PollSchedule.js"
/**
 * `request/JsonBody`.
 *
 * @since 0.2.0
 */
export * as JsonBody from "./request/JsonBody.js"
/**
 * `request/ServerText`.
 *
 * @since 0.2.0
 */
export * as ServerText from "./request/ServerText.js"
/**
 * `query/QueryCheck`.
 *
 * @since 0.2.0
 */
export * as QueryCheck from "./query/QueryCheck.js"
/**
 * `record/Decimal`.
 *
 * @since 0.2.0
 */
export * as Decimal from "./record/Decimal.js"
/**
 * `record/Field`.
 *
 * @since 0.2.0
 */
export * as Field from "./record/Field.js"
/**
 * `record/TransferRecord`.
 *
 * @since 0.2.0
 */
export * as TransferRecord from "./record/TransferRecord.js"
/**
 * `record/DepositRecord`.
 *
 * @since 0.2.0
 */
export * as DepositRecord from "./record/DepositRecord.js"
/**
 * `record/SubAccount`.
 *
 * @since 0.2.0
 */
export * as SubAccount from "./record/SubAccount.js"
/**
 * `protocol/Endpoint`.
 *
 * @since 0.2.0
 */
export * as Endpoint from "./protocol/Endpoint.js"
/**
 * `protocol/ErrorBody`.
 *
 * @since 0.2.0
 */
export * as ErrorBody from "./protocol/ErrorBody.js"
/**
 * `signing/QueryString`.
 *
 * @since 0.2.0
 */
export * as QueryString from "./signing/QueryString.js"
/**
 * `signing/Signature`.
 *
 * @since 0.2.0
 */
export * as Signature from "./signing/Signature.js"
/**
 * `random/Prng`.
 *
 * @since 0.2.0
 */
export * as Prng from "./random/Prng.js"
