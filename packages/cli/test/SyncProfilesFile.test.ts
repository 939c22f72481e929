// The profiles file of `sync --profiles`: YAML and JSON, secrets only by variable name, every problem
// found before anything is opened or sent.
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import * as Profiles from "../src/internal/sync/plan/Profiles.js"

const env = { ACME_KEY: "key-a", ACME_SECRET: "secret-a", GLOBEX_KEY: "key-g", GLOBEX_SECRET: "secret-g" }

const yaml = `# two keys, one database
profiles:
  - name: acme
    apiKeyEnv: ACME_KEY
    secretKeyEnv: ACME_SECRET
    subAccounts: [a@acme.test, b@acme.test]
    accountTypes: [spot]
    rateLimit: { limit: 10, interval: 2s }
  - name: globex
    baseUrl: https://api.globex.test
    apiKeyEnv: GLOBEX_KEY
    secretKeyEnv: GLOBEX_SECRET
    pairs:
      - a@globex.test b@globex.test
      - "- a@globex.test SPOT FUTURES"
`

const failure = (text: string, environment: Record<string, string> = env) => {
  const result = Profiles.parse(text, environment)
  if (Either.isRight(result)) throw new Error(`expected a refusal of:\n${text}`)
  return result.left
}

const one = (fields: Record<string, unknown>) =>
  JSON.stringify({ profiles: [{ name: "acme", apiKeyEnv: "ACME_KEY", secretKeyEnv: "ACME_SECRET", ...fields }] })

describe("Profiles.parse", () => {
  it("reads YAML: each profile's key and secret from its variables, its plan and its budget", () => {
    const [acme, globex] = Either.getOrThrow(Profiles.parse(yaml, env))
    expect(acme.name).toBe("acme")
    expect(acme.client).toEqual({
      "api-key": "key-a",
      "secret-key": "secret-a",
      "rate-limit": "10",
      "rate-limit-interval": "2s"
    })
    // master→master and master↔sub for two sub-accounts, SPOT→SPOT only.
    expect(acme.transferStreams.map((s) => s.id)).toEqual([
      "[\"transfers\",\"SPOT\",\"SPOT\",null,null]",
      "[\"transfers\",\"SPOT\",\"SPOT\",null,\"a@acme.test\"]",
      "[\"transfers\",\"SPOT\",\"SPOT\",\"a@acme.test\",null]",
      "[\"transfers\",\"SPOT\",\"SPOT\",null,\"b@acme.test\"]",
      "[\"transfers\",\"SPOT\",\"SPOT\",\"b@acme.test\",null]"
    ])
    expect(acme.uncovered).toContain("sub→sub transfers are not read: 2 ordered sub-account pairs")
    expect(globex.client).toEqual({
      "api-key": "key-g",
      "secret-key": "secret-g",
      "base-url": "https://api.globex.test"
    })
    // a→b for the four type pairs (default SPOT, FUTURES), and master→a SPOT→FUTURES.
    expect(globex.transferStreams).toHaveLength(5)
    expect(globex.uncovered).toBe(undefined)
  })

  it("reads the same file as JSON", () => {
    const json = JSON.stringify(
      {
        profiles: [
          {
            name: "acme",
            apiKeyEnv: "ACME_KEY",
            secretKeyEnv: "ACME_SECRET",
            subAccounts: ["a@acme.test", "b@acme.test"],
            accountTypes: ["spot"],
            rateLimit: { limit: 10, interval: "2s" }
          },
          {
            name: "globex",
            baseUrl: "https://api.globex.test",
            apiKeyEnv: "GLOBEX_KEY",
            secretKeyEnv: "GLOBEX_SECRET",
            pairs: ["a@globex.test b@globex.test", "- a@globex.test SPOT FUTURES"]
          }
        ]
      },
      null,
      2
    )
    expect(Either.getOrThrow(Profiles.parse(json, env))).toEqual(Either.getOrThrow(Profiles.parse(yaml, env)))
  })

  it("refuses a secret written in the file, without repeating it", () => {
    for (
      const [field, variable] of [["secretKey", "secretKeyEnv"], ["apiKey", "apiKeyEnv"], ["secret", "secretKeyEnv"]]
    ) {
      const error = failure(one({ [field]: "hunter2-very-secret" }))
      expect(error.kind).toBe("usage")
      expect(error.message).toBe(
        `profiles[0] (acme): ${field} is written in the file; secrets are never written in a profiles file: ` +
          `put it in an environment variable and give that variable's name as ${variable}`
      )
    }
    // A key where the variable's name belongs: refused, and not shown.
    const error = failure(one({ secretKeyEnv: "45d0b3c26f2644f19bfb98b07741b2f5" }))
    expect(error.message).toContain("profiles[0].secretKeyEnv: must be the NAME of an environment variable")
    expect(error.message).not.toContain("45d0b3c2")
    // YAML that does not parse: where, not what (the line may hold a secret).
    const broken = failure("profiles:\n  - name: acme\n    secretKeyEnv: [hunter2\n")
    expect(broken.message).toMatch(/^not valid YAML or JSON/)
    expect(broken.message).not.toContain("hunter2")
  })

  it("a variable that is not set: credentials missing, named with its profile", () => {
    const error = failure(yaml, { ACME_KEY: "k", ACME_SECRET: "s", GLOBEX_KEY: "k" })
    expect(error.kind).toBe("authentication")
    expect(error.message).toBe(
      "profile globex: secretKeyEnv names GLOBEX_SECRET, which is not set in the environment: set it to the profile's API secret key"
    )
    expect(failure(yaml, { ...env, ACME_KEY: " " }).message).toMatch(/^profile acme: apiKeyEnv names ACME_KEY/)
  })

  it("the file's own problems come before a variable that is not set, in any profile", () => {
    const unset = { name: "acme", apiKeyEnv: "UNSET_KEY", secretKeyEnv: "UNSET_SECRET" }
    const file = (second: Record<string, unknown>) =>
      JSON.stringify({ profiles: [unset, { apiKeyEnv: "GLOBEX_KEY", secretKeyEnv: "GLOBEX_SECRET", ...second }] })
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      [file({ name: "acme" }), /^profiles\[1\]: the name acme is given twice/],
      [file({ name: "globex", subAcounts: [] }), /^profiles\[1\]\.subAcounts: /],
      [file({ name: "globex", secretKey: "hunter2" }), /^profiles\[1\] \(globex\): secretKey is written in the file/],
      [file({ name: "globex", accountTypes: ["MARGIN X"] }), /^profile globex: accountTypes: "MARGIN X" is not/],
      [file({ name: "globex", rateLimit: { limit: 1, interval: "soon" } }), /^profile globex: rateLimit\.interval: /],
      [file({ name: "globex", baseUrl: "not a url" }), /^profile globex: baseUrl "not a url" is not a URL/],
      [
        file({ name: "globex", baseUrl: "ftp://api.test" }),
        /^profile globex: baseUrl "ftp:\/\/api.test" is not an http:\/\/ or https:\/\/ URL/
      ],
      [file({ name: "globex", pairs: ["a"] }), /^profile globex: pairs: entry 1: /],
      // The profile whose variables are unset has a problem of its own too: that one is named.
      [
        JSON.stringify({ profiles: [{ ...unset, subAccounts: ["a"], pairs: ["- a"] }] }),
        /subAccounts or pairs, not both/
      ]
    ]
    for (const [text, message] of cases) {
      const error = failure(text, {})
      expect(error.kind, text).toBe("usage")
      expect(error.message, text).toMatch(message)
      expect(error.message).not.toContain("hunter2")
    }
    // With the file right, the first variable that is not set.
    expect(failure(file({ name: "globex" }), {}).message).toBe(
      "profile acme: apiKeyEnv names UNSET_KEY, which is not set in the environment: set it to the profile's API key"
    )
  })

  it("refuses two profiles of one name, unknown fields, bad values and an empty list", () => {
    const twice = failure(
      JSON.stringify({
        profiles: [
          { name: "acme", apiKeyEnv: "ACME_KEY", secretKeyEnv: "ACME_SECRET" },
          { name: "acme", apiKeyEnv: "GLOBEX_KEY", secretKeyEnv: "GLOBEX_SECRET" }
        ]
      })
    )
    expect(twice.message).toBe("profiles[1]: the name acme is given twice; every profile needs its own name")
    expect(failure(one({ subAcounts: ["a"] })).message).toContain("profiles[0].subAcounts")
    expect(failure(one({ rateLimit: { limit: 0 } })).message).toContain("profiles[0].rateLimit.limit")
    expect(failure(one({ rateLimit: { limit: 5, interval: "soon" } })).message).toMatch(
      /^profile acme: rateLimit.interval: /
    )
    expect(failure(one({ accountTypes: ["MARGIN X"] })).message).toContain("\"MARGIN X\" is not an account type")
    expect(failure(one({ pairs: ["a b c"] })).message).toMatch(/^profile acme: pairs: entry 1: expected "FROM TO"/)
    expect(failure(one({ subAccounts: ["a"], pairs: ["- a"] })).message).toContain("subAccounts or pairs, not both")
    expect(failure(one({ baseUrl: "not a url" })).message).toContain("baseUrl \"not a url\" is not a URL")
    expect(failure(one({ name: "has space" })).message).toContain("profiles[0].name: must be 1 to 64 letters")
    expect(failure(JSON.stringify({ profiles: [] })).message).toContain("profiles: lists no profile")
    expect(failure("just text").kind).toBe("usage")
  })
})

describe("Profiles.refusedLine", () => {
  it("names the profile and the variable to check, on one line", () => {
    const line = Profiles.refusedLine({ name: "globex", apiKeyEnv: "GLOBEX_KEY", secretKeyEnv: "GLOBEX_SECRET" }, {
      status: 401,
      code: 700001,
      msg: "Api key info invalid\n(unknown)",
      reason: "ApiKey"
    })
    expect(line).toBe(
      "profile globex stopped: the service refused its key (401 700001 Api key info invalid (unknown)): " +
        "check GLOBEX_KEY (apiKeyEnv): the service does not know this key; the other profiles go on"
    )
  })
})
