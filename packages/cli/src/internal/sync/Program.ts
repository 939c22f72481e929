/**
 * What `broker-history sync` does once its flags are parsed (see `Command`): the checks, the plans, the
 * run and its summary. Loaded only when `sync` runs, so that the other commands do not load its
 * store, migrator and run.
 *
 * @internal
 */
import type { BrokerError } from "@broker-history/client"
import { BrokerConfig, BrokerHistory } from "@broker-history/client"
import type * as Command from "@effect/cli/Command"
import { SqlError } from "@effect/sql/SqlError"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ClientOptions from "../shared/ClientOptions.js"
import * as ExitCode from "../shared/ExitCode.js"
import { fromEither, range, usage } from "../shared/Flags.js"
import * as Progress from "../shared/Progress.js"
import * as TimeText from "../shared/TimeText.js"
import * as Flags from "./Flags.js"
import * as HealthServer from "./health/HealthServer.js"
import * as Discovery from "./plan/Discovery.js"
import * as Estimate from "./plan/Estimate.js"
import * as Keys from "./plan/Keys.js"
import * as Plan from "./plan/Plan.js"
import * as Profiles from "./plan/Profiles.js"
import * as Positions from "./run/Positions.js"
import * as Run from "./run/Run.js"
import * as DatabaseName from "./store/DatabaseName.js"
import * as Store from "./store/Store.js"
import * as Summary from "./Summary.js"

const durationFlag = (flag: string, text: string) =>
  Either.match(TimeText.duration(text), {
    onLeft: (m) => Effect.fail(usage(`--${flag}: ${m}`)),
    onRight: (d) => Effect.succeed(Duration.toMillis(d))
  })

/** The `sync` command's handler: `Command.command` loads this module and runs it with the parsed flags. */
export const run = (flags: Command.Command.ParseConfig<typeof Flags.options>) =>
  Effect.gen(function*() {
    const outcome = yield* Effect.gen(function*() {
      const { db } = yield* fromEither(Flags.limits(flags, process.env.BROKER_DB))
      const plans = flags.profiles === undefined
        ? [yield* Keys.singleKeyPlan(flags)]
        : yield* Keys.filePlans(flags.profiles, flags)
      const interval = yield* durationFlag("interval", flags.interval)
      if (interval <= 0) return yield* Effect.fail(usage("--interval must be longer than 0"))
      const settlement = yield* durationFlag("settlement", flags.settlement)
      const reset = yield* fromEither(Flags.resetStreams(flags.resetStream))
      const healthAddress = yield* fromEither(Flags.health(flags))
      const { since: given } = yield* fromEither(range(flags.since, undefined, Date.now()))
      yield* fromEither(Flags.sinceNotAhead(given, flags.since, Date.now()))
      const listInterval = yield* durationFlag("list-interval", flags.listInterval ?? Flags.defaultListInterval)
      yield* fromEither(Flags.listing(flags, plans.some((p) => p.discover), listInterval))
      yield* fromEither(Flags.dryRun(flags))
      // Every profile's client settings are read (and checked) before the database is opened.
      // With profiles, one OpenTelemetry exporter for the process, not one per profile's client.
      const telemetry = flags.profiles === undefined ? Layer.empty : yield* Keys.profilesTelemetry(flags.client)
      const clientEnv = flags.profiles === undefined
        ? process.env
        : { ...process.env, [Keys.telemetryVariable]: undefined }
      const runs = yield* Effect.forEach(plans, (plan) =>
        Effect.map(BrokerConfig.BrokerConfig, ({ maxWindow, rateLimit, retry }) => ({
          plan,
          since: Flags.since(given, maxWindow.transfers, Date.now()),
          depositWindow: Duration.format(maxWindow.deposits),
          // What the plan's cost is measured against: the widest windows and the key's budget.
          cost: {
            maxWindow: {
              transfers: maxWindow.transfers === undefined ? undefined : Duration.toMillis(maxWindow.transfers),
              deposits: Duration.toMillis(maxWindow.deposits)
            },
            rate: { limit: rateLimit.limit, interval: Duration.toMillis(rateLimit.interval) }
          },
          // Following, outages are retried without limit, backing off up to BROKER_FOLLOW_RETRY_MAX_DELAY.
          outageRetry: { baseDelay: retry.baseDelay, maxDelay: retry.followMaxDelay }
        })).pipe(
          Effect.zipLeft(Keys.checkClient(plan.client, clientEnv)),
          Effect.provide(ClientOptions.configLayer(plan.client, clientEnv)),
          Effect.mapError((e) =>
            plan.profile === undefined ?
              e :
              usage(
                `--profiles ${flags.profiles}: profile ${plan.profile.name}: ${ExitCode.describe(e).message}`
              )
          )
        ))
      const started = Date.now()
      const out = (line: string) =>
        process.stdout.write(line + "\n")
      const err = (line: string) =>
        process.stderr.write(`broker-history: ${line}\n`)
      // Account types the exchange does not document are sent as given, after one line that says so.
      for (const { plan } of runs) if (plan.warning !== undefined) err(plan.warning)

      type Run = (typeof runs)[number]
      /** How one profile ended: its prefix, skipped streams, streams, crowded milliseconds, and its failure. */
      interface Ended {
        readonly prefix: string
        readonly damaged: ReadonlyArray<Positions.Damaged>
        readonly streams: number
        readonly incomplete: number
        readonly failed: ExitCode.Kind | undefined
      }
      /**
       * A profile of a file that the service refuses (or cannot serve) stops alone, with one line; a
       * database failure stops every profile.
       */
      const alone = <R>(
        run: Run,
        prefix: string,
        self: Effect.Effect<Ended, BrokerError.BrokerError | SqlError | ConfigError.ConfigError, R>
      ) =>
        Effect.catchIf(
          self,
          (e): e is BrokerError.BrokerError =>
            run.plan.profile !== undefined && !(e instanceof SqlError) && !ConfigError.isConfigError(e),
          (e) =>
            Effect.sync((): Ended => {
              err(
                e._tag === "AuthenticationError"
                  ? Profiles.refusedLine(run.plan.profile!, e)
                  : `profile ${run.plan.profile!.name} stopped: ${
                    ExitCode.describe(e).message.replace(/\.$/, "")
                  }; the other profiles go on`
              )
              return { prefix, damaged: [], streams: 0, incomplete: 0, failed: ExitCode.describe(e).kind }
            })
        )

      /** What one profile's plan costs, said without fetching a record or opening the database. */
      const dryRunProfile = (run: Run) => {
        const { plan } = run
        const prefix = plan.profile === undefined ? "" : `profile ${plan.profile.name}: `
        const log = (line: string) => out(prefix + line)
        const dry = Effect.gen(function*() {
          const history = yield* BrokerHistory.BrokerHistory
          const discovered = plan.discover ? yield* Discovery.discover(history, plan.accountTypes) : undefined
          if (discovered !== undefined) {
            log(`the service lists ${discovered.listed.length} sub-accounts`)
            for (const sub of discovered.listed) log(Discovery.subAccountLine(sub, run.since.transfers))
          }
          const transferStreams = discovered?.transferStreams ?? plan.transferStreams
          const estimate = Estimate.estimate(
            [
              { kind: "deposits" as const, start: run.since.deposits },
              ...transferStreams.map((s: Plan.PlannedStream) => ({
                kind: "transfers" as const,
                start: Positions.startOf(run.since, { kind: "transfers", startsAt: s.startsAt })
              }))
            ],
            { ...run.cost, settlement },
            Date.now(),
            discovered?.pages ?? 0
          )
          log(Summary.planLine({
            discovered: discovered === undefined ? undefined : { listed: discovered.listed.length },
            streams: estimate.streams,
            requests: estimate.requests,
            seconds: estimate.seconds,
            ...run.cost
          }))
          const uncovered = discovered === undefined
            ? plan.uncovered
            : Plan.uncovered(discovered.listed.map((s) => s.subAccount), plan.accountTypes, true)
          if (uncovered !== undefined) log(uncovered)
          log("dry run: no record was fetched and the database was not opened; this is a first run's estimate")
          return { prefix, damaged: [], streams: estimate.streams, incomplete: 0, failed: undefined } satisfies Ended
        })
        return alone(run, prefix, dry.pipe(Effect.provide(ClientOptions.layer(plan.client, clientEnv))))
      }

      /** One profile synced and summarised; a profile of a file that fails stops alone, with one line. */
      const syncProfile = (run: Run) => {
        const { plan } = run
        const name = plan.profile?.name ?? Store.defaultProfile
        const prefix = plan.profile === undefined ? "" : `profile ${name}: `
        const log = (line: string) => out(prefix + line)
        return alone(
          run,
          prefix,
          Effect.gen(function*() {
            const { discovered, incomplete, result, transferStreams } = yield* Effect.gen(function*() {
              const history = yield* BrokerHistory.BrokerHistory
              // No list given: the service lists the sub-accounts, and the plan is made over them.
              const discovered = plan.discover ? yield* Discovery.discover(history, plan.accountTypes) : undefined
              const transferStreams = discovered?.transferStreams ?? plan.transferStreams
              const result = yield* Run.run({
                profile: name,
                transferStreams,
                since: run.since,
                reset,
                follow: flags.follow ? interval : undefined,
                settlement,
                concurrency: flags.concurrency,
                batchSize: flags.batchSize,
                batchWait: 250,
                outageRetry: run.outageRetry,
                log,
                warn: (line) => err(prefix + line),
                plan: {
                  ...run.cost,
                  requests: discovered?.pages ?? 0,
                  subAccounts: discovered?.listed.map((s) => s.subAccount)
                },
                relist: flags.follow && plan.discover
                  ? {
                    every: listInterval,
                    streams: Effect.map(Discovery.discover(history, plan.accountTypes), (again) => ({
                      subAccounts: again.listed.map((s) => s.subAccount),
                      transferStreams: again.transferStreams
                    }))
                  }
                  : undefined
              }).pipe(Effect.scoped)
              // This profile's crowded milliseconds gone on without (--on-incomplete warn): its own client's count.
              return { discovered, incomplete: yield* history.incomplete, result, transferStreams }
            }).pipe(Effect.provide(ClientOptions.layer(plan.client, clientEnv)))
            const counts = yield* Effect.flatMap(Store.SyncStore, (s) => s.forProfile(name).counts)
            // The client's request counts are the process's: one profile's alone are known only without others.
            const requests = plan.profile === undefined
              ? yield* Effect.flatMap(Progress.Progress, (p) => p.snapshot)
              : undefined
            const streams = transferStreams.length + 1
            log(Summary.syncedLine({
              streams: streams - result.damaged.length,
              db: DatabaseName.describe(db),
              totals: result.totals,
              counts,
              requests,
              seconds: (Date.now() - started) / 1000,
              profile: plan.profile !== undefined,
              incomplete
            }))
            for (
              const line of Summary.coverageLines(result, {
                defaultDeposits: given === undefined ? run.since.deposits : undefined,
                depositWindow: run.depositWindow,
                uncovered: discovered === undefined
                  ? plan.uncovered
                  : Plan.uncovered(discovered.listed.map((s) => s.subAccount), plan.accountTypes, true)
              })
            ) log(line)
            return { prefix, damaged: result.damaged, streams, incomplete, failed: undefined } satisfies Ended
          })
        )
      }

      // A dry run lists and estimates, one profile after the other; it opens no database.
      if (flags.dryRun) {
        return yield* Effect.forEach(runs, dryRunProfile).pipe(
          Effect.provide(Layer.mergeAll(telemetry, Progress.layer({ label: "sync", endpoints: [] })))
        )
      }

      // Flags are checked above, before the database is opened or created.
      return yield* Effect.forEach(runs, syncProfile, { concurrency: "unbounded" }).pipe(
        Effect.tap((outcomes) =>
          flags.profiles === undefined ? Effect.void : Effect.map(
            Effect.flatMap(Progress.Progress, (p) => p.snapshot),
            (progress) =>
              out(Summary.profilesLine({
                synced: outcomes.filter((o) => o.failed === undefined).length,
                profiles: outcomes.length,
                db: DatabaseName.describe(db),
                requests: progress,
                seconds: (Date.now() - started) / 1000
              }))
          )
        ),
        Effect.provide(Layer.mergeAll(
          Store.layer(db),
          telemetry,
          // The list pages count with the history's requests: the summary's figure is what the run cost.
          Progress.layer({ label: "sync", endpoints: ["transferHistory", "depositHistory", "subAccountList"] })
        )),
        // Following: the profiles' health, and its endpoints listening before the database is opened.
        Effect.provide(
          flags.follow
            ? HealthServer.layerFollow(healthAddress, `--health ${flags.health}`, {
              interval,
              retry: runs[0].outageRetry,
              profiles: runs.map((r) => r.plan.profile?.name ?? Store.defaultProfile)
            })
            : Layer.empty
        )
      )
    }).pipe(
      // A profile's variable that is not set: credentials are missing (exit 3), reported below.
      Effect.catchTag("ProfilesError", (e) => e.kind === "usage" ? Effect.fail(usage(e.message)) : Effect.succeed(e)),
      // Following, a signal is the clean stop; a catch-up stopped by one did not finish its job.
      Effect.onInterrupt(() =>
        flags.follow ? Effect.void : ExitCode.interrupted(
          "the sync stopped before it caught up; every batch written is committed: run it again to continue"
        )
      ),
      ExitCode.report(flags.verbose)
    )
    if (outcome instanceof Profiles.ProfilesError) {
      yield* Effect.sync(() => process.stderr.write(`broker-history: ${outcome.message}\n`))
      return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes.authentication }))
    }
    // Damaged checkpoints: the other streams are synced and summarised; the command then fails, as it
    // does when a profile stopped (with the code of the first profile that did not complete).
    if (outcome === undefined) return
    for (const o of outcome) {
      if (o.damaged.length > 0) {
        yield* Effect.sync(() =>
          process.stderr.write(
            `broker-history: ${o.prefix}${Summary.damagedSentence(o.damaged, o.streams)}\n`
          )
        )
      }
    }
    // A history the service did not serve whole (--on-incomplete warn): one sentence, exit 5 unless
    // another failure's code comes first.
    const milliseconds = outcome.reduce((n, o) => n + o.incomplete, 0)
    if (milliseconds > 0) {
      yield* Effect.sync(() =>
        process.stderr.write(`broker-history: ${new ExitCode.IncompleteRun({ milliseconds }).message}\n`)
      )
    }
    const first = outcome.find((o) => o.failed !== undefined || o.damaged.length > 0)
    if (first !== undefined) {
      return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes[first.failed ?? "other"] }))
    }
    if (milliseconds > 0) return yield* Effect.fail(new ExitCode.Failure({ code: ExitCode.codes.incomplete }))
  })
