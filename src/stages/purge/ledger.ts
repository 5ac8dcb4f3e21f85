/** Each purge call's results as they become known, the second pass folded in: what the engine fills. */
import type { CallEnd, PurgeCall, PurgeResult } from '../../record.js'

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
