import * as fc from "fast-check"
import { it } from "vitest"

type Arbitraries = ReadonlyArray<fc.Arbitrary<unknown>> | { readonly [K: string]: fc.Arbitrary<unknown> }

type Values<A extends Arbitraries> = { -readonly [K in keyof A]: A[K] extends fc.Arbitrary<infer T> ? T : never }

/**
 * A property test: `body` holds for every value the arbitraries draw (a tuple of them, or an object
 * of them), as fast-check runs it; `options.fastCheck` tunes the run (e.g. `numRuns`).
 */
export const prop = <const A extends Arbitraries>(
  name: string,
  arbitraries: A,
  body: (values: Values<A>) => unknown,
  options?: { readonly fastCheck?: fc.Parameters<unknown> }
): void => {
  it(name, () => {
    const all = (Array.isArray(arbitraries)
      ? fc.tuple(...(arbitraries as ReadonlyArray<fc.Arbitrary<unknown>>))
      : fc.record(arbitraries as { readonly [K: string]: fc.Arbitrary<unknown> })) as unknown as fc.Arbitrary<
        Values<A>
      >
    fc.assert(
      fc.property(all, (values) => {
        const result = body(values)
        return result === undefined || result === true
      }),
      options?.fastCheck as fc.Parameters<[Values<A>]> | undefined
    )
  })
}
