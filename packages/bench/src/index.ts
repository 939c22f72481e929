/**
 * Benchmarks of the broker-history client and the harness they share.
 *
 * @since 0.1.0
 */
export * as Bench from "./Bench.js"
export * as Clustered from "./Clustered.js"
export * as Contender from "./Contender.js"
export * as Measure from "./Measure.js"
export * as Memory from "./Memory.js"
export * as PageServer from "./PageServer.js"
export * as Profile from "./Profile.js"
export * as Saturation from "./Saturation.js"
export * as ServiceProcess from "./ServiceProcess.js"
export * as Soak from "./Soak.js"
export * as SoakOutage from "./SoakOutage.js"
export * as Staleness from "./Staleness.js"
export * as StartupLatency from "./StartupLatency.js"
export * as SyncThroughput from "./SyncThroughput.js"
export * as Throughput from "./Throughput.js"
export * as WholeBroker from "./WholeBroker.js"
