/**
 * The profiles file of `broker-history sync --profiles FILE`: several broker keys synced by one
 * process into one database, each with its name, base URL, the names of the environment variables
 * that hold its key and secret (never the secrets themselves), its sub-accounts or pairs, account
 * types and request budget. YAML or JSON (JSON is YAML), read with the `yaml` package and checked
 * with `effect/Schema`; every problem is found before the database is opened or a request sent.
 *
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Yaml from "yaml"
import * as Choices from "../../shared/Choices.js"
import type * as ClientOptions from "../../shared/ClientOptions.js"
import * as TimeText from "../../shared/TimeText.js"
import * as Plan from "./Plan.js"

const variableName = Schema.String.pipe(
  Schema.pattern(/^[A-Z_][A-Z0-9_]*$/, {
    // The value may be a secret written where its variable's name belongs: never repeat it.
    message: () =>
      "must be the NAME of an environment variable (capital letters, digits and _), not a key or secret: " +
      "put the secret in a variable and name the variable here"
  })
)

/**
 * One profile as written in the file: `name`, `apiKeyEnv` and `secretKeyEnv` required; `baseUrl`,
 * `subAccounts` (a list, or `all`: every sub-account the service lists, as when neither it nor
 * `pairs` is given) or `pairs`, `accountTypes` and `rateLimit` optional.
 */
export const Profile = Schema.Struct({
  name: Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
      message: () => "must be 1 to 64 letters, digits, _, . or - (starting with a letter or digit)"
    })
  ),
  baseUrl: Schema.optional(Schema.String),
  apiKeyEnv: variableName,
  secretKeyEnv: variableName,
  subAccounts: Schema.optional(Schema.Union(
    Schema.Literal("all").annotations({ description: "every sub-account the service lists" }),
    Schema.Array(Schema.String)
  )),
  pairs: Schema.optional(Schema.Array(Schema.String)),
  accountTypes: Schema.optional(Schema.Array(Schema.String)),
  rateLimit: Schema.optional(Schema.Struct({
    limit: Schema.Int.pipe(Schema.between(1, 10_000)),
    interval: Schema.optional(Schema.String)
  }))
})

/** The file: a list of profiles under `profiles`. */
export const ProfilesFile = Schema.Struct({
  profiles: Schema.Array(Profile).pipe(Schema.minItems(1, { message: () => "lists no profile" }))
})

/**
 * What is wrong with a profiles file, in one sentence that never shows a secret: `authentication` when a
 * variable a profile names is not set (credentials missing), `usage` for anything else.
 */
export class ProfilesError extends Schema.TaggedError<ProfilesError>("@broker-history/cli/ProfilesError")(
  "ProfilesError",
  { kind: Schema.Literal("usage", "authentication"), message: Schema.String }
) {}

/**
 * A profile checked and planned: its name, the client settings of its key (as `ClientOptions` flag
 * values, the secrets read from their variables), its transfer streams and what its plan leaves out.
 */
export interface Planned {
  readonly name: string
  /** The variables that hold the key and the secret, for messages. */
  readonly apiKeyEnv: string
  readonly secretKeyEnv: string
  /** The profile's client settings (its key, base URL and budget), as the flags would give them. */
  readonly client: ClientOptions.Values
  /**
   * The sub-accounts are listed by the service when the sync starts (`subAccounts: all`, or neither
   * `subAccounts` nor `pairs`); `transferStreams` is then only the master's own.
   */
  readonly discover: boolean
  /** The account types, in the exchange's spelling. */
  readonly accountTypes: ReadonlyArray<string>
  readonly transferStreams: ReadonlyArray<Plan.TransferStream>
  /** What the plan does not read (`Plan.uncovered`), or `undefined` with `pairs` and with discovery. */
  readonly uncovered: string | undefined
  /** The warning line for account types the exchange does not document (`Choices.undocumentedAccountTypes`). */
  readonly warning: string | undefined
}

/** Keys that hold a secret inline: refused, with the name of the field that names its variable. */
const inlineSecrets: Record<string, string> = {
  apiKey: "apiKeyEnv",
  secretKey: "secretKeyEnv",
  secret: "secretKeyEnv",
  apiSecret: "secretKeyEnv",
  key: "apiKeyEnv",
  password: "secretKeyEnv"
}

const issuesText = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => {
    const path = issue.path.map((p, i) => typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)
      .join("")
    return `${path === "" ? "the file" : path}: ${issue.message}`
  }).join("; ")

const decode = Schema.decodeUnknownEither(ProfilesFile, { errors: "all", onExcessProperty: "error" })

/** Reads the text as YAML (JSON included); an inline secret is refused before anything else is said. */
const read = (text: string): Either.Either<typeof ProfilesFile.Type, string> => {
  let value: unknown
  try {
    value = Yaml.parse(text)
  } catch (e) {
    // The parser's message quotes the line it stopped at, which may hold a secret: say where only.
    const at = (e as { linePos?: ReadonlyArray<{ line: number }> }).linePos?.[0]?.line
    return Either.left(`not valid YAML or JSON${at === undefined ? "" : ` (line ${at})`}`)
  }
  const profiles = typeof value === "object" && value !== null && "profiles" in value ? value.profiles : undefined
  if (Array.isArray(profiles)) {
    for (const [i, p] of profiles.entries()) {
      if (typeof p !== "object" || p === null) continue
      const inline = Object.keys(p).find((k) => k in inlineSecrets)
      if (inline !== undefined) {
        const name = "name" in p && typeof p.name === "string" ? ` (${p.name})` : ""
        return Either.left(
          `profiles[${i}]${name}: ${inline} is written in the file; secrets are never written in a profiles file: ` +
            `put it in an environment variable and give that variable's name as ${inlineSecrets[inline]}`
        )
      }
    }
  }
  return Either.mapLeft(decode(value), issuesText)
}

const wrong = (p: typeof Profile.Type, kind: ProfilesError["kind"], message: string) =>
  Either.left(new ProfilesError({ kind, message: `profile ${p.name}: ${message}` }))

/** One profile's plan without its key and secret, or what is wrong with it as written in the file. */
const plan = (p: typeof Profile.Type): Either.Either<Planned, ProfilesError> => {
  if (p.subAccounts !== undefined && p.pairs !== undefined) {
    return wrong(p, "usage", "give subAccounts or pairs, not both (pairs lists the pairs itself)")
  }
  if (p.baseUrl !== undefined && !URL.canParse(p.baseUrl)) {
    return wrong(p, "usage", `baseUrl ${JSON.stringify(p.baseUrl)} is not a URL (https://host[:port])`)
  }
  if (p.baseUrl !== undefined && !/^https?:$/.test(new URL(p.baseUrl).protocol)) {
    return wrong(
      p,
      "usage",
      `baseUrl ${JSON.stringify(p.baseUrl)} is not an http:// or https:// URL (https://host[:port])`
    )
  }
  const types: Array<string> = []
  for (const t of p.accountTypes ?? ["SPOT", "FUTURES"]) {
    const type = Choices.accountType("accountTypes", t)
    if (Either.isLeft(type)) return wrong(p, "usage", type.left)
    if (!types.includes(type.right)) types.push(type.right)
  }
  if (types.length === 0) return wrong(p, "usage", "accountTypes lists no account type")
  let interval: string | undefined
  if (p.rateLimit?.interval !== undefined) {
    const parsed = TimeText.duration(p.rateLimit.interval)
    if (Either.isLeft(parsed)) return wrong(p, "usage", `rateLimit.interval: ${parsed.left}`)
    if (Duration.toMillis(parsed.right) <= 0) return wrong(p, "usage", "rateLimit.interval must be longer than 0")
    interval = p.rateLimit.interval
  }
  const discover = p.subAccounts === "all" || (p.subAccounts === undefined && p.pairs === undefined)
  const subs = [
    ...new Set(
      (p.subAccounts === undefined || p.subAccounts === "all" ? [] : p.subAccounts).map((s) => s.trim()).filter((
        s
      ) => s !== "")
    )
  ]
  const pairs = p.pairs === undefined
    ? Either.right(Plan.defaultPairs(subs))
    : Plan.parsePairs(p.pairs.join("\n"))
  if (Either.isLeft(pairs)) {
    return wrong(p, "usage", `pairs: ${pairs.left.replace(/^line (\d+)/, (_, n) => `entry ${n}`)}`)
  }
  return Either.right({
    name: p.name,
    apiKeyEnv: p.apiKeyEnv,
    secretKeyEnv: p.secretKeyEnv,
    client: {
      ...(p.baseUrl === undefined ? {} : { "base-url": p.baseUrl }),
      ...(p.rateLimit === undefined ? {} : { "rate-limit": String(p.rateLimit.limit) }),
      ...(interval === undefined ? {} : { "rate-limit-interval": interval })
    },
    discover,
    accountTypes: types,
    transferStreams: Plan.transferStreams(pairs.right, types),
    uncovered: p.pairs === undefined && !discover ? Plan.uncovered(subs, types) : undefined,
    warning: Choices.undocumentedAccountTypes([
      ...(p.accountTypes === undefined ? [] : types.map((type) => ({ type, where: "accountTypes" }))),
      ...pairs.right.flatMap((pair) =>
        [pair.fromAccountType, pair.toAccountType].flatMap((type) =>
          type === undefined ? [] : [{ type, where: "pairs" }]
        )
      )
    ])
  })
}

/** The profile with its key and secret read from the variables it names, or the one that is not set. */
const withKeys = (
  p: typeof Profile.Type,
  planned: Planned,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<Planned, ProfilesError> => {
  for (const [field, name] of [["apiKeyEnv", p.apiKeyEnv], ["secretKeyEnv", p.secretKeyEnv]] as const) {
    const value = env[name]
    if (value === undefined || value.trim() === "") {
      return wrong(
        p,
        "authentication",
        `${field} names ${name}, which is not set in the environment: set it to the profile's ${
          field === "apiKeyEnv" ? "API key" : "API secret key"
        }`
      )
    }
  }
  return Either.right({
    ...planned,
    client: { "api-key": env[p.apiKeyEnv], "secret-key": env[p.secretKeyEnv], ...planned.client }
  })
}

/**
 * Reads a profiles file and plans each profile against `env` (where the named variables must be set),
 * or says what is wrong in one sentence (`ProfilesError`): a secret written in the file, a field or value the file may
 * not have, two profiles of one name, and only when the whole file is right, a variable that is not set. A
 * secret's value never appears in it.
 */
export const parse = (
  text: string,
  env: Readonly<Record<string, string | undefined>>
): Either.Either<ReadonlyArray<Planned>, ProfilesError> =>
  Either.flatMap(
    Either.mapLeft(read(text), (message) => new ProfilesError({ kind: "usage", message })),
    (file) => {
      // The whole file is checked first, every profile of it; only then the variables it names.
      const seen = new Set<string>()
      const planned: Array<Planned> = []
      for (const [i, p] of file.profiles.entries()) {
        if (seen.has(p.name)) {
          return Either.left(
            new ProfilesError({
              kind: "usage",
              message: `profiles[${i}]: the name ${p.name} is given twice; every profile needs its own name`
            })
          )
        }
        seen.add(p.name)
        const one = plan(p)
        if (Either.isLeft(one)) return Either.left(one.left)
        planned.push(one.right)
      }
      return Either.all(file.profiles.map((p, i) => withKeys(p, planned[i], env)))
    }
  )

/**
 * The one line that says a profile's key was refused, naming the profile and the variables to check;
 * the other profiles go on.
 */
export const refusedLine = (
  profile: Pick<Planned, "name" | "apiKeyEnv" | "secretKeyEnv">,
  refusal: {
    readonly status: number
    readonly code: number
    readonly msg: string
    readonly reason: "ApiKey" | "Signature" | "Permission"
  }
): string => {
  const advice = refusal.reason === "ApiKey"
    ? `check ${profile.apiKeyEnv} (apiKeyEnv): the service does not know this key`
    : refusal.reason === "Signature"
    ? `check ${profile.secretKeyEnv} (secretKeyEnv): it must hold the secret of the API key in ${profile.apiKeyEnv}`
    : "give the key the permission this endpoint needs (SPOT_TRANSFER_READ for transfers, SPOT_DEPOSIT_READ for deposits)"
  return `profile ${profile.name} stopped: the service refused its key (${refusal.status} ${refusal.code} ${
    refusal.msg.replace(/\s+/g, " ").trim()
  }): ${advice}; the other profiles go on`
}
