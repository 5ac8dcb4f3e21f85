/** The step log through the runner: every line, title and annotation passes the guard here, once. */
import * as core from '@actions/core'
import type { StepLog } from '../log.js'
import { oneLine, redact } from '../text/guard.js'

/** Longer than any line the action writes: the guard here only cuts what went wrong upstream. */
const MAX_LOG_LINE_CHARS = 8000

/**
 * Every line passes the guard once more as a whole (its outside pieces already did), so no line can
 * hold a secret, break in two or read as a runner command.
 */
const guarded = (line: string): string => oneLine(line, MAX_LOG_LINE_CHARS)

export const runnerLog: StepLog = {
  info: (line) => core.info(guarded(line)),
  group: (title, fn) => core.group(guarded(title), fn),
  notice: (message) => core.notice(guarded(message)),
  warning: (message) => core.warning(guarded(message)),
  error: (message) => core.error(guarded(message))
}

/** Fails the step: an `::error::` line and exit code 1 when the step ends. Never the token. */
export function failStep(message: string): void {
  core.setFailed(redact(message))
}
