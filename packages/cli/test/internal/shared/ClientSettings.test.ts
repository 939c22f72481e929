// The client settings of a command as variables: flags over the environment, durations in one
// syntax, the OTLP endpoint checked; each error names its variable.
import { describe, expect, it } from "@effect/vitest"
import { ConfigError, Either, FastCheck as fc } from "effect"
import * as ClientSettings from "../../../src/internal/shared/ClientSettings.js"

const read = (
  given: ReadonlyArray<readonly [string, string | undefined]>,
  env: Readonly<Record<string, string | undefined>>
) => Either.getOrThrow(ClientSettings.variables(given, env))

describe("ClientSettings.variables", () => {
  it.prop(
    "a given value wins over the environment; an empty or absent variable is unset",
    {
      flag: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
      variable: fc.option(fc.string(), { nil: undefined })
    },
    ({ flag, variable }) => {
      const expected = flag ?? (variable === "" ? undefined : variable)
      expect(read([["BROKER_BASE_URL", flag]], { BROKER_BASE_URL: variable }).get("BROKER_BASE_URL")).toBe(expected)
    }
  )

  it("every duration variable, from a flag or the environment, becomes Effect duration text", () => {
    expect(ClientSettings.durationVariables.size).toBe(9)
    expect(ClientSettings.durationVariables.has("BROKER_FOLLOW_RETRY_MAX_DELAY")).toBe(true)
    for (const name of ClientSettings.durationVariables) {
      expect(read([[name, "2s"]], {}).get(name), name).toBe("2000 millis")
      expect(read([], { [name]: "10 seconds" }).get(name), name).toBe("10000 millis")
    }
    expect(read([], { BROKER_RATE_LIMIT: "2s" }).get("BROKER_RATE_LIMIT")).toBe("2s")
  })

  it("a duration that does not read is InvalidData naming its variable", () => {
    const soon = ClientSettings.variables([["BROKER_REQUEST_TIMEOUT", undefined]], { BROKER_RETRY_MAX_DELAY: "soon" })
    expect(Either.isLeft(soon) && ConfigError.isInvalidData(soon.left) && soon.left.path).toEqual([
      "BROKER_RETRY_MAX_DELAY"
    ])
  })
})

describe("ClientSettings.otlpEndpoint", () => {
  it("an http or https URL, without trailing slashes", () => {
    expect(ClientSettings.otlpEndpoint("http://127.0.0.1:4318")).toEqual(Either.right("http://127.0.0.1:4318"))
    expect(ClientSettings.otlpEndpoint("https://collector:4318//")).toEqual(Either.right("https://collector:4318"))
  })

  it("anything else is refused, quoting what was given", () => {
    for (const text of ["collector:4318", "ftp://collector", "", "not a url"]) {
      const result = ClientSettings.otlpEndpoint(text)
      expect(Either.isLeft(result) && result.left, text).toContain(`not ${JSON.stringify(text)}`)
    }
  })
})
