/** One-line descriptions of calls for the step log. Never includes the token: calls do not hold it. */
import type { Settings } from './inputs.js'
import type { PurgeCall } from './plan.js'
import type { CallEnd } from './results.js'
import { counted } from './counted.js'

export function describeCall(call: PurgeCall): string {
  const count = call.targets.length
  const what = call.operation === 'batch' ? ` (${counted(count, 'key')})` : ''
  return `${call.method} ${call.url}${what}${call.soft ? ' soft' : ''}`
}

export function describeEnd(call: PurgeCall, end: CallEnd, elapsedMs: number): string {
  const tries = `${counted(end.attempts, 'attempt')}, ${elapsedMs} ms`
  if (end.ids === undefined) return `✗ ${describeCall(call)}: ${end.error ?? 'failed'} (${tries})`
  const missing = call.operation === 'batch' ? call.targets.length - end.ids.size : 0
  const note = missing > 0 ? `; ${counted(missing, 'key')} without a purge id` : ''
  return `✓ ${describeCall(call)}: HTTP ${end.httpStatus ?? ''} (${tries})${note}`
}

export function describePlan(calls: PurgeCall[], settings: Settings): string {
  const targets = calls.reduce((sum, call) => sum + call.targets.length, 0)
  const ids = settings.services.map((service) => service.id)
  const service =
    ids.length === 0 ? '' : ` on service${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`
  const kind = settings.soft ? 'soft' : 'instant'
  return `Planned ${counted(calls.length, `${kind} purge call`)} for ${counted(targets, 'target')}${service}`
}

export function describeRetry(
  call: PurgeCall,
  attempt: number,
  reason: string,
  waitMs: number
): string {
  return `↻ ${describeCall(call)}: attempt ${attempt} failed (${reason}); retrying in ${(waitMs / 1000).toFixed(1)} s`
}
