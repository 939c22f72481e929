// Module-resolution hook (runs on Node's hooks thread, registered by record-loads-register.mjs):
// appends every specifier resolved after registration, with its parent and resolved URL, as one
// JSON line to the file named in `data.log`. Written synchronously so that the record is complete
// before the import that caused it finishes.
import { appendFileSync } from "node:fs"

let log

export const initialize = (data) => {
  log = data.log
}

export const resolve = async (specifier, context, nextResolve) => {
  const result = await nextResolve(specifier, context)
  appendFileSync(log, JSON.stringify({ specifier, parent: context.parentURL ?? null, url: result.url }) + "\n")
  return result
}
