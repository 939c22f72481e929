/**
 * The domain package of this line (`@broker-history/domain`, on Effect 3), as the shared internal
 * modules import it: the Effect 4 line's module of the same name is its `@broker-history/domain-effect4`
 * (docs/architecture.md, "One source, two lines").
 *
 * @internal
 */
export * from "@broker-history/domain"
