/**
 * The few `@effect/vitest` forms the client's tests use, on plain vitest 3 with Effect 4
 * (`@effect/vitest` 4 needs vitest 5): `it.effect` runs an effect on a virtual clock (time moves only
 * when the test says, from 0, once every fiber is suspended: `VirtualClock`, whose `adjust` the tests
 * reach as `./TestClock.js`), `it.live` on the real clock, `it.scoped` / `it.scopedLive`
 * the same in a scope, `it.effect.each` one case per run (the case passed whole), and
 * `it.effect.prop` a fast-check property whose every run is such an effect.
 */
import { Effect } from "effect"
import fc from "fast-check"
import { it as vitestIt } from "vitest"
import * as VirtualClock from "./VirtualClock.js"

type Body<A = void> = () => Effect.Effect<A, unknown, VirtualClock.VirtualClock>

/** Runs `effect` on the virtual clock (`it.effect`'s setting), as a promise. */
export const runTest = <A, E>(effect: Effect.Effect<A, E, VirtualClock.VirtualClock>): Promise<A> =>
  Effect.runPromise(VirtualClock.run(effect))

/** Runs `effect` on the real clock, as a promise. */
export const runLive = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
  Effect.runPromise(effect as Effect.Effect<A, E>)

type Each = <C>(
  cases: ReadonlyArray<C>
) => (name: string, body: (testCase: C) => Effect.Effect<unknown, unknown, VirtualClock.VirtualClock>) => void

const each =
  (run: (effect: Effect.Effect<unknown, unknown, any>) => Promise<unknown>): Each => (cases) => (name, body) =>
    vitestIt.for(cases as Array<any>)(name, (testCase: any) => run(body(testCase)) as Promise<any>)

type Prop = typeof prop
type Runner = (name: string, body: Body<unknown>, timeout?: number) => void
type ScopedRunner = (name: string, body: () => Effect.Effect<unknown, unknown, any>, timeout?: number) => void

const propWith =
  (run: (effect: Effect.Effect<unknown, unknown, any>) => Promise<unknown>) =>
  <const Arbitraries extends Record<string, fc.Arbitrary<any>>>(
    name: string,
    arbitraries: Arbitraries,
    body: (
      values: {
        [K in keyof Arbitraries]: Arbitraries[K] extends fc.Arbitrary<infer T> ? T
          : never
      }
    ) => Effect.Effect<
      unknown,
      unknown,
      VirtualClock.VirtualClock
    >,
    options?: number | { readonly timeout?: number; readonly fastCheck?: fc.Parameters<any> }
  ) =>
    vitestIt(
      name,
      () =>
        fc.assert(
          fc.asyncProperty(fc.record(arbitraries), (values) => run(body(values as any)).then(() => true)),
          typeof options === "number" ? undefined : options?.fastCheck
        ),
      typeof options === "number" ? options : options?.timeout
    )

const prop = propWith(runTest)

const effect = Object.assign(
  (name: string, body: Body<unknown>, timeout?: number) => vitestIt(name, () => runTest(body()), timeout),
  { each: each(runTest), prop, skip: (name: string, body: Body<unknown>) => vitestIt.skip(name, () => runTest(body())) }
)

const live = Object.assign(
  (name: string, body: Body<unknown>, timeout?: number) => vitestIt(name, () => runLive(body()), timeout),
  { each: each(runLive), prop: propWith(runLive) }
)

/** vitest's `it`, with the Effect forms above. */
export const it: typeof vitestIt & {
  readonly effect: Runner & { readonly each: Each; readonly prop: Prop; readonly skip: Runner }
  readonly live: Runner & { readonly each: Each; readonly prop: Prop }
  readonly scoped: ScopedRunner
  readonly scopedLive: ScopedRunner
} = Object.assign(vitestIt, {
  effect,
  live,
  scoped: (name: string, body: () => Effect.Effect<unknown, unknown, any>, timeout?: number) =>
    vitestIt(name, () => runTest(Effect.scoped(body()) as Effect.Effect<unknown, unknown>), timeout),
  scopedLive: (name: string, body: () => Effect.Effect<unknown, unknown, any>, timeout?: number) =>
    vitestIt(name, () => runLive(Effect.scoped(body()) as Effect.Effect<unknown, unknown>), timeout)
})

export { describe, expect, expectTypeOf } from "vitest"

/** `effect` on the virtual clock set to `millis` first (a simulation that starts at that time). */
export const startingAt = (millis: number) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(VirtualClock.setTime(millis), effect)
