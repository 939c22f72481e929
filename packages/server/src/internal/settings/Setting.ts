/**
 * One setting of the server program: a flag, else its `BROKER_SERVER_*` variable, else its default,
 * checked, with a usage error that names what was given, and its help text. The checks of a text are
 * value in, value out: integers in bounds, probabilities from 0 to 1, truth values, one of a few
 * words; each either reads the value or says what the text must be.
 *
 * @internal
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"

/** A check of a text: the value, or what the text must be ("must be an integer >= 0, got …"). */
export type Check<A> = (text: string) => Either.Either<A, string>

const integerText = /^-?[0-9]{1,15}$/

/** An integer from `min` to `max`. */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER): Check<number> => (text) => {
  const n = integerText.test(text) ? Number(text) : NaN
  if (!(n >= min)) return Either.left(`must be an integer >= ${min}, got ${JSON.stringify(text)}`)
  if (n > max) return Either.left(`must be at most ${max}, got ${n}`)
  return Either.right(n)
}

/** A number from 0 to 1. */
export const probability: Check<number> = (text) => {
  const p = /^[0-9]*\.?[0-9]+$/.test(text) ? Number(text) : NaN
  return p >= 0 && p <= 1
    ? Either.right(p)
    : Either.left(`must be a probability from 0 to 1, got ${JSON.stringify(text)}`)
}

/** Any text. */
export const text: Check<string> = Either.right

/** 1/true/yes/on or 0/false/no/off, in any letter case. */
export const truth: Check<boolean> = (value) => {
  if (/^(1|true|yes|on)$/i.test(value)) return Either.right(true)
  if (/^(0|false|no|off)$/i.test(value)) return Either.right(false)
  return Either.left(`must be true or false (or 1/0, yes/no, on/off), got ${JSON.stringify(value)}`)
}

/** One of `values`, in any letter case, read as written in `values`. */
export const oneOf = <A extends string>(values: ReadonlyArray<A>): Check<A> => (text) => {
  const found = values.find((value) => value.toLowerCase() === text.toLowerCase())
  return found === undefined
    ? Either.left(`must be ${values.join(" or ")}, got ${JSON.stringify(text)}`)
    : Either.right(found)
}

/** A text as given, with where it came from: `--port` or `BROKER_SERVER_PORT`, for the messages. */
export interface Given<A> {
  readonly from: string
  readonly value: A
}

/** A usage error of one paragraph per line. */
export const usage = (...lines: ReadonlyArray<string>): ValidationError.ValidationError =>
  ValidationError.invalidValue(HelpDoc.blocks(lines.map((line) => HelpDoc.p(line))))

/**
 * A `BROKER_SERVER_*` variable as text; empty or blank counts as unset (`MissingData`), so that the
 * option falls back to its default.
 */
export const variable = (name: string): Config.Config<Given<string>> =>
  Config.string(name).pipe(Config.mapOrFail((text) =>
    text.trim() === ""
      ? Either.left(ConfigError.MissingData([], `${name} is empty`))
      : Either.right({ from: name, value: text })
  ))

/**
 * A flag's text, else its variable's: checked by `check`, whose complaint is prefixed with the
 * flag or the variable, whichever was given. (A variable's value is checked here rather than in its
 * `Config`: `@effect/cli` would print a failed `Config` as a `ConfigError`, not as our sentence.)
 */
export const setting = <A>(flag: string, variableName: string, check: Check<A>): Options.Options<A> =>
  Options.text(flag).pipe(
    Options.map((text): Given<string> => ({ from: `--${flag}`, value: text })),
    Options.withFallbackConfig(variable(variableName)),
    Options.mapEffect((given) =>
      Either.match(check(given.value), {
        onLeft: (problem) => Effect.fail(usage(`${given.from} ${problem}`)),
        onRight: Effect.succeed
      })
    )
  )

/** Help text: the meaning, then the variable and the default, as every option of the CLI writes them. */
export const describe = (text: string, variableName: string, fallback: string): string =>
  `${text} (env ${variableName}, default ${fallback})`

/** An integer setting with its default. */
export const integerSetting = (
  flag: string,
  variableName: string,
  bounds: { readonly min: number; readonly max?: number },
  fallback: number,
  meaning: string
): Options.Options<number> =>
  setting(flag, variableName, integer(bounds.min, bounds.max)).pipe(
    Options.withDefault(fallback),
    Options.withPseudoName("INTEGER"),
    Options.withDescription(describe(meaning, variableName, String(fallback)))
  )

/** A fault probability, 0 (never, the default) to 1 (always). */
export const probabilitySetting = (flag: string, variableName: string, meaning: string): Options.Options<number> =>
  setting(flag, variableName, probability).pipe(
    Options.withDefault(0),
    Options.withPseudoName("0..1"),
    Options.withDescription(describe(meaning, variableName, "0"))
  )

/** A text setting with its default. */
export const textSetting = (
  flag: string,
  variableName: string,
  pseudoName: string,
  fallback: string,
  meaning: string
): Options.Options<string> =>
  setting(flag, variableName, text).pipe(
    Options.withDefault(fallback),
    Options.withPseudoName(pseudoName),
    Options.withDescription(describe(meaning, variableName, fallback))
  )
