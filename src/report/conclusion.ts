/** How the step ends: a few annotations for the failures, then failed or warned. */
import type { StepLog } from '../log.js'
import {
  NOT_SENT_AFTER_REFUSAL,
  type Counts,
  type Results,
  notChecked,
  type RunRecord,
  type Verification
} from '../record.js'
import { counted } from '../text/counted.js'
import { oneLine } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** GitHub shows 10 error annotations per step; keep room for the final one and other steps' notes. */
export const MAX_ANNOTATIONS = 5
/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_REASON_CHARS = 400

/**
 * One thing that went wrong: a target that failed to purge, a URL the edge still serves stale, or
 * a URL never checked (time up, or cancelled first), which is not known to be fresh.
 */
interface Problem {
  kind: 'target' | 'stale' | 'unchecked'
  name: string
  reason: string
}

function problemsOf(results: Results, stale: Verification[]): Problem[] {
  const failed: Problem[] = []
  for (const result of results) {
    if (result.status !== 'failed') continue
    const name = `${result.type} ${shorten(result.target)}`
    failed.push({ kind: 'target', name, reason: result.error ?? 'failed' })
  }
  const staleUrls = stale
    .filter((entry) => !entry.fresh)
    .map((entry): Problem => ({
      kind: notChecked(entry) ? 'unchecked' : 'stale',
      name: shorten(entry.url),
      reason: entry.evidence
    }))
  return [...failed, ...staleUrls]
}

/**
 * Failed targets and stale URLs grouped by reason, largest group first: a bad token is one
 * annotation, not 600.
 */
export function failureAnnotations(results: Results, stale: Verification[] = []): string[] {
  const groups = new Map<string, Problem[]>()
  for (const problem of problemsOf(results, stale)) {
    const id = `${problem.kind} ${problem.reason}`
    const group = groups.get(id)
    if (group === undefined) groups.set(id, [problem])
    else group.push(problem)
  }
  // The cause first: a refusal, then the calls it stopped, however many more of those there are.
  const knockOn = (group: Problem[]): boolean =>
    group[0]?.reason.startsWith(NOT_SENT_AFTER_REFUSAL) === true
  const sorted = [...groups.values()].sort(
    (a, b) => Number(knockOn(a)) - Number(knockOn(b)) || b.length - a.length
  )
  const lines = sorted.slice(0, MAX_ANNOTATIONS).map((group) => {
    const [first] = group as [Problem, ...Problem[]]
    const reason = oneLine(first.reason, SHOWN_REASON_CHARS)
    if (first.kind !== 'target') {
      const what = group.length === 1 ? `${first.name} is` : `${group.length} URLs are`
      const verdict =
        first.kind === 'stale' ? 'still stale at the edge after the purge' : 'not known to be fresh'
      return `${what} ${verdict}: ${reason}`
    }
    const what = group.length === 1 ? first.name : `${group.length} targets`
    return `${what} failed: ${reason}`
  })
  if (sorted.length > MAX_ANNOTATIONS) {
    lines.push(
      `…and ${sorted.length - MAX_ANNOTATIONS} more kinds of failure: see the job summary and the results output`
    )
  }
  return lines
}

/** How the report ends the step: annotations through the log, and the step failed by the runner. */
export interface StepEnd {
  log: StepLog
  fail(message: string): void
}

/**
 * Fails the step (or warns, with fail-on-error: false) when a target failed or a URL is not known
 * to be fresh; then fails it when a cancel or an unexpected error ended the run early.
 */
export function conclude(
  { results, counts, settings, verification, stopped, unexpectedError }: RunRecord,
  { log, fail }: StepEnd
): void {
  const message = problemMessage(counts, verification?.entries ?? [])
  if (message !== undefined) {
    const annotate = settings.failOnError ? log.error : log.warning
    // Each line is built by the guard, which hides secrets in what it quotes.
    for (const line of failureAnnotations(results, verification?.entries ?? [])) annotate(line)
    if (settings.failOnError) fail(message)
    else log.warning(`${message} (fail-on-error is false, so the step passes)`)
  }
  if (stopped !== undefined) fail(stopped)
  if (unexpectedError !== undefined) fail(unexpectedError)
}

/** What went wrong, in one message; `undefined` when every target purged and every URL is fresh. */
function problemMessage(
  { failed, total }: Counts,
  verification: Verification[]
): string | undefined {
  const notFresh = verification.filter((entry) => !entry.fresh)
  const unchecked = notFresh.filter(notChecked).length
  const stale = notFresh.length - unchecked
  if (failed === 0 && notFresh.length === 0) return undefined
  const parts = [
    failed === 0
      ? undefined
      : `${failed} of ${total} targets failed to purge; the job summary and the results output list each with its reason`,
    stale === 0
      ? undefined
      : `${stale} of ${counted(verification.length, 'URL')} checked at the edge ${stale === 1 ? 'is' : 'are'} still stale after the purge; the job summary and the verification output give the evidence`,
    unchecked === 0
      ? undefined
      : `${unchecked} of ${counted(verification.length, 'URL')} to check at the edge ${unchecked === 1 ? 'was' : 'were'} not checked, so ${unchecked === 1 ? 'it is' : 'they are'} not known to be fresh; the verification output says why`
  ]
  return parts.filter((part) => part !== undefined).join('. ')
}
