/**
 * @broker-history/domain-effect4: placeholder until the package's modules exist.
 *
 * @since 0.2.0
 */
export {}
