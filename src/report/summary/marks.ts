/** The purge marks: what this run's mark of each service will say. */
import type { PurgeMark } from '../../record/index.js'
import type { Guard } from '../../text/guard.js'

/**
 * What a run's purge mark of one service will say, and what the next run compares from. The mark
 * is closed after this summary is written, so the line says what it will be.
 */
function markLine({ service, sha, state, why }: PurgeMark): string {
  const at = sha.slice(0, 7)
  switch (state) {
    case 'success':
      return `To be recorded as the last complete purge of ${service}, at ${at}: the next run with changed-since: last-purge compares from it.`
    case 'failure':
      return `To be recorded as an incomplete purge of ${service} (${why}): the next run compares from the last complete purge again.`
    case 'not written':
      return `Not recorded for ${service}: GitHub did not take it (${why}); the next run compares from the older record, which purges more, never less.`
  }
}

/** One line per service; the service, the sha and GitHub's words are outside text, so guarded. */
export function markLines(marks: PurgeMark[], guard: Guard): string[] {
  return marks.map((mark) => `<p>${guard.summaryText(markLine(mark))}</p>`)
}
