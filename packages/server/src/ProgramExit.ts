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
 * A signal that stops a program: `runMain` interrupts it on either (Ctrl-C is SIGINT; `kill`,
 * systemd and `docker stop` send SIGTERM).
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 *
 * const signals: ReadonlyArray<ProgramExit.Signal> = ["SIGINT", "SIGTERM"]
 * assert.deepStrictEqual(signals.map(ProgramExit.signalCode), [130, 143])
 * ```
 *
 * @since 0.2.0
 * @category models
 */
export type Signal = "SIGINT" | "SIGTERM"

/**
 * The exit code of a program that a signal cut short, by the shell's convention: 128 + the signal's
 * number (130 for SIGINT, 143 for SIGTERM).
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 *
 * assert.strictEqual(ProgramExit.signalCode("SIGINT"), 130)
 * assert.strictEqual(ProgramExit.signalCode("SIGTERM"), 143)
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const signalCode = (signal: Signal): number => signal === "SIGINT" ? 130 : 143

/**
 * What a program's failures mean. Success and `--help` end with 0.
 *
 * - `usage`: the exit code of a usage error, which `@effect/cli` has already written.
 * - `known`: for a failure the program knows, writes what to say and gives its exit code;
 *   `undefined` for any other failure.
 * - `unexpected`: writes any other failure or defect (the cause, squashed) and gives its exit code.
 * - `interrupted` (optional): the exit code of an interruption, given the signal that caused it
 *   (`undefined`: no signal was received). Without it an interruption ends with 0: the clean stop
 *   of a program that runs until stopped (a server).
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
  readonly interrupted?: ((signal: Signal | undefined) => number) | undefined
}

/**
 * The exit code of a program's end, by `outcomes`; `signal` is the signal the program received, if any.
 *
 * @example
 * ```ts
 * import { ProgramExit } from "@broker-history/server"
 * import { Exit, FiberId } from "effect"
 *
 * const outcomes: ProgramExit.Outcomes = {
 *   usage: 2,
 *   known: (error) => (error === "port in use" ? 3 : undefined),
 *   unexpected: () => 1
 * }
 * assert.strictEqual(ProgramExit.exitCode(Exit.void, outcomes), 0)
 * assert.strictEqual(ProgramExit.exitCode(Exit.fail("port in use"), outcomes), 3)
 * assert.strictEqual(ProgramExit.exitCode(Exit.die(new Error("bug")), outcomes), 1)
 * // Interrupted: 0 unless the program says otherwise.
 * const stopped = Exit.interrupt(FiberId.none)
 * assert.strictEqual(ProgramExit.exitCode(stopped, outcomes, "SIGTERM"), 0)
 * const cutShort = { ...outcomes, interrupted: (signal?: ProgramExit.Signal) => signal === undefined ? 1 : ProgramExit.signalCode(signal) }
 * assert.strictEqual(ProgramExit.exitCode(stopped, cutShort, "SIGTERM"), 143)
 * ```
 *
 * @since 0.2.0
 * @category execution
 */
export const exitCode = (exit: Exit.Exit<unknown, unknown>, outcomes: Outcomes, signal?: Signal): number => {
  if (Exit.isSuccess(exit)) return 0
  if (Cause.isInterruptedOnly(exit.cause)) return outcomes.interrupted?.(signal) ?? 0
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
 * exits with `exitCode` (knowing which signal came first), without Effect's own failure report and
 * pretty logger. A second signal, after the first, ends the process at once as Node does by default.
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
export const runMain = <A, E>(program: Effect.Effect<A, E>, outcomes: Outcomes): void => {
  const received = firstSignal()
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) => {
      received.stop()
      onExit(exitCode(exit, outcomes, received.signal()))
    }
  })
}

/**
 * Records the first SIGINT or SIGTERM. Registered before `NodeRuntime.runMain`'s own listeners, so it
 * runs first; both are removed at the first signal (a second one then ends the process) or by `stop`.
 */
const firstSignal = () => {
  let received: Signal | undefined
  const stop = () => {
    process.off("SIGINT", onSignal)
    process.off("SIGTERM", onSignal)
  }
  const onSignal = (signal: NodeJS.Signals) => {
    received = signal === "SIGINT" ? "SIGINT" : "SIGTERM"
    stop()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  return { signal: () => received, stop }
}
