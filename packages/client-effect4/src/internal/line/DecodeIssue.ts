/**
 * A decoding failure as one short line: where (`[0].amount`) and what (`expected …, got …`) of its
 * first issue. Written here, not with `SchemaIssue`'s formatters alone, which list every issue and,
 * asked to, the inputs whole: a 5 MB value printed whole. The value a leaf is about is found by
 * following the issue's path through the decoded input (Effect 4 issues keep no input unless asked).
 * Pure.
 *
 * @internal
 */
import * as ServerText from "@broker-history/core/request/ServerText"
import type * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"

const format = SchemaIssue.makeFormatterDefault()

/** The first issue of `issue` as one line of at most 200 characters, the server's text made safe. */
export const describe = (issue: SchemaIssue.Issue, input: unknown): string => {
  const path: Array<PropertyKey> = []
  let current: SchemaIssue.Issue = issue
  // Each step goes one level down the schema (not the value), and the decoder stops at the first
  // issue: a handful of steps.
  for (let steps = 0; steps < 100; steps++) {
    if (current._tag === "Pointer") {
      path.push(...current.path)
      current = current.issue
    } else if (current._tag === "Composite") {
      const first: SchemaIssue.Issue | undefined = current.issues[0]
      if (first === undefined) break
      current = first
    } else if (current._tag === "Encoding") {
      current = current.issue
    } else if (current._tag === "AnyOf") {
      // A union: the member the value matched in shape (the others fail at once, by type), if any.
      const matched: SchemaIssue.Issue | undefined = current.issues.find((issue) => issue._tag !== "InvalidType")
      if (matched === undefined) break
      current = matched
    } else {
      break
    }
  }
  const where = path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("")
  const what = current._tag === "MissingKey"
    ? "is missing"
    : current._tag === "UnexpectedKey"
    ? "is not expected"
    : `${expected(current)}, got ${ServerText.summary(at(input, path))}`
  return ServerText.sanitize(`${where === "" ? "body" : where}: ${what}`, 200)
}

/**
 * What the schema expected there, in a few words: its name when it has one, else its kind for a value
 * of the wrong type; for a failed check, the formatter's own "Expected …" (first line).
 */
const expected = (issue: SchemaIssue.Issue): string => {
  if (issue._tag === "InvalidType" || issue._tag === "AnyOf") return `expected ${expectedOf(issue.ast)}`
  const text = ServerText.sanitize(format(issue).split("\n", 1)[0] ?? "", 120)
  return text.startsWith("Expected ") ? "expected " + text.slice("Expected ".length) : text
}

/** What a schema expects, in a few words. */
const expectedOf = (ast: SchemaAST.AST): string => {
  const annotations = ast.annotations
  const named = annotations?.identifier ?? annotations?.title ?? annotations?.expected
  if (typeof named === "string") return ServerText.sanitize(named, 60)
  switch (ast._tag) {
    case "Arrays":
      return "an array"
    case "Objects":
      return "an object"
    case "String":
      return "text"
    case "Number":
      return "a number"
    case "Boolean":
      return "true or false"
    case "Literal":
      return ServerText.sanitize(JSON.stringify(ast.literal) ?? String(ast.literal), 60)
    case "Union":
      return ast.types.slice(0, 4).map(expectedOf).join(" or ") + (ast.types.length > 4 ? " or …" : "")
    default:
      return ServerText.sanitize(ast._tag, 60)
  }
}

/** The value at `path` in `input`, or `undefined` where the path leaves it. */
const at = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let value = input
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}
