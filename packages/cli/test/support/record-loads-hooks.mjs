// Module hooks of record-loads.mjs (they run on the loader thread).
import { appendFileSync } from "node:fs"

let file

export const initialize = (data) => {
  file = data.file
}

export const resolve = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context)
  if (file !== undefined) appendFileSync(file, resolved.url + "\n")
  return resolved
}
