/**
 * What the commands' flags share: an optional text flag, `--verbose`, the range of `--since` /
 * `--until`, and a flag's reading as an effect (its value, or the usage error, exit 2, whose message
 * names the flag).
 *
 * @internal
 */
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ExitCode from "./ExitCode.js"
import * as TimeText from "./TimeText.js"

/** An optional text flag: its value, or `undefined` when it is not given. */
export const optionalText = (name: string, description: string): Options.Options<string | undefined> =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional, Options.map(Option.getOrUndefined))

/** `--verbose`, which every command shares: on failure, the full cause after the one-line message. */
export const verbose: Options.Options<boolean> = Options.boolean("verbose").pipe(
  Options.withDescription("on failure, print the full cause (stack traces) after the one-line message (default off)")
)

/** A usage error (exit 2) with its message. */
export const usage = (message: string): ExitCode.UsageError => new ExitCode.UsageError({ message })

/** A flag's reading as an effect: its value, or a usage error with its message. */
export const fromEither = <A>(either: Either.Either<A, string>): Effect.Effect<A, ExitCode.UsageError> =>
  Either.match(either, { onLeft: (m) => Effect.fail(usage(m)), onRight: Effect.succeed })

/** A range in Unix ms; an end left `undefined` is the client's default. */
export interface Range {
  readonly since: number | undefined
  readonly until: number | undefined
}

/**
 * Reads `--since` / `--until` (dates, date-times, Unix ms or `90d` before `now`): `--since` first,
 * then `--until`, then their order.
 */
export const range = (
  since: string | undefined,
  until: string | undefined,
  now: number
): Either.Either<Range, string> =>
  Either.gen(function*() {
    const read = (name: string, text: string | undefined) =>
      text === undefined
        ? Either.right(undefined)
        : Either.mapLeft(TimeText.instant(text, now), (message) => `--${name}: ${message}`)
    const s = yield* read("since", since)
    const u = yield* read("until", until)
    if (s !== undefined && u !== undefined && s > u) return yield* Either.left("--since must not be after --until")
    return { since: s, until: u }
  })
