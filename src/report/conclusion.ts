/** How the step ends: a few annotations for the failures, then failed or warned. */
import { verdictsOf, type RunRecord } from '../capabilities/index.js'
import type { Verdict } from '../capabilities/capability.js'
import type { StepLog } from '../log.js'
import type { Counts } from '../record/index.js'
import { causeReason, failureCauses, refusedAndStopped, type Cause } from './causes.js'
import type { Guard } from '../text/guard.js'
import { shorten } from '../text/shown.js'

/** GitHub shows 10 error annotations per step; keep room for the final one and other steps' notes. */
const MAX_ANNOTATIONS = 5
/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_REASON_CHARS = 400

function causeLine(cause: Cause, guard: Guard): string {
  const [first] = cause.first
  const what =
    cause.count === 1 && first !== undefined
      ? `${first.type} ${shorten(guard, first.target)}`
      : `${cause.count} targets`
  const how = refusedAndStopped(cause)
  return `${what} not purged: ${guard.oneLine(causeReason(cause), SHOWN_REASON_CHARS)}${how === undefined ? '' : `; ${how}`}`
}

/** One annotation per cause of a failure, the most targets first, then each capability's. */
function failureAnnotations(causes: Cause[], verdicts: Verdict[], guard: Guard): string[] {
  const lines = [
    ...causes.map((cause) => causeLine(cause, guard)),
    ...verdicts.flatMap((verdict) => verdict.annotations ?? [])
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
 * Fails the step (or warns, with fail-on-error: false) when a target failed or a capability found
 * a problem (a URL not known to be fresh); then fails it when a cancel or an unexpected error ended
 * the run early.
 */
export function conclude(record: RunRecord, { log, fail, guard }: StepEnd): void {
  const { results, counts, settings, stopped, unexpectedError } = record
  const verdicts = verdictsOf(record, guard)
  const causes = counts.failed === 0 ? [] : failureCauses(results, 1)
  const message = problemMessage(counts, causes, verdicts, guard)
  if (message !== undefined) {
    const annotate = settings.failOnError ? log.error : log.warning
    // Each line is built by the guard, which hides secrets in what it quotes.
    for (const line of failureAnnotations(causes, verdicts, guard)) annotate(line)
    if (settings.failOnError) fail(message)
    else log.warning(`${message} (fail-on-error is false, so the step passes)`)
  }
  if (stopped !== undefined) fail(stopped)
  if (unexpectedError !== undefined) fail(unexpectedError)
}

/** What went wrong, in one message; `undefined` when every target purged and no capability objects. */
function problemMessage(
  { failed, total }: Counts,
  causes: Cause[],
  verdicts: Verdict[],
  guard: Guard
): string | undefined {
  const [only] = causes
  const why =
    causes.length === 1 && only !== undefined
      ? `: ${guard.oneLine(only.brief, SHOWN_REASON_CHARS)}`
      : ` for ${causes.length} different reasons`
  const parts = [
    ...(failed === 0
      ? []
      : [
          `${failed} of ${total} targets failed to purge${why}; the job summary and the results output list each with its reason`
        ]),
    ...verdicts.flatMap((verdict) => verdict.problems ?? [])
  ]
  return parts.length === 0 ? undefined : parts.join('. ')
}
