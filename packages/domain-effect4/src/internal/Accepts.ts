/**
 * A query schema's rules as one plain check, compiled from the schema's AST: true only for input the
 * schema decodes to itself, so that a valid query is accepted without the schema interpreter. The
 * loop over a query's keys is core's (`@broker-history/core/query/Accepts`); this compiles the AST
 * into its fields.
 *
 * @internal
 */
import * as Core from "@broker-history/core/query/Accepts"
import type * as SchemaAST from "effect/SchemaAST"

const noOptions: SchemaAST.ParseOptions = {}

/**
 * The check of a struct of known keys (required ones present, no others) whose values pass the
 * fields' own checks, and the struct's own checks; `undefined` for any other shape.
 */
export const compile = (ast: SchemaAST.AST): ((u: unknown) => boolean) | undefined => {
  if (ast._tag !== "Objects" || ast.indexSignatures.length > 0 || ast.encoding !== undefined) return undefined
  const fields: Array<Core.Field> = []
  for (const p of ast.propertySignatures) {
    const accepts = compileValue(p.type)
    if (typeof p.name !== "string" || accepts === undefined) return undefined
    fields.push({ name: p.name, optional: p.type.context?.isOptional === true, accepts })
  }
  const checks = ast.checks
  return Core.struct(fields, checks === undefined ? () => true : (u) => passes(checks, u, ast))
}

// True when every check (a filter, or a group of them) accepts `u`.
const passes = (checks: ReadonlyArray<SchemaAST.Check<unknown>>, u: unknown, ast: SchemaAST.AST): boolean =>
  checks.every((check) =>
    check._tag === "Filter" ? check.run(u, ast, noOptions) === undefined : passes(check.checks, u, ast)
  )

// The check of one parameter's value: the keywords, literals, checks and unions of them that query
// fields are made of; `undefined` for anything else (a transformation, a nested struct).
const compileValue = (ast: SchemaAST.AST): ((u: unknown) => boolean) | undefined => {
  if (ast.encoding !== undefined) return undefined
  const base = compileBase(ast)
  if (base === undefined) return undefined
  const checks = ast.checks
  return checks === undefined ? base : (u) => base(u) && passes(checks, u, ast)
}

const compileBase = (ast: SchemaAST.AST): ((u: unknown) => boolean) | undefined => {
  switch (ast._tag) {
    case "String":
      return (u) => typeof u === "string"
    case "Number":
      return (u) => typeof u === "number"
    case "Undefined":
      return (u) => u === undefined
    case "Literal":
      return (u) => u === ast.literal
    case "Union": {
      const members = ast.types.map(compileValue)
      if (members.some((m) => m === undefined)) return undefined
      return (u) => members.some((m) => m!(u))
    }
    default:
      return undefined
  }
}
