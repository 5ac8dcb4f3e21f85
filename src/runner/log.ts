/** The step log through the runner: every line, title and annotation passes the guard here, once. */
import * as core from '@actions/core'
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'

/** Longer than any line the action writes: the guard here only cuts what went wrong upstream. */
const MAX_LOG_LINE_CHARS = 8000

/**
 * The log of a run guarded by `guard`: every line passes it once more as a whole (its outside
 * pieces already did), so no line can hold a secret, break in two or read as a runner command.
 */
function runnerLog(guard: Guard): StepLog {
  const guarded = (line: string): string => guard.oneLine(line, MAX_LOG_LINE_CHARS)
  return {
    info: (line) => core.info(guarded(line)),
    group: (title, fn) => core.group(guarded(title), fn),
    notice: (message) => core.notice(guarded(message)),
    warning: (message) => core.warning(guarded(message)),
    error: (message) => core.error(guarded(message))
  }
}

/** Fails the step: an `::error::` line and exit code 1 when the step ends. Never the token. */
function stepFailer(guard: Guard): (message: string) => void {
  return (message) => core.setFailed(guard.redact(message))
}

/** What a run speaks through: the step log, the step's failure, and the guard both pass. */
export interface Voice {
  log: StepLog
  fail(message: string): void
  guard: Guard
}

export function runnerVoice(guard: Guard): Voice {
  return { log: runnerLog(guard), fail: stepFailer(guard), guard }
}
