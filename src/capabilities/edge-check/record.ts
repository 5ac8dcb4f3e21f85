/** The edge check's part of the record: each URL's verdict, and how it stands. */
/** One entry of the `verification` output; field names are the output's. */
export interface EdgeCheckEntry {
  url: string
  fresh: boolean
  http_status: number | null
  age: number | null
  checks: number
  evidence: string
  /** With `verify-assets`: every file the page loads, counted once, by the verdict it got. */
  assets?: PageAssetCounts
}

/** A file a page loads, as the check of files judged it. */
export type AssetVerdict = 'whole' | 'healed' | 'broken' | 'not_judged'

/** One entry of the `assets-file` output; field names are the output's. */
export interface AssetEntry {
  url: string
  /** The first page that loads it, and how many do. */
  page: string
  pages: number
  http_status: number | null
  age: number | null
  verdict: AssetVerdict
  /** Whether the action purged it, as a cached error. */
  purged: boolean
  evidence: string
}

/** A page's files, each counted once: by its verdict, or why it was not checked. */
export type PageAssetCounts = Record<AssetVerdict | 'other_host' | 'over_limit', number>

export interface EdgeCheckOutcome {
  /** One per target, in target order. */
  entries: EdgeCheckEntry[]
  cancelled: boolean
  /** The URLs whose last answer had an `Age` that proves nothing (their `age` is null). */
  malformedAge: string[]
  /** With `verify-assets`: each file checked, once however many pages load it. */
  assets?: AssetEntry[]
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
