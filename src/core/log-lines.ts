/**
 * The purge stage's lines for the step log: how a call ended, why it is retried. Never the token:
 * calls do not hold it. Server text passes the guard, so no line can speak to the runner.
 */
import { FAILED, reasonOf, type Failure } from '../record/failure.js'
import { type CallEnd, type PurgeCall } from '../record/index.js'
import { describeCall } from '../record/words.js'
import { counted } from '../text/counted.js'
import type { Guard } from '../text/guard.js'

/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_ERROR_CHARS = 400

/**
 * A call's end: ✓ when every target has its purge id, ⚠ when the server answered but left some
 * without one (they failed), ✗ when the call failed; a wait the run would not take says until when.
 */
export function describeEnd(
  call: PurgeCall,
  end: CallEnd,
  elapsedMs: number,
  guard: Guard
): string {
  const tries = `${counted(end.attempts, 'attempt')}, ${elapsedMs} ms`
  if (end.ids === undefined) {
    const until =
      end.retryAt === undefined ? '' : `; retry after ${new Date(end.retryAt).toISOString()}`
    return `✗ ${describeCall(call, guard)}: ${guard.oneLine(reasonOf(end.failure ?? FAILED), SHOWN_ERROR_CHARS)}${until} (${tries})`
  }
  const missing = call.operation === 'purge-all' ? 0 : call.targets.length - end.ids.size
  const note =
    missing > 0
      ? `; ${counted(missing, call.targetType === 'url' ? 'URL' : 'key')} without a purge id`
      : ''
  const whole =
    call.operation === 'purge-all'
      ? `everything in ${guard.oneLine(call.service ?? '')} purged, `
      : ''
  const mark = missing > 0 ? '⚠' : '✓'
  return `${mark} ${describeCall(call, guard)}: ${whole}HTTP ${end.httpStatus ?? ''} (${tries})${note}`
}

export function describeRetry(
  call: PurgeCall,
  attempt: number,
  failure: Failure,
  waitMs: number,
  guard: Guard
): string {
  return `↻ ${describeCall(call, guard)}: attempt ${attempt} failed (${guard.oneLine(reasonOf(failure))}); retrying in ${(waitMs / 1000).toFixed(1)} s`
}
