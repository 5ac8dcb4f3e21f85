/**
 * Failed targets grouped by what caused them, so the report names a cause once however many
 * targets it failed: a rejected token is one cause of 600 failures. Pure.
 */
import { type PurgeResult, type Results } from '../record/index.js'
import { causeText, FAILED, type Failure } from '../record/failure.js'

export interface Cause {
  /** The reason as the action gave it; for the calls a refusal stopped, that refusal. */
  reason: string
  /** What happened, with its status, without the fix and the server's words: the headline's. */
  brief: string
  count: number
  /** Of `count`, the targets whose call was not sent because of the refusal. */
  notSent: number
  /** Of `count`, the targets whose call was stopped between its retries because of it. */
  stopped: number
  /** Its first targets, in plan order. */
  first: PurgeResult[]
  /** Whether the server turned the calls down (4xx), rather than failing to answer them. */
  refused: boolean
  /** The latest time the server named for calls to start again (ISO 8601), when it named one. */
  retryAt: string | undefined
}

/** Each cause of a failure, most targets first (first seen first on a tie), with `keep` targets. */
export function failureCauses(results: Results, keep: number): Cause[] {
  const causes = new Map<string, Cause>()
  // A call's targets share its failure: its words are made once.
  const reasons = new Map<Failure, string>()
  for (const result of results) {
    if (result.status !== 'failed') continue
    const failure = result.failure ?? FAILED
    const reason = reasons.get(failure) ?? causeText(failure)
    reasons.set(failure, reason)
    let cause = causes.get(reason)
    if (cause === undefined) {
      cause = {
        reason,
        brief: failure.what,
        count: 0,
        notSent: 0,
        stopped: 0,
        first: [],
        refused: false,
        retryAt: undefined
      }
      causes.set(reason, cause)
    }
    cause.count += 1
    const { stopped } = failure
    if (stopped?.attempts === 0) cause.notSent += 1
    else if (stopped !== undefined) cause.stopped += 1
    else if (ownFailures(cause) === 1) cause.refused = isRefusal(result.http_status)
    if (result.retry_at !== undefined && (cause.retryAt ?? '') < result.retry_at) {
      cause.retryAt = result.retry_at
    }
    if (cause.first.length < keep) cause.first.push(result)
  }
  return [...causes.values()].sort((a, b) => b.count - a.count)
}

function isRefusal(status: number | null): boolean {
  return status !== null && status >= 400 && status < 500
}

/** A cause's reason, with the time the server named for calls to start again. */
export function causeReason({ reason, retryAt }: Cause): string {
  return retryAt === undefined ? reason : `${reason}; run again after ${retryAt}`
}

/** The targets whose own call met the cause, not stopped by another's. */
function ownFailures({ count, notSent, stopped }: Cause): number {
  return count - notSent - stopped
}

/** How a cause's targets ended, when it stopped some calls, before they were sent or between retries. */
export function refusedAndStopped(cause: Cause): string | undefined {
  const { notSent, stopped, refused } = cause
  if (notSent + stopped === 0) return undefined
  return [
    `${ownFailures(cause)} ${refused ? 'refused' : 'failed'}`,
    ...(stopped === 0 ? [] : [`${stopped} stopped between retries`]),
    ...(notSent === 0 ? [] : [`${notSent} not sent after that`])
  ].join(', ')
}
