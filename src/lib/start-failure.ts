/**
 * How `blockyard serve` and `blockyard admin …` end (docs/operations.md, "Exit codes"). Scripts and
 * orchestrators tell "fix the configuration" from "the database is away" by these, so they never change.
 */
export const EXIT_CODES = {
  /** Stopped on a signal after finishing the requests in flight, or the command did its work. */
  ok: 0,
  /** Something unforeseen: a defect. One line, the stack trace with BLOCKYARD_LOG_LEVEL=debug. */
  unexpected: 1,
  /** A setting (or a command's argument) is wrong: the line names the variable. */
  configuration: 2,
  /** The database cannot be reached, opened or migrated: the line names the server and the cause. */
  database: 3,
  /** The master key opens none of the keys the database holds. */
  masterKey: 4,
  /** The address cannot be listened on (in use, or not permitted). */
  address: 5,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * A start (or operator command) that cannot go on for a reason the operator can fix. Its message is
 * one line naming the variable or the server, what is wrong and what to do; it is all that is shown.
 */
export class StartFailure extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
