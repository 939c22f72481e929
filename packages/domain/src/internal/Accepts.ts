/**
 * A query schema's rules as one plain check, compiled from the schema's AST: true only for input the
 * schema decodes to itself, so that a valid query is accepted without the schema interpreter. The
 * loop over a query's keys is core's (`@broker-history/core/query/Accepts`); this compiles the AST
 * into its fields.
 *
 * @internal
 */
import * as Core from "@broker-history/core/query/Accepts"
import * as Option from "effect/Option"
import type * as SchemaAST from "effect/SchemaAST"

const noOptions: SchemaAST.ParseOptions = {}

/**
 * The check of a struct of known keys (required ones present, no others) whose values pass the
 * fields' own refinements, and the struct's own filters; `undefined` for any other shape.
 */
export const compile = (ast: SchemaAST.AST): ((u: unknown) => boolean) | undefined => {
  const refinements: Array<SchemaAST.Refinement> = []
  let struct = ast
  while (struct._tag === "Refinement") {
    refinements.unshift(struct)
    struct = struct.from
  }
  if (struct._tag !== "TypeLiteral" || struct.indexSignatures.length > 0) return undefined
  const fields: Array<Core.Field> = []
  for (const p of struct.propertySignatures) {
    const accepts = compileValue(p.type)
    if (typeof p.name !== "string" || accepts === undefined) return undefined
    fields.push({ name: p.name, optional: p.isOptional, accepts })
  }
  return Core.struct(fields, (u) => refinements.every((r) => Option.isNone(r.filter(u, noOptions, r))))
}

// The check of one parameter's value: the keywords, literals, refinements and unions of them that
// query fields are made of; `undefined` for anything else.
const compileValue = (ast: SchemaAST.AST): ((u: unknown) => boolean) | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "Literal":
      return (u) => u === ast.literal
    case "Refinement": {
      const from = compileValue(ast.from)
      return from === undefined ? undefined : (u) => from(u) && Option.isNone(ast.filter(u, noOptions, ast))
    }
    case "Union": {
      const members = ast.types.map(compileValue)
      if (members.some((m) => m === undefined)) return undefined
      return (u) => members.some((m) => m!(u))
    }
    default:
      return undefined
  }
}
