/**
 * Lines for the step log. Never includes the token: calls do not hold it. Every piece of text from
 * outside (URLs, service ids, errors, file names) passes `oneLine`, so no line can speak to the runner.
 */
import { describeCall } from '../../record.js'
import type { Derivation } from '../changed-files/index.js'
import type { CallEnd, PurgeCall } from '../../record.js'
import { counted } from '../../text/counted.js'
import { oneLine } from '../../text/guard.js'

/** URLs and file paths: long enough for any a CDN or a repository holds in practice, shown whole. */
const SHOWN_ADDRESS_CHARS = 2000
/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_ERROR_CHARS = 400

export function describeEnd(call: PurgeCall, end: CallEnd, elapsedMs: number): string {
  const tries = `${counted(end.attempts, 'attempt')}, ${elapsedMs} ms`
  if (end.ids === undefined) {
    return `✗ ${describeCall(call)}: ${oneLine(end.error ?? 'failed', SHOWN_ERROR_CHARS)} (${tries})`
  }
  const missing = call.operation === 'batch' ? call.targets.length - end.ids.size : 0
  const note = missing > 0 ? `; ${counted(missing, 'key')} without a purge id` : ''
  return `✓ ${describeCall(call)}: HTTP ${end.httpStatus ?? ''} (${tries})${note}`
}

export function describeRetry(
  call: PurgeCall,
  attempt: number,
  reason: string,
  waitMs: number
): string {
  return `↻ ${describeCall(call)}: attempt ${attempt} failed (${oneLine(reason)}); retrying in ${(waitMs / 1000).toFixed(1)} s`
}

/** The changed-files group: a title, one line per derived target, and the notice when none matched. */
export function describeDerivation(derivation: Derivation): {
  title: string
  lines: string[]
  nothingMatched: string | undefined
} {
  const { report, targets } = derivation
  const files = counted(report.files.length, 'changed file')
  const range = oneLine(report.description)
  return {
    title: `Targets from ${files} (${range})`,
    lines: targets.map(
      ({ file, type, target }) =>
        `${oneLine(file, SHOWN_ADDRESS_CHARS)} → ${type} ${oneLine(target, SHOWN_ADDRESS_CHARS)}`
    ),
    nothingMatched:
      targets.length === 0
        ? `Nothing to purge: none of the ${files} in ${range} matched url-map or key-map`
        : undefined
  }
}
