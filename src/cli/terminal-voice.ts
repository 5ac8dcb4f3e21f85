/**
 * The command's voice: everything for people on stderr, as the runner's log reads as text. A group
 * is a heading with its lines indented; an error, a warning or a notice is a line of its own,
 * `error: …`, in the action's words. Every line passes the run's guard once more as a whole.
 */
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'

/** Longer than any line the action writes: the guard here only cuts what went wrong upstream. */
const MAX_LINE_CHARS = 8000

/** What the command speaks through, and whether the run failed (exit 1). */
export interface TerminalVoice {
  log: StepLog
  fail(message: string): void
  guard: Guard
  /** Text for people, already guarded by the caller (the summary): written as it is. */
  print(text: string): void
  failed(): boolean
}

export function terminalVoice(
  guard: Guard,
  write: (text: string) => void = (text) => void process.stderr.write(text)
): TerminalVoice {
  let indent = ''
  let failed = false
  const line = (text: string): void => write(`${indent}${guard.oneLine(text, MAX_LINE_CHARS)}\n`)
  const log: StepLog = {
    info: line,
    group: async (title, fn) => {
      // As on the runner, groups do not nest: a group's lines are indented under its heading.
      indent = ''
      line(`▾ ${title}`)
      indent = '  '
      try {
        return await fn()
      } finally {
        indent = ''
      }
    },
    notice: (message) => line(`notice: ${message}`),
    warning: (message) => line(`warning: ${message}`),
    error: (message) => line(`error: ${message}`)
  }
  return {
    log,
    fail: (message) => {
      failed = true
      log.error(message)
    },
    guard,
    print: (text) => write(guard.redact(text)),
    failed: () => failed
  }
}
