/**
 * What a supervisor is told about a following sync: each profile's state, whether the process is
 * live and whether it is ready, and the JSON body of both answers. Pure: the profiles' facts and the
 * clock in, the verdicts out.
 *
 * - live: some profile still runs (or none has started yet); when every profile has stopped, the
 *   process is about to end with their exit code, and restarting it is what the exit code decides.
 * - ready: every profile has caught up, nothing it needs is unavailable, and its last successful
 *   request to the service is recent: within `recentWithin(interval)`.
 *
 * @internal
 */

/** Where a profile's run is. */
export type Phase = "starting" | "catching-up" | "following" | "stopped"

/** A profile's state as answered: its phase, or `unavailable` while the service or the database is out. */
export type State = Phase | "unavailable"

/** What is known of one profile. */
export interface Profile {
  readonly name: string
  readonly phase: Phase
  /** When a request of the profile's client last succeeded (ms). */
  readonly lastSuccess: number | undefined
  /** The outages under way: since when the service (this profile's client) or the database is out. */
  readonly serviceUnavailableSince: number | undefined
  readonly databaseUnavailableSince: number | undefined
}

/**
 * How old the last successful request may be for a following profile to be ready: three poll
 * intervals, at least 30 seconds. Every stream is polled at least once per `--interval` when the
 * budget allows, so a working follower's last success is far younger.
 */
export const recentWithin = (interval: number): number => Math.max(3 * interval, 30_000)

/** A profile's state. */
export const state = (profile: Profile): State =>
  profile.phase === "stopped" || profile.phase === "starting"
    ? profile.phase
    : profile.serviceUnavailableSince !== undefined || profile.databaseUnavailableSince !== undefined
    ? "unavailable"
    : profile.phase

/** Whether a profile is ready: following, nothing unavailable, last success recent. */
export const isReady = (profile: Profile, now: number, interval: number): boolean =>
  state(profile) === "following" && profile.lastSuccess !== undefined &&
  now - profile.lastSuccess <= recentWithin(interval)

/** The JSON body of both answers. */
export interface Body {
  readonly live: boolean
  readonly ready: boolean
  readonly profiles: ReadonlyArray<{
    readonly name: string
    readonly state: State
    readonly ready: boolean
    readonly lastSuccess: string | null
    readonly unavailableSince: string | null
  }>
}

const iso = (ms: number | undefined): string | null => ms === undefined ? null : new Date(ms).toISOString()

/** The verdicts and the body for these profiles at `now`. No profile: live, not ready. */
export const report = (profiles: ReadonlyArray<Profile>, now: number, interval: number): Body => {
  const answered = profiles.map((p) => {
    const since = [p.serviceUnavailableSince, p.databaseUnavailableSince].filter((t) => t !== undefined)
    return {
      name: p.name,
      state: state(p),
      ready: isReady(p, now, interval),
      lastSuccess: iso(p.lastSuccess),
      unavailableSince: since.length === 0 ? null : iso(Math.min(...since))
    }
  })
  return {
    live: profiles.length === 0 || profiles.some((p) => p.phase !== "stopped"),
    ready: answered.length > 0 && answered.every((p) => p.ready),
    profiles: answered
  }
}
