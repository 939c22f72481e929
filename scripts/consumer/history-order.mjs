// What a full history must be, whichever line read it and on whichever runtime: each record once (by
// its record module's `key`) and in ascending order (its `compare`). Imports nothing; run.sh copies it
// into each project beside the checks that use it (read-history.mjs, neutral-runtime.mjs).

/** The first way `records` fails that, as a sentence naming `name`; undefined when they do not. */
export const problem = (name, records, { compare, key }) => {
  const keys = new Set(records.map(key))
  if (keys.size !== records.length) return `${name}: ${records.length - keys.size} duplicate record(s) by key`
  for (let i = 1; i < records.length; i++) {
    if (compare(records[i - 1], records[i]) >= 0) {
      return `${name}: records ${i - 1} and ${i} are not in ascending order: ${JSON.stringify(records[i - 1])} then ${
        JSON.stringify(records[i])
      }`
    }
  }
  return undefined
}
