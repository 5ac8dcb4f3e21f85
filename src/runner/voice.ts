/** The step log through the runner: every line, title and annotation passes the guard here, once. */
import * as core from '@actions/core'
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'

/** Longer than any line the action writes: the guard here only cuts what went wrong upstream. */
const MAX_LOG_LINE_CHARS = 8000

/** What a run speaks through: the step log, the step's failure, and the guard both pass. */
export interface Voice {
  log: StepLog
  /** Fails the step: an `::error::` line and exit code 1 when the step ends. Never the token. */
  fail(message: string): void
  guard: Guard
}

/**
 * The runner's voice for a run guarded by `guard`: every line passes it once more as a whole (its
 * outside pieces already did), so no line can hold a secret, break in two or read as a command.
 */
export function runnerVoice(guard: Guard): Voice {
  const guarded = (line: string): string => guard.oneLine(line, MAX_LOG_LINE_CHARS)
  const log: StepLog = {
    info: (line) => core.info(guarded(line)),
    group: (title, fn) => core.group(guarded(title), fn),
    notice: (message) => core.notice(guarded(message)),
    warning: (message) => core.warning(guarded(message)),
    error: (message) => core.error(guarded(message))
  }
  return { log, fail: (message) => core.setFailed(guard.redact(message)), guard }
}
