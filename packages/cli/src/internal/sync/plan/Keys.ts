/**
 * What each key of `sync` syncs: the single-key flags as one plan (profile `default`),
 * or the profiles of `--profiles FILE` with the shared client flags; the files they name are read
 * here, and every problem is a usage error that names its flag. With profiles, the process's one
 * OpenTelemetry exporter.
 *
 * @internal
 */
import { HttpProxy } from "@broker-history/client"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Fs from "node:fs"
import * as Choices from "../../shared/Choices.js"
import * as ClientOptions from "../../shared/ClientOptions.js"
import { fromEither, usage } from "../../shared/Flags.js"
import * as Plan from "./Plan.js"
import * as Profiles from "./Profiles.js"

const readFile = (flag: string, path: string) =>
  Effect.try({
    try: () => Fs.readFileSync(path, "utf8"),
    catch: (e) => usage(`--${flag}: cannot read ${path} (${(e as Error).message})`)
  })

/**
 * What one key syncs: its client settings, its streams, what they leave out; `profile` for a file's.
 * With `discover`, the sub-accounts are listed by the service when the sync starts and the plan is
 * made over them for `accountTypes`; `transferStreams` is then only the master's own.
 */
export interface KeyPlan {
  readonly profile: Profiles.Planned | undefined
  readonly client: ClientOptions.Values
  readonly discover: boolean
  readonly accountTypes: ReadonlyArray<string>
  readonly transferStreams: ReadonlyArray<Plan.TransferStream>
  readonly uncovered: string | undefined
  /** The warning line for account types the exchange does not document (`Choices.undocumentedAccountTypes`). */
  readonly warning: string | undefined
}

/** The flags that choose what is synced. */
export interface PlanFlags {
  readonly subAccounts: string | undefined
  readonly subAccountsFile: string | undefined
  readonly pairs: string | undefined
  readonly accountTypes: string | undefined
  readonly client: ClientOptions.Values
}

/** The single-key flags: one implicit profile, `default`. */
export const singleKeyPlan = (flags: PlanFlags) =>
  Effect.gen(function*() {
    if (flags.subAccounts !== undefined && flags.subAccountsFile !== undefined) {
      return yield* Effect.fail(usage("give --sub-accounts or --sub-accounts-file, not both"))
    }
    if (flags.pairs !== undefined && (flags.subAccounts !== undefined || flags.subAccountsFile !== undefined)) {
      return yield* Effect.fail(usage("--pairs lists the pairs itself: drop --sub-accounts/--sub-accounts-file"))
    }
    const accountTypes = [
      ...new Set(
        yield* Effect.forEach(
          Plan.names(flags.accountTypes ?? "SPOT,FUTURES"),
          (t) => fromEither(Choices.accountType("--account-types", t))
        )
      )
    ]
    if (accountTypes.length === 0) return yield* Effect.fail(usage("--account-types lists no account type"))
    const subs = flags.subAccounts !== undefined
      ? Plan.names(flags.subAccounts)
      : flags.subAccountsFile !== undefined
      ? Plan.names(yield* readFile("sub-accounts-file", flags.subAccountsFile))
      : []
    const pairs = flags.pairs === undefined
      ? Plan.defaultPairs(subs)
      : yield* Either.match(Plan.parsePairs(yield* readFile("pairs", flags.pairs)), {
        onLeft: (m) => Effect.fail(usage(`--pairs ${flags.pairs}: ${m}`)),
        onRight: Effect.succeed
      })
    // No list of any kind: the service lists the sub-accounts when the sync starts.
    const discover = flags.subAccounts === undefined && flags.subAccountsFile === undefined && flags.pairs === undefined
    return {
      profile: undefined,
      client: flags.client,
      discover,
      accountTypes,
      transferStreams: Plan.transferStreams(pairs, accountTypes),
      uncovered: flags.pairs === undefined && !discover ? Plan.uncovered(subs, accountTypes) : undefined,
      warning: Choices.undocumentedAccountTypes([
        ...(flags.accountTypes === undefined ? [] : accountTypes.map((type) => ({ type, where: "--account-types" }))),
        ...pairs.flatMap((p) =>
          [p.fromAccountType, p.toAccountType].flatMap((type) =>
            type === undefined ? [] : [{ type, where: `--pairs ${flags.pairs}` }]
          )
        )
      ])
    } satisfies KeyPlan
  })

/** The flags a profiles file gives per key: refused next to `--profiles`. */
const perKeyFlags = ["base-url", "api-key", "secret-key", "rate-limit", "rate-limit-interval"] as const

/** The profiles of `--profiles FILE`, each with the shared client flags (timeouts, retries, proxy). */
export const filePlans = (file: string, flags: PlanFlags) =>
  Effect.gen(function*() {
    const given = [
      ...(flags.subAccounts === undefined ? [] : ["--sub-accounts"]),
      ...(flags.subAccountsFile === undefined ? [] : ["--sub-accounts-file"]),
      ...(flags.pairs === undefined ? [] : ["--pairs"]),
      ...(flags.accountTypes === undefined ? [] : ["--account-types"]),
      ...perKeyFlags.filter((f) => flags.client[f] !== undefined).map((f) => `--${f}`)
    ]
    if (given.length > 0) {
      return yield* Effect.fail(usage(
        `--profiles gives each key its own settings: drop ${
          given.join(", ")
        } (a profile has baseUrl, apiKeyEnv, secretKeyEnv, subAccounts or pairs, accountTypes and rateLimit)`
      ))
    }
    const profiles = yield* Profiles.parse(yield* readFile("profiles", file), process.env).pipe(
      Effect.mapError((e) => new Profiles.ProfilesError({ kind: e.kind, message: `--profiles ${file}: ${e.message}` }))
    )
    return profiles.map((profile): KeyPlan => ({
      profile,
      // The exporter is the process's, built once around every profile (see `profilesTelemetry`).
      client: { ...flags.client, ...profile.client, "otlp-endpoint": undefined },
      discover: profile.discover,
      accountTypes: profile.accountTypes,
      transferStreams: profile.transferStreams,
      uncovered: profile.uncovered,
      warning: profile.warning === undefined
        ? undefined
        : `--profiles ${file}: profile ${profile.name}: ${profile.warning}`
    }))
  })

/**
 * The client settings a key's client layer reads besides `BrokerConfig`, checked before the database is
 * opened: the proxy (`--proxy` / `BROKER_PROXY`, else the `HTTPS_PROXY` / `HTTP_PROXY` it defaults
 * to) and the OpenTelemetry collector's URL. A bad one is the `ConfigError` the layer would fail with.
 */
export const checkClient = (values: ClientOptions.Values, env: Readonly<Record<string, string | undefined>>) =>
  Effect.gen(function*() {
    const configProvider = yield* ClientOptions.provider(values, env)
    const proxy = yield* Effect.withConfigProvider(HttpProxy.config, configProvider)
    if (proxy._tag === "Environment") yield* HttpProxy.fromEnvironment(env)
    yield* Effect.withConfigProvider(ClientOptions.otlpEndpoint, configProvider)
  })

/** The variable of the OpenTelemetry collector's URL (`--otlp-endpoint`). */
export const telemetryVariable = ClientOptions.flags.find((f) => f.flag === "otlp-endpoint")!.env

/**
 * The exporter of a sync of profiles, read (and checked) once from the shared flags and variables; the
 * profiles' clients are then built without one, so the process's metrics are exported once.
 */
export const profilesTelemetry = (values: ClientOptions.Values) =>
  Effect.gen(function*() {
    const configProvider = yield* ClientOptions.provider(values, process.env)
    const endpoint = yield* Effect.withConfigProvider(ClientOptions.otlpEndpoint, configProvider)
    if (Option.isNone(endpoint)) return Layer.empty
    const Telemetry = yield* Effect.promise(() => import("../../shared/Telemetry.js"))
    return Layer.discard(Telemetry.layer(endpoint.value))
  })
