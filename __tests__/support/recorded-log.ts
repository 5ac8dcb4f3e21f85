/** A step log that keeps its lines, for tests: groups as `[title]` … `[end]`, annotations by kind. */
import type { StepLog } from '../../src/log.js'

export interface RecordedLog extends StepLog {
  lines: string[]
}

export function recordedLog(): RecordedLog {
  const lines: string[] = []
  return {
    lines,
    info: (line) => lines.push(line),
    group: async (title, fn) => {
      lines.push(`[${title}]`)
      try {
        return await fn()
      } finally {
        lines.push('[end]')
      }
    },
    notice: (message) => lines.push(`notice: ${message}`),
    warning: (message) => lines.push(`warning: ${message}`),
    error: (message) => lines.push(`error: ${message}`)
  }
}
