/**
 * The purge stage's lines for the step log: how a call ended, why it is retried. Never the token:
 * calls do not hold it. Server text passes `oneLine`, so no line can speak to the runner.
 */
import { type CallEnd, type PurgeCall } from '../../record/index.js'
import { describeCall } from '../../record/words.js'
import { counted } from '../../text/counted.js'
import { oneLine } from '../../text/guard.js'

/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_ERROR_CHARS = 400

export function describeEnd(call: PurgeCall, end: CallEnd, elapsedMs: number): string {
  const tries = `${counted(end.attempts, 'attempt')}, ${elapsedMs} ms`
  if (end.ids === undefined) {
    return `✗ ${describeCall(call)}: ${oneLine(end.error ?? 'failed', SHOWN_ERROR_CHARS)} (${tries})`
  }
  const missing = call.operation === 'batch' ? call.targets.length - end.ids.size : 0
  const note = missing > 0 ? `; ${counted(missing, 'key')} without a purge id` : ''
  const whole =
    call.operation === 'purge-all' ? `everything in ${oneLine(call.service ?? '')} purged, ` : ''
  return `✓ ${describeCall(call)}: ${whole}HTTP ${end.httpStatus ?? ''} (${tries})${note}`
}

export function describeRetry(
  call: PurgeCall,
  attempt: number,
  reason: string,
  waitMs: number
): string {
  return `↻ ${describeCall(call)}: attempt ${attempt} failed (${oneLine(reason)}); retrying in ${(waitMs / 1000).toFixed(1)} s`
}
