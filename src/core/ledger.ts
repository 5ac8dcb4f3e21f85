/** Each purge call's end as it becomes known, the second pass folded in: what the engine fills. */
import { FAILED, reasonOf, type Failure } from '../record/failure.js'
import {
  countResults,
  type CallEnd,
  type Counts,
  type PurgeCall,
  type PurgeResult,
  type Results
} from '../record/index.js'

/** A key a batch's answer left out was not purged. */
const NOT_CONFIRMED: Failure = {
  what: 'no purge id returned',
  detail: 'the server did not confirm this key'
}

/** A failure and its words, made once for every target that shares it. */
interface Worded {
  failure: Failure
  error: string
}

const worded = (failure: Failure): Worded => ({ failure, error: reasonOf(failure) })

/** Results of one call's targets; in a successful batch, a key without an id was not purged. */
function resultsOfCall(call: PurgeCall, end: CallEnd): PurgeResult[] {
  const ofCall = end.ids === undefined ? worded(end.failure ?? FAILED) : undefined
  const retryAt = end.retryAt === undefined ? undefined : new Date(end.retryAt).toISOString()
  return call.targets.map((target): PurgeResult => {
    const id = end.ids?.get(target)
    const unconfirmed = end.ids !== undefined && id === undefined && call.targetType !== 'all'
    const failed = unconfirmed ? worded(end.unusable?.get(target) ?? NOT_CONFIRMED) : ofCall
    return {
      type: call.targetType,
      target,
      service: call.service ?? null,
      soft: call.soft,
      status: failed === undefined ? 'purged' : 'failed',
      id: id ?? null,
      http_status: end.httpStatus,
      attempts: end.attempts,
      error: failed?.error ?? null,
      failure: failed?.failure ?? null,
      ...(failed === undefined || retryAt === undefined ? {} : { retry_at: retryAt })
    }
  })
}

/**
 * One call's first-pass results with its second pass folded in: a target counts as purged only
 * when both passes purged it. `second` is `undefined` when the call was not repeated because none
 * of its targets was purged.
 */
function withRepeat(first: PurgeResult[], second: PurgeResult[] | undefined): PurgeResult[] {
  return first.map((result, index): PurgeResult => {
    const again = second?.[index]
    if (result.status !== 'purged' || again === undefined) return { ...result, repeat: null }
    const repeat = { status: again.status, id: again.id, attempts: again.attempts }
    if (again.status === 'purged') return { ...result, repeat }
    const failure: Failure = { what: 'repeat purge failed', detail: again.error ?? 'failed' }
    return { ...result, status: 'failed', error: reasonOf(failure), failure, repeat }
  })
}

/**
 * Each call's end as it becomes known. Whatever stops a run, `fill` still gives every target
 * exactly once: the calls without an end fail with the reason given.
 */
export class ResultLedger {
  private readonly ends: (CallEnd | undefined)[]
  /** Once a repeat pass ran: the second pass of each call repeated, by the call's index. */
  private repeated: Map<number, CallEnd> | undefined

  constructor(readonly calls: readonly PurgeCall[]) {
    this.ends = new Array<CallEnd | undefined>(calls.length)
  }

  /**
   * The first end a call is given is its end: after `fill` gave it a reason, an answer that
   * still arrives (calls abandoned by an unexpected error) does not change what was counted.
   */
  ended(index: number, end: CallEnd): void {
    this.ends[index] ??= end
  }

  /** Whether the call's first pass purged any of its targets: only such calls are repeated. */
  purgedAny(index: number): boolean {
    const end = this.ends[index]
    return (
      end !== undefined &&
      resultsOfCall(this.calls[index] as PurgeCall, end).some(({ status }) => status === 'purged')
    )
  }

  /** Folds in the repeat pass: `repeats` holds the calls at `indices` of this ledger, in order. */
  foldRepeat(indices: number[], repeats: ResultLedger): void {
    this.repeated = new Map()
    for (const [position, index] of indices.entries()) {
      const end = repeats.ends[position]
      if (end !== undefined) this.repeated.set(index, end)
    }
  }

  /** Records the calls still without an end as failed for `failure`. */
  fill(failure: Failure): void {
    const unsent: CallEnd = { attempts: 0, httpStatus: null, ids: undefined, failure }
    for (let index = 0; index < this.calls.length; index += 1) this.ends[index] ??= unsent
  }

  /** Every target's result and their counts, the calls still without an end failed for `failure`. */
  settle(failure: Failure): { results: Results; counts: Counts } {
    this.fill(failure)
    const results = this.results()
    return { results, counts: countResults(results) }
  }

  /** Every target's result in plan order, once `fill` gave every call an end. */
  results(): Results {
    return this.calls.flatMap((call, index) => {
      const end = this.ends[index]
      if (end === undefined) throw new Error(`call ${index} has no end: fill the ledger first`)
      const first = resultsOfCall(call, end)
      if (this.repeated === undefined) return first
      const second = this.repeated.get(index)
      return withRepeat(first, second === undefined ? undefined : resultsOfCall(call, second))
    })
  }
}
