/**
 * The domain package of this line (`@broker-history/domain-effect4`), as the shared internal modules
 * import it: the Effect 3 line's module of the same name is its `@broker-history/domain`
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
export * from "@broker-history/domain-effect4"
