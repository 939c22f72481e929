// The cli package's directory, for test support that runs outside a test file (vitest's global setup).
import * as Path from "node:path"
import * as Url from "node:url"

export const packageDir = Path.resolve(Path.dirname(Url.fileURLToPath(import.meta.url)), "../..")
