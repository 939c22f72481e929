import * as path from "node:path"
import { defineWorkspace } from "vitest/config"

// One project per package; each package's vitest.config.ts merges vitest.shared.ts. `pnpm test` runs
// them all. `pnpm test:unit` (package.json) runs the in-process tests of core, domain, client and
// domain-effect4: every file outside test/integration/, where the tests that start a server, a child process or a
// database live; it loads the modules once per worker (--no-isolate), so a test leaves no global
// state behind (a mock restored, a global put back). The other packages join it once their tests
// that need a server, a process or a database are in test/integration/.
export default defineWorkspace([
  path.join(import.meta.dirname, "packages/*")
])
