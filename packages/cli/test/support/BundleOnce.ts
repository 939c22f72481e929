// Vitest global setup of the cli's tests: the published bin (scripts/bundle.mjs) built once per run,
// which the tests run as the `broker-history` program (`Harness.cli`). It starts in a quarter of the
// time the workspace bin takes through tsx (packages/cli/README.md, "How the published CLI is built"),
// and it is what users run; the tests about the workspace's module loading run the sources (`Harness.bin`).
import type { TestProject } from "vitest/node"
import { buildBundle } from "./Bundle.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The entry point of the bundle built for this run. */
    readonly cliBundle: string
  }
}

export default function setup(project: TestProject) {
  const bundle = buildBundle()
  project.provide("cliBundle", bundle.bin)
  return () => bundle.cleanup()
}
