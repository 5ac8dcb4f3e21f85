/** The step log as the stages see it: handed in by the runner door, so no stage knows the runner. */

export interface StepLog {
  info(line: string): void
  /** Runs `fn` inside a collapsible group of the log, closed however `fn` ends (as core's `group`). */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>
  /** An annotation: shown on the run's page as well as in the log. */
  notice(message: string): void
  warning(message: string): void
  error(message: string): void
}
