/** The edge check's part of the record: each URL's verdict, and how it stands. */
/** One entry of the `verification` output; field names are the output's. */
export interface EdgeCheckEntry {
  url: string
  fresh: boolean
  http_status: number | null
  age: number | null
  checks: number
  evidence: string
}

export interface EdgeCheckOutcome {
  /** One per target, in target order. */
  entries: EdgeCheckEntry[]
  cancelled: boolean
  /** The URLs whose last answer had an `Age` that proves nothing (their `age` is null). */
  malformedAge: string[]
}

export const NOT_JUDGED_CANCELLED = 'not judged: the run was cancelled'

/** A URL the check never got to (time up, or cancelled first): not known to be fresh or stale. */
export function notChecked(entry: EdgeCheckEntry): boolean {
  return entry.checks === 0
}

/**
 * A URL whose last check got no answer (DNS, refused, reset, TLS, timeout): never reached, so not
 * known to be fresh, and not shown to be stale either.
 */
export function unreachable(entry: EdgeCheckEntry): boolean {
  return !entry.fresh && entry.checks > 0 && entry.http_status === null
}

/** Where each URL checked at the edge stands; `stale` is only the ones that answered stale. */
export type EdgeCounts = Record<'fresh' | 'stale' | 'unreachable' | 'unchecked', number>

export function edgeCounts(entries: EdgeCheckEntry[]): EdgeCounts {
  const counts = { fresh: 0, stale: 0, unreachable: 0, unchecked: 0 }
  for (const entry of entries) {
    if (entry.fresh) counts.fresh += 1
    else if (notChecked(entry)) counts.unchecked += 1
    else if (unreachable(entry)) counts.unreachable += 1
    else counts.stale += 1
  }
  return counts
}

export const NOT_CHECKED_IN_TIME =
  'not checked within verify-timeout: raise verify-timeout or concurrency'

export interface EdgeCheckPart {
  /** The edge check, when one was made. */
  edgeCheck: EdgeCheckOutcome
}
