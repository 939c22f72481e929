/**
 * The `undici` package as this line reaches it: through `@effect/platform-node/Undici`, which
 * re-exports the undici that `@effect/platform-node` depends on. The Effect 4 line's module of the
 * same name is `undici` itself (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
export * from "@effect/platform-node/Undici"
