/** The record of what happened to each target: the single source for outputs, summary and exit code. */
import type { PurgeCall, TargetType } from './stages/plan.js'

export type PurgeStatus = 'purged' | 'failed' | 'planned'

/** The second pass of a purge repeated for shielded services. */
export interface RepeatResult {
  status: PurgeStatus
  id: string | null
  attempts: number
}

/** One per requested target (per service), in the shape of the `results` output. */
export interface PurgeResult {
  type: TargetType
  target: string
  /** The service purged; `null` for URL purges, which belong to no service. */
  service: string | null
  soft: boolean
  status: PurgeStatus
  id: string | null
  http_status: number | null
  attempts: number
  error: string | null
  /** Present only when `repeat-after` is on: the second pass, `null` for targets not repeated. */
  repeat?: RepeatResult | null
  /** Present only with `changed-files`: whether the target was given or derived, and from which file. */
  source?: 'input' | 'changed-files'
  file?: string | null
}

export interface CallEnd {
  attempts: number
  httpStatus: number | null
  /** Present when the call succeeded: each purged target's id (purge-all has none). */
  ids: Map<string, string> | undefined
  /** With `ids`: targets the answer gave something other than a usable id, and why. */
  unusable?: Map<string, string>
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
      service: call.service ?? null,
      soft: call.soft,
      status: failed ? 'failed' : 'purged',
      id: id ?? null,
      http_status: end.httpStatus,
      attempts: end.attempts,
      error: !failed
        ? null
        : unconfirmed
          ? (end.unusable?.get(target) ??
            'no purge id returned: the server did not confirm this key')
          : (end.error ?? 'failed')
    }
  })
}

/** A dry run's results; with `repeat-after`, the second pass is planned too. */
export function plannedResults(calls: PurgeCall[], repeated: boolean): PurgeResult[] {
  const repeat = repeated ? { repeat: { status: 'planned' as const, id: null, attempts: 0 } } : {}
  return calls.flatMap((call) =>
    call.targets.map(({ type, target }) => ({
      type,
      target,
      service: call.service ?? null,
      soft: call.soft,
      status: 'planned' as const,
      id: null,
      http_status: null,
      attempts: 0,
      error: null,
      ...repeat
    }))
  )
}

/**
 * One call's first-pass results with its second pass folded in: a target counts as purged only
 * when both passes purged it. `second` is `undefined` when the call was not repeated because none
 * of its targets was purged.
 */
export function withRepeat(first: PurgeResult[], second: PurgeResult[] | undefined): PurgeResult[] {
  return first.map((result, index): PurgeResult => {
    const again = second?.[index]
    if (result.status !== 'purged' || again === undefined) return { ...result, repeat: null }
    const repeat = { status: again.status, id: again.id, attempts: again.attempts }
    if (again.status === 'purged') return { ...result, repeat }
    return {
      ...result,
      status: 'failed',
      error: `repeat purge failed: ${again.error ?? 'failed'}`,
      repeat
    }
  })
}

export const NOT_SENT_CANCELLED = 'not sent: the run was cancelled'
/** How the reason of a call stopped by an earlier refusal begins: a knock-on, never the cause. */
export const NOT_SENT_AFTER_REFUSAL = 'not sent: an earlier call'

/**
 * Each call's results as they become known. Whatever stops a run, `fill` still gives every target
 * exactly once: the calls without results fail with the reason given.
 */
export class ResultLedger {
  private readonly byCall: (PurgeResult[] | undefined)[]

  constructor(readonly calls: readonly PurgeCall[]) {
    this.byCall = new Array<PurgeResult[] | undefined>(calls.length)
  }

  record(index: number, results: PurgeResult[]): void {
    this.byCall[index] = results
  }

  get(index: number): PurgeResult[] | undefined {
    return this.byCall[index]
  }

  /** Every target's result in plan order; calls still without results are recorded as failed. */
  fill(reason: string): PurgeResult[] {
    return this.calls.flatMap((call, index) => {
      const known = this.byCall[index]
      if (known !== undefined) return known
      const failed = resultsOfCall(call, {
        attempts: 0,
        httpStatus: null,
        ids: undefined,
        error: reason
      })
      this.byCall[index] = failed
      return failed
    })
  }
}

/** Marks each result as given or derived; `sources` maps `type target` to the file that caused it. */
export function withSources(results: PurgeResult[], sources: Map<string, string>): PurgeResult[] {
  return results.map((result) => {
    const file = sources.get(`${result.type} ${result.target}`)
    return { ...result, source: file === undefined ? 'input' : 'changed-files', file: file ?? null }
  })
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
