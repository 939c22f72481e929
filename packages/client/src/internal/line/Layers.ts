/**
 * What the shared internal modules use of `Layer` that Effect 3 and Effect 4 spell differently, as
 * Effect 3 spells it: the Effect 4 line's module of the same name has the same exports
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
import type * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"

/** The services an effect makes, its scope the layer's (closed when the layer is released). */
export const scopedContext = <A, E, R>(
  effect: Effect.Effect<Context.Context<A>, E, R>
): Layer.Layer<A, E, Exclude<R, Scope.Scope>> => Layer.scopedContext(effect)
