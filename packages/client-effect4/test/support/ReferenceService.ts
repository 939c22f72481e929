/**
 * The reference service (`@broker-history/server`, an Effect 3 program) in this process, on
 * 127.0.0.1, for the Effect 4 client's integration tests: started and stopped on Effect 3's runtime
 * (`effect-3`, the same copy the server imports), and seen from Effect 4 through `Bridged`, whose
 * calls run the server's Effect 3 effects to plain values. Nothing but plain data crosses over.
 */
import { ReferenceServer } from "@broker-history/server"
import type { Store } from "@broker-history/server"
import { Effect } from "effect"
import * as Effect3 from "effect-3/Effect"
import * as ManagedRuntime3 from "effect-3/ManagedRuntime"

/** An Effect 3 value's Effect 4 counterpart: each effect run on Effect 3's runtime, functions wrapped. */
type Bridge<T> = T extends Effect3.Effect<infer A, infer E, any> ? Effect.Effect<A, E>
  : T extends (...args: infer P) => infer R ? (...args: P) => Bridge<R>
  : T extends object ? { readonly [K in keyof T]: Bridge<T[K]> }
  : T

/** The reference service as the tests use it from Effect 4. */
export type Bridged = Bridge<ReferenceServer.Service> & { readonly store: Bridge<Store.Service> }

const bridge = <T>(runtime: ManagedRuntime3.ManagedRuntime<never, never>, value: T): Bridge<T> => {
  if (Effect3.isEffect(value)) {
    return Effect.tryPromise({
      try: () => runtime.runPromise(value as Effect3.Effect<unknown, unknown>),
      catch: (error) => error
    }) as Bridge<T>
  }
  if (typeof value === "function") {
    return ((...args: Array<unknown>) =>
      bridge(runtime, (value as (...a: Array<unknown>) => unknown)(...args))) as Bridge<T>
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return new Proxy(value as object, {
      get: (target, key) => bridge(runtime, Reflect.get(target, key))
    }) as Bridge<T>
  }
  return value as Bridge<T>
}

/** Starts a reference service with `options`; closed with the scope. */
export const start = (options: ReferenceServer.Options = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const runtime = ManagedRuntime3.make(ReferenceServer.layer(options))
      const server = await runtime.runPromise(ReferenceServer.ReferenceServer)
      return {
        runtime,
        server: bridge(runtime as unknown as ManagedRuntime3.ManagedRuntime<never, never>, server) as Bridged
      }
    }),
    ({ runtime }) => Effect.promise(() => runtime.dispose())
  ).pipe(Effect.map(({ server }) => server))
