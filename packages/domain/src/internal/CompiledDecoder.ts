/**
 * The builders of compiled decoders: an array's or a record's decoding as one plain function that
 * calls the field rules directly, in one pass, `undefined` as soon as a rule is broken.
 *
 * @internal
 */
import type { CompiledDecoder, FieldReaders } from "../Field.js"

/** The decoder of an array whose elements `element` decodes. */
export const array = <A>(element: CompiledDecoder<A>): CompiledDecoder<ReadonlyArray<A>> => (u) => {
  if (!Array.isArray(u)) return undefined
  const out = new Array<A>(u.length)
  for (let i = 0; i < u.length; i++) {
    const decoded = element(u[i])
    if (decoded === undefined) return undefined
    out[i] = decoded
  }
  return out
}

/** The decoder of a plain object whose fields `readers` read; the result has exactly those fields. */
export const struct = <A>(readers: FieldReaders<A>): CompiledDecoder<A> => {
  const names = Object.keys(readers)
  const reads = Object.values<(u: unknown) => unknown>(readers)
  return (writtenOut(names, reads) ?? looped(names, reads)) as CompiledDecoder<A>
}

type Reads = ReadonlyArray<(u: unknown) => unknown>

const identifier = /^[A-Za-z_$][\w$]*$/

// The decoder written out for these fields: per field one property read, one rule call and one check,
// then one object literal, which runs several times faster than `looped` (whose reads and writes by
// computed name are slow). Only field names are written into the code, and only plain identifiers;
// where generating code is not allowed (a Content-Security-Policy without 'unsafe-eval', some edge
// runtimes) `looped` does the same work.
const writtenOut = (names: ReadonlyArray<string>, reads: Reads): ((u: unknown) => unknown) | undefined => {
  if (!names.every((name) => identifier.test(name) && name !== "__proto__")) return undefined
  const code = [
    "return (u) => {",
    "if (typeof u !== \"object\" || u === null || Array.isArray(u)) return undefined",
    ...names.map((name, i) => `const v${i} = r${i}(u.${name}); if (v${i} === undefined) return undefined`),
    `return { ${names.map((name, i) => `${name}: v${i}`).join(", ")} }`,
    "}"
  ].join("\n")
  try {
    return new Function(...reads.map((_, i) => `r${i}`), code)(...reads)
  } catch {
    return undefined
  }
}

const looped = (names: ReadonlyArray<string>, reads: Reads) => (u: unknown): unknown => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const wire = u as { readonly [field: string]: unknown }
  const out: { [field: string]: unknown } = {}
  for (let i = 0; i < names.length; i++) {
    const value = reads[i]!(wire[names[i]!])
    if (value === undefined) return undefined
    out[names[i]!] = value
  }
  return out
}
