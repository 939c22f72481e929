/**
 * `BrokerHistory`'s service over the request pipeline: the page calls (validated first, every
 * answer checked against its query), the full-history streams over `FullHistory` (their options
 * decoded first, the range pinned to the server's now), the follow streams (riding out outages on
 * the layer's tracker), the sub-account list, the layer's availability and its crowded milliseconds.
 * The public module gives it its service key and layers.
 *
 * @internal
 */
import * as CoreQueryCheck from "@broker-history/core/query/QueryCheck"
import * as Crowded from "@broker-history/core/walk/Crowded"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as BrokerConfig from "../../BrokerConfig.js"
import type { BrokerError, IncompleteHistory } from "../../BrokerError.js"
import type * as BrokerHttpClient from "../../BrokerHttpClient.js"
import type * as Checkpoint from "../../Checkpoint.js"
import type * as FollowScheduler from "../../FollowScheduler.js"
import * as FullHistory from "../../FullHistory.js"
import type * as ServerClock from "../../ServerClock.js"
import type { ChangeOptions, StreamOptions } from "../../StreamOptions.js"
import * as RideOut from "../follow/RideOut.js"
import * as Scheduler from "../follow/Scheduler.js"
import { Endpoint, SubAccount, SubAccountListQuery } from "../line/Domain.js"
import * as Effects from "../line/Effects.js"
import * as Metrics from "../line/Metrics.js"
import * as Results from "../line/Results.js"
import * as StreamQuery from "../line/StreamQuery.js"
import * as HistoryKind from "../query/HistoryKind.js"
import * as OptionRules from "../query/OptionRules.js"
import * as QueryCheck from "../query/QueryCheck.js"
import * as Range from "../query/Range.js"
import * as SubAccountList from "../query/SubAccountList.js"
import * as SettingNames from "../SettingNames.js"

/** The service's calls over `http`, as `config` says, with `clock` for the server's now. */
export const make = (
  http: Effects.ServiceOf<BrokerHttpClient.BrokerHttpClient>,
  config: Effects.ServiceOf<BrokerConfig.BrokerConfig>,
  clock: Effects.ServiceOf<ServerClock.ServerClock>
) => {
  // One per layer: every request of the layer is recorded; follow streams ride out outages.
  const tracker = RideOut.make(config.retry)
  // The server's now of follow streams (each poll's `until`): its failures are the layer's too, ridden
  // out; its successes are not recorded, since it reads the server only until the offset is measured.
  const followClock: typeof clock = { ...clock, serverNow: tracker.rideOut(clock.serverNow, false) }
  // The crowded milliseconds this layer's streams went on without (onIncomplete "warn"): logged,
  // counted in the metric and here, for the layer's own `incomplete`; by default the stream fails.
  let incompleteCount = 0
  const onIncomplete = config.onIncomplete === "fail" ?
    // The stream fails with it, naming the settings as the layer was configured.
    (incomplete: IncompleteHistory) => Effect.fail(SettingNames.name(config.names)(incomplete)) :
    (incomplete: IncompleteHistory) =>
      Effect.logWarning(Crowded.warning(incomplete)).pipe(
        Effect.annotateLogs({
          endpoint: incomplete.request.endpoint,
          millisecond: new Date(incomplete.time).toISOString(),
          received: incomplete.received,
          pages: incomplete.pages,
          reason: incomplete.reason
        }),
        Effect.andThen(Metrics.incrementBy(Metrics.incompleteFor(incomplete.request.endpoint), 1)),
        Effect.andThen(Effect.sync(() => void incompleteCount++))
      )

  /**
   * One page: validated first (nothing sent when invalid), then one request, whose answer must hold
   * only what the query asked for (its window, when it has one, and its filters).
   */
  const pageOf = <Q extends CoreQueryCheck.PageQuery, A>(history: HistoryKind.HistoryKind<Q, A>) => {
    const received = Metrics.receivedFor(history.endpoint.name)
    return (query: Q): Effect.Effect<ReadonlyArray<A>, BrokerError> =>
      Effect.suspend(() =>
        Results.match(history.validate(query), {
          onFailure: (violation) => Effect.fail(OptionRules.ofViolation(history.endpoint.name)(violation)),
          onSuccess: (valid) => {
            const { query: scope, request } = CoreQueryCheck.ofPage(history.endpoint.name, valid, history)
            return tracker.track(http.get(history.endpoint, history.toParams(valid), history.page)).pipe(
              Effect.tap((page) => Metrics.incrementBy(received, page.length)),
              Effect.flatMap((page) => {
                const refused = QueryCheck.check(page, scope, request)
                return refused === undefined ? Effect.succeed(page) : Effect.fail(refused)
              })
            )
          }
        })
      )
  }

  /**
   * A full-history stream: its query decoded first (`StreamQuery`: nothing is sent when an option is
   * wrong), then the walk of `FullHistory`, as changes (with checkpoints) or, for plain records
   * without `follow`, the records alone. `setting` names the endpoint's `maxWindow` option and
   * variable in the walk's errors.
   */
  const historyOf = <Q, A>(
    history: HistoryKind.HistoryKind<Q, A>,
    maxWindow: Duration.Duration | undefined,
    setting: string
  ) => {
    const endpoint = history.endpoint.name
    const received = Metrics.receivedFor(endpoint)
    const maxWindowMillis = maxWindow === undefined ? undefined : Duration.toMillis(maxWindow)
    // One per endpoint for the layer, like the budget: what every stream of the endpoint learns of
    // the widest window the service accepts bounds the windows of all of them.
    const windowWidths = FullHistory.windowWidths()
    // A following stream's requests (pages and server-clock reads) ride out transient failures.
    const optionsFor = (
      query: OptionRules.Decoded<HistoryKind.Filters<Q>>,
      following: boolean,
      at: typeof clock = following ? followClock : clock
    ) =>
      Effect.map(Range.resolve(endpoint, query, maxWindowMillis, at), (range) => {
        const request = following ? tracker.rideOut : tracker.track
        return {
          ...range,
          fetch: (startTime: number, endTime: number, page: number, limit: number) =>
            request(
              http.get(
                history.endpoint,
                history.toParams({ ...query.filters, startTime, endTime, page, limit } as Q),
                history.page
              )
            ).pipe(Effect.tap((records) => Metrics.incrementBy(received, records.length))),
          time: history.time,
          key: history.key,
          compare: history.compare,
          fingerprint: history.fingerprint,
          endpoint,
          filters: history.recordFilters(query.filters),
          maxPagesPerMillisecond: config.maxPagesPerMillisecond,
          onIncomplete,
          windowWidths,
          maxWindowSetting: setting
        } satisfies FullHistory.Options<A>
      })
    // Many streams: the options and every query decoded before any request (the range is resolved
    // on the local clock; each stream's first walk reads to the server's now when it starts).
    const followMany = <K>(
      streams: Iterable<FollowScheduler.Query<K, StreamOptions>>,
      options: FollowScheduler.FollowOptions = {}
    ): Stream.Stream<FollowScheduler.Change<K, A>, BrokerError> =>
      Stream.unwrap(Effect.gen(function*() {
        const { concurrency, maxInterval, minInterval, settlement } = yield* Effects.fromResult(
          StreamQuery.decode(StreamQuery.followMany, endpoint)(options)
        )
        const local = { ...clock, serverNow: clock.now }
        const walkOf = (query: unknown) =>
          Effect.flatMap(
            Effects.fromResult(history.query.followed(query)),
            (decoded) => optionsFor(decoded, true, local)
          )
        const followed = yield* Effect.forEach(Array.from(streams).entries(), ([i, { query, stream }]) =>
          walkOf(query).pipe(
            Effect.mapError(OptionRules.ofStream(i)),
            Effect.map((walk) => ({
              stream,
              options: { ...walk, follow: { interval: Duration.zero, settlement, now: followClock.serverNow } }
            }))
          ))
        return Scheduler.run(followed, { minInterval, maxInterval, slots: concurrency })
      }))
    return {
      followMany,
      changes: (query: ChangeOptions): Stream.Stream<Checkpoint.Change<A>, BrokerError> =>
        Stream.unwrap(
          Effect.flatMap(Effects.fromResult(history.query.changes(query)), (decoded) =>
            Effect.map(optionsFor(decoded, decoded.follow !== undefined), FullHistory.changes))
        ),
      records: (query: StreamOptions): Stream.Stream<A, BrokerError> =>
        Stream.unwrap(
          Effect.flatMap(Effects.fromResult(history.query.records(query)), (decoded) =>
            Effect.map(optionsFor(decoded, false), FullHistory.records))
        )
    }
  }

  const transferHistories = historyOf(
    HistoryKind.transfers,
    config.maxWindow.transfers,
    config.names.transferMaxWindow
  )
  const depositHistories = historyOf(
    HistoryKind.deposits,
    config.maxWindow.deposits,
    config.names.depositMaxWindow
  )

  // A page of the sub-account list, through the same pipeline and recorded by the layer's tracker.
  const listed = Metrics.receivedFor(Endpoint.subAccountList.name)
  const listPage: SubAccountList.Fetch = (query) =>
    tracker.track(
      http.get(Endpoint.subAccountList, SubAccountListQuery.toParams(query), SubAccount.SubAccountPage)
    ).pipe(Effect.tap((page) => Metrics.incrementBy(listed, page.length)))

  return {
    transferHistory: pageOf(HistoryKind.transfers),
    depositHistory: pageOf(HistoryKind.deposits),
    transferChanges: transferHistories.changes,
    depositChanges: depositHistories.changes,
    transfers: transferHistories.records,
    deposits: depositHistories.records,
    followTransfers: transferHistories.followMany,
    followDeposits: depositHistories.followMany,
    subAccountList: SubAccountList.page(listPage),
    subAccounts: SubAccountList.stream(listPage),
    availability: Effect.map(tracker.state, (state) => ({
      lastSuccess: state.lastSuccess,
      unavailableSince: state.outage?.since,
      lastFailure: state.outage?.failure
    })),
    incomplete: Effect.sync(() => incompleteCount)
  }
}
