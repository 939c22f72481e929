/**
 * The history a server starts with: the accepted keys stored, the seed written into an empty
 * database, and the sub-accounts of a history stored without them.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as ApiKeys from "../ApiKeys.js"
import type * as ReferenceServer from "../ReferenceServer.js"
import * as Seed from "../Seed.js"
import type * as Store from "../Store.js"

/** The keys a server accepts: the given ones, or the published demo key. */
export const acceptedKeys = (options: ReferenceServer.Options): ReadonlyArray<ApiKeys.ApiKey> =>
  options.keys ?? [ApiKeys.demo]

/**
 * Stores the keys and seeds an empty database (no transfers, deposits or sub-accounts), with the
 * server's futures spelling. A history
 * kept in a database file keeps its sub-accounts; one stored without them (written before they were
 * stored, or by inserting transfers alone) gets one per account its transfers name, created at the
 * earliest transfer naming it.
 */
export const prepare = (store: Store.Service, options: ReferenceServer.Options): Effect.Effect<void> =>
  Effect.gen(function*() {
    yield* store.putKeys(acceptedKeys(options))
    const counts = yield* store.counts
    const hasSubAccounts = (yield* store.subAccountPage({}, { page: 1, limit: 1 })).length > 0
    // A database file that already holds a history keeps it: seeding again would duplicate ids.
    if (options.seed !== undefined && counts.transfers === 0 && counts.deposits === 0 && !hasSubAccounts) {
      return yield* Seed.seedStore(store, { ...options.seed, futuresAccountType: options.futuresAccountType })
    }
    if (!hasSubAccounts && counts.transfers > 0) {
      yield* store.insertSubAccounts(yield* store.subAccountsOfTransfers)
    }
  })
