/**
 * How a command-line program built with `@effect/cli` ends: with the exit code of its outcome, and
 * for a failure one line on stderr instead of Effect's own report (no stack trace, which would bury
 * the reason). The reference server's `main.ts` and `broker-history` both end this way.
 *
 * @since 0.2.0
 */
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"

/**
 * What a program's failures mean. Success, an interruption (Ctrl-C) and `--help` end with 0.
 *
 * - `usage`: the exit code of a usage error, which `@effect/cli` has already written.
 * - `known`: for a failure the program knows, writes what to say and gives its exit code;
 *   `undefined` for any other failure.
 * - `unexpected`: writes any other failure or defect (the cause, squashed) and gives its exit code.
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 *
 * const outcomes: ProgramExit.Outcomes = {
 *   usage: 2,
 *   known: (error) => (error === "port in use" ? 3 : undefined),
 *   unexpected: () => 1
 * }
 * assert.strictEqual(outcomes.known("port in use"), 3)
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export interface Outcomes {
  readonly usage: number
  readonly known: (error: unknown) => number | undefined
  readonly unexpected: (defect: unknown) => number
}

/**
 * The exit code of a program's end, by `outcomes`.
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 * import { Exit } from "effect"
 *
 * const outcomes: ProgramExit.Outcomes = {
 *   usage: 2,
 *   known: (error) => (error === "port in use" ? 3 : undefined),
 *   unexpected: () => 1
 * }
 * assert.strictEqual(ProgramExit.exitCode(Exit.void, outcomes), 0)
 * assert.strictEqual(ProgramExit.exitCode(Exit.fail("port in use"), outcomes), 3)
 * assert.strictEqual(ProgramExit.exitCode(Exit.die(new Error("bug")), outcomes), 1)
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const exitCode = (exit: Exit.Exit<unknown, unknown>, outcomes: Outcomes): number => {
  if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return 0
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value
    // @effect/cli has written the usage error (or the help that was asked for).
    if (ValidationError.isValidationError(error)) return ValidationError.isHelpRequested(error) ? 0 : outcomes.usage
    const code = outcomes.known(error)
    if (code !== undefined) return code
  }
  return outcomes.unexpected(Cause.squash(exit.cause))
}

/**
 * Runs a program on Node (`NodeRuntime.runMain`, which also interrupts it on SIGINT/SIGTERM) and
 * exits with `exitCode`, without Effect's own failure report and pretty logger.
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 * import { Console } from "effect"
 *
 * // In a program's main module:
 * const main = () =>
 *   ProgramExit.runMain(Console.log("done"), {
 *     usage: 2,
 *     known: () => undefined,
 *     unexpected: (defect) => {
 *       process.stderr.write(`unexpected failure: ${String(defect)}\n`)
 *       return 1
 *     }
 *   })
 * assert.strictEqual(typeof main, "function")
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const runMain = <A, E>(program: Effect.Effect<A, E>, outcomes: Outcomes): void =>
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => onExit(exitCode(exit, outcomes))
  })
