/**
 * Business parameters received as text (server side), read before the query schema's rules apply:
 * integer parameters must be base-10 integer text.
 *
 * Note: a pure rule of the wire shared by both lines; it belongs in `@broker-history/core` (the v3
 * domain still has it inline in `QueryViolation.fromText`) and moves there once core has a home for
 * the query rules.
 *
 * @internal
 */

const integerText = /^(0|[1-9]\d{0,15})$/

/**
 * The parameters as values: the integer ones (`integers`) as numbers, the others as text; or the name
 * of the first integer parameter whose text is not base-10 integer text. The object has a null
 * prototype: a parameter named `__proto__` becomes a key (and is rejected as unknown), not the
 * prototype.
 */
export const read = (
  integers: ReadonlyArray<string>,
  params: Readonly<Record<string, string>>
): { readonly input: Record<string, unknown> } | { readonly notInteger: string } => {
  const input: Record<string, unknown> = Object.create(null)
  for (const name of Object.keys(params)) {
    const value = params[name]!
    if (integers.includes(name)) {
      if (!integerText.test(value)) return { notInteger: name }
      input[name] = Number(value)
    } else {
      input[name] = value
    }
  }
  return { input }
}
