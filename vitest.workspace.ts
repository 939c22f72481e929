import * as path from "node:path"
import { defineWorkspace } from "vitest/config"

// One project per package; each package's vitest.config.ts merges vitest.shared.ts.
export default defineWorkspace([
  path.join(import.meta.dirname, "packages/*")
])
