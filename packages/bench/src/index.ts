/**
 * Benchmarks of the broker-history client and the harness they share.
 *
 * @since 0.1.0
 */
export * as PageServer from "./PageServer.js"
