/** How the step ends: a few annotations for the failures, then failed or warned. */
import type { StepLog } from '../log.js'
import {
  edgeCounts,
  notChecked,
  unreachable,
  type Counts,
  type RunRecord,
  type EdgeCheckEntry
} from '../record/index.js'
import { causeReason, failureCauses, refusedAndStopped, type Cause } from './causes.js'
import { counted } from '../text/counted.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** GitHub shows 10 error annotations per step; keep room for the final one and other steps' notes. */
const MAX_ANNOTATIONS = 5
/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_REASON_CHARS = 400

/** A URL not known to be fresh, and why: stale, unreachable, or never checked. */
interface EdgeProblem {
  kind: 'stale' | 'unreachable' | 'unchecked'
  url: string
  reason: string
}

function edgeProblems(entries: EdgeCheckEntry[], guard: Guard): EdgeProblem[][] {
  const groups = new Map<string, EdgeProblem[]>()
  for (const entry of entries) {
    if (entry.fresh) continue
    const kind = notChecked(entry) ? 'unchecked' : unreachable(entry) ? 'unreachable' : 'stale'
    const id = `${kind} ${entry.evidence}`
    const group = groups.get(id) ?? []
    group.push({ kind, url: shorten(guard, entry.url), reason: entry.evidence })
    groups.set(id, group)
  }
  return [...groups.values()].sort((a, b) => b.length - a.length)
}

function causeLine(cause: Cause, guard: Guard): string {
  const [first] = cause.first
  const what =
    cause.count === 1 && first !== undefined
      ? `${first.type} ${shorten(guard, first.target)}`
      : `${cause.count} targets`
  const how = refusedAndStopped(cause)
  return `${what} not purged: ${guard.oneLine(causeReason(cause), SHOWN_REASON_CHARS)}${how === undefined ? '' : `; ${how}`}`
}

function edgeLine(group: EdgeProblem[], guard: Guard): string {
  const [first] = group as [EdgeProblem, ...EdgeProblem[]]
  const one = group.length === 1
  const which = one ? first.url : `${group.length} URLs`
  const verdict = {
    stale: `${one ? 'is' : 'are'} still stale at the edge after the purge`,
    unreachable: 'could not be reached at the edge, so not known to be fresh',
    unchecked: `${one ? 'is' : 'are'} not known to be fresh`
  }[first.kind]
  return `${which} ${verdict}: ${guard.oneLine(first.reason, SHOWN_REASON_CHARS)}`
}

/** One annotation per cause of a failure and per kind of edge problem, the most targets first. */
function failureAnnotations(causes: Cause[], edge: EdgeCheckEntry[], guard: Guard): string[] {
  const lines = [
    ...causes.map((cause) => causeLine(cause, guard)),
    ...edgeProblems(edge, guard).map((group) => edgeLine(group, guard))
  ]
  if (lines.length <= MAX_ANNOTATIONS) return lines
  return [
    ...lines.slice(0, MAX_ANNOTATIONS),
    `…and ${lines.length - MAX_ANNOTATIONS} more kinds of failure: see the job summary and the results output`
  ]
}

/**
 * How the report ends the step: annotations through the log, and the step failed by the runner;
 * what they quote passes the run's guard.
 */
export interface StepEnd {
  log: StepLog
  fail(message: string): void
  guard: Guard
}

/**
 * Fails the step (or warns, with fail-on-error: false) when a target failed or a URL is not known
 * to be fresh; then fails it when a cancel or an unexpected error ended the run early.
 */
export function conclude(
  { results, counts, settings, edgeCheck, stopped, unexpectedError }: RunRecord,
  { log, fail, guard }: StepEnd
): void {
  const edge = edgeCheck?.entries ?? []
  const causes = counts.failed === 0 ? [] : failureCauses(results, 1)
  const message = problemMessage(counts, causes, edge, guard)
  if (message !== undefined) {
    const annotate = settings.failOnError ? log.error : log.warning
    // Each line is built by the guard, which hides secrets in what it quotes.
    for (const line of failureAnnotations(causes, edge, guard)) annotate(line)
    if (settings.failOnError) fail(message)
    else log.warning(`${message} (fail-on-error is false, so the step passes)`)
  }
  if (stopped !== undefined) fail(stopped)
  if (unexpectedError !== undefined) fail(unexpectedError)
}

/** What went wrong, in one message; `undefined` when every target purged and every URL is fresh. */
function problemMessage(
  { failed, total }: Counts,
  causes: Cause[],
  entries: EdgeCheckEntry[],
  guard: Guard
): string | undefined {
  const { stale, unreachable, unchecked } = edgeCounts(entries)
  if (failed === 0 && stale + unreachable + unchecked === 0) return undefined
  const [only] = causes
  const why =
    causes.length === 1 && only !== undefined
      ? `: ${guard.oneLine(only.brief, SHOWN_REASON_CHARS)}`
      : ` for ${causes.length} different reasons`
  const urls = counted(entries.length, 'URL')
  const parts = [
    failed === 0
      ? undefined
      : `${failed} of ${total} targets failed to purge${why}; the job summary and the results output list each with its reason`,
    stale === 0
      ? undefined
      : `${stale} of ${urls} checked at the edge ${stale === 1 ? 'is' : 'are'} still stale after the purge; the job summary and the verification output give the evidence`,
    unreachable === 0
      ? undefined
      : `${unreachable} of ${urls} to check at the edge could not be reached, so ${unreachable === 1 ? 'it is' : 'they are'} not known to be fresh; the verification output says why`,
    unchecked === 0
      ? undefined
      : `${unchecked} of ${urls} to check at the edge ${unchecked === 1 ? 'was' : 'were'} not checked, so ${unchecked === 1 ? 'it is' : 'they are'} not known to be fresh; the verification output says why`
  ]
  return parts.filter((part) => part !== undefined).join('. ')
}
