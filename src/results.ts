/** The record of what happened to each target: the single source for outputs, summary and exit code. */
import type { PurgeCall, TargetType } from './plan.js'

export type PurgeStatus = 'purged' | 'failed' | 'planned'

/** One per requested target, in the shape of the `results` output. */
export interface PurgeResult {
  type: TargetType
  target: string
  soft: boolean
  status: PurgeStatus
  id: string | null
  http_status: number | null
  attempts: number
  error: string | null
}

export interface CallEnd {
  attempts: number
  httpStatus: number | null
  /** Present when the call succeeded: each purged target's id (purge-all has none). */
  ids: Map<string, string> | undefined
  error: string | undefined
}

/** Results of one call's targets; in a successful batch, a key without an id was not purged. */
export function resultsOfCall(call: PurgeCall, end: CallEnd): PurgeResult[] {
  // Built field by field, not by spreading a base object: this runs once per key (100,000s).
  return call.targets.map(({ type, target }): PurgeResult => {
    const id = end.ids?.get(target)
    const unconfirmed = end.ids !== undefined && id === undefined && type !== 'all'
    const failed = end.ids === undefined || unconfirmed
    return {
      type,
      target,
      soft: call.soft,
      status: failed ? 'failed' : 'purged',
      id: id ?? null,
      http_status: end.httpStatus,
      attempts: end.attempts,
      error: !failed
        ? null
        : unconfirmed
          ? 'no purge id returned: the server did not confirm this key'
          : (end.error ?? 'failed')
    }
  })
}

export function plannedResults(calls: PurgeCall[]): PurgeResult[] {
  return calls.flatMap((call) =>
    call.targets.map(({ type, target }) => ({
      type,
      target,
      soft: call.soft,
      status: 'planned' as const,
      id: null,
      http_status: null,
      attempts: 0,
      error: null
    }))
  )
}

export interface Counts {
  purged: number
  failed: number
  planned: number
}

export function countResults(results: PurgeResult[]): Counts {
  const counts = { purged: 0, failed: 0, planned: 0 }
  for (const result of results) counts[result.status] += 1
  return counts
}
