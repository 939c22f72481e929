/**
 * The history a server starts with: the accepted keys stored, the seed written into an empty
 * database, and the sub-accounts it lists.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import * as Accounts from "../Accounts.js"
import * as ApiKeys from "../ApiKeys.js"
import type * as ReferenceServer from "../ReferenceServer.js"
import * as Seed from "../Seed.js"
import type * as Store from "../Store.js"

/** The keys a server accepts: the given ones, or the published demo key. */
export const acceptedKeys = (options: ReferenceServer.Options): ReadonlyArray<ApiKeys.ApiKey> =>
  options.keys ?? [ApiKeys.demo]

/** Stores the keys and seeds an empty database; the sub-accounts to list, by name. */
export const prepare = (
  store: Store.Service,
  options: ReferenceServer.Options
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.gen(function*() {
    yield* store.putKeys(acceptedKeys(options))
    // A database file that already holds a history keeps it: seeding again would duplicate ids.
    let seeded = false
    if (options.seed !== undefined) {
      const counts = yield* store.counts
      if (counts.transfers === 0 && counts.deposits === 0) {
        yield* Seed.seedStore(store, options.seed)
        seeded = true
      }
    }
    // The seed draws from `Accounts.subAccountNames` (at least two); a history kept in a database file
    // is read back instead, since it may come from other seed options.
    return seeded
      ? Accounts.subAccountNames(Math.max(2, options.seed?.subAccounts ?? 40))
      : yield* Effect.map(store.allTransfers(), (rows) =>
        [...new Set(rows.flatMap((r) => [r.fromAccount, r.toAccount]).filter((a) => a !== null))].sort())
  })
