import type { ViteUserConfig } from "vitest/config"

/** Settings every package's vitest config merges in. */
const config: ViteUserConfig = {
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { concurrent: false }
  }
}

export default config
