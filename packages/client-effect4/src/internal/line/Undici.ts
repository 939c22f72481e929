/**
 * The `undici` package as this line reaches it: a dependency of its own (7.x, for Node 20.18.1 and
 * later). The Effect 3 line's module of the same name re-exports `@effect/platform-node/Undici`
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
export * from "undici"
