/**
 * A decoding failure as one short line: where (`[0].amount`) and what (`expected …, got …`) of its
 * first issue. Written here, not with `ParseResult`'s formatters, which render the value whole: a
 * 5 MB value printed whole, and a deeply nested one overflowing the stack. Pure.
 *
 * @internal
 */
import * as ServerText from "@broker-history/core/request/ServerText"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"

/** The first issue of `error` as one line of at most 200 characters, the server's text made safe. */
export const describe = (error: ParseResult.ParseError): string => {
  const path: Array<PropertyKey> = []
  let issue: ParseResult.ParseIssue = error.issue
  // Each step goes one level down the schema (not the value), and `decodeUnknownEither` stops at the
  // first issue: a handful of steps.
  for (let steps = 0; steps < 100; steps++) {
    if (issue._tag === "Pointer") {
      if (Array.isArray(issue.path)) path.push(...issue.path)
      else path.push(issue.path as PropertyKey)
      issue = issue.issue
    } else if (issue._tag === "Composite") {
      const first: ParseResult.ParseIssue | undefined = Array.isArray(issue.issues)
        ? issue.issues[0]
        : issue.issues as ParseResult.ParseIssue
      if (first === undefined) break
      issue = first
    } else if (issue._tag === "Transformation" || issue._tag === "Refinement" && issue.kind === "From") {
      issue = issue.issue
    } else {
      break
    }
  }
  const where = path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("")
  return ServerText.sanitize(`${where === "" ? "body" : where}: ${issueText(issue)}`, 200)
}

const issueText = (issue: ParseResult.ParseIssue): string => {
  switch (issue._tag) {
    case "Type":
      return `${issue.message ?? `expected ${expected(issue.ast)}`}, got ${ServerText.summary(issue.actual)}`
    case "Refinement":
      return `expected ${expected(issue.ast)}, got ${ServerText.summary(issue.actual)}`
    case "Missing":
      return "is missing"
    case "Unexpected":
      return "is not expected"
    case "Forbidden":
      return "could not be checked"
    default:
      return "does not decode"
  }
}

/** What a schema expects, in a few words. */
const expected = (ast: AST.AST): string => {
  const named = Option.getOrUndefined(AST.getIdentifierAnnotation(ast)) ??
    Option.getOrUndefined(AST.getTitleAnnotation(ast))
  if (named !== undefined) return ServerText.sanitize(named, 60)
  switch (ast._tag) {
    case "TupleType":
      return "an array"
    case "TypeLiteral":
      return "an object"
    case "StringKeyword":
      return "text"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "true or false"
    case "Literal":
      return ServerText.sanitize(JSON.stringify(ast.literal) ?? String(ast.literal), 60)
    case "Union":
      return ast.types.slice(0, 4).map(expected).join(" or ") + (ast.types.length > 4 ? " or …" : "")
    case "Refinement":
      return expected(ast.from)
    case "Transformation":
      return expected(ast.to)
    default:
      return ServerText.sanitize(String(ast), 60)
  }
}
