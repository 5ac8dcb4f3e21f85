/** The last-purge record: what this run records of its purge of each service. */
import type { ServiceRecord } from '../../record/index.js'
import { summaryText } from '../../text/guard.js'

/**
 * What a run records of its purge of one service, and what the next run compares from. The record
 * is closed after this summary is written, so it says what will be recorded.
 */
function recordLine({ service, sha, state, why }: ServiceRecord): string {
  const at = sha.slice(0, 7)
  switch (state) {
    case 'success':
      return `To be recorded as the last complete purge of ${service}, at ${at}: the next run with changed-since: last-purge compares from it.`
    case 'failure':
      return `To be recorded as an incomplete purge of ${service} (${why}): the next run compares from the last complete purge again.`
    case 'not written':
      return `Not recorded for ${service}: GitHub refused (${why}); the next run compares from the older record, which purges more, never less.`
  }
}

/** One line per service; the service, the sha and GitHub's words are outside text, so guarded. */
export function recordLines(records: ServiceRecord[]): string[] {
  return records.map((record) => `<p>${summaryText(recordLine(record))}</p>`)
}
