/** How the step ends: a few annotations for the failures, then failed or warned. */
import * as core from '@actions/core'
import type { Counts, PurgeResult } from './results.js'
import { oneLine } from './outside-text.js'
import { shorten } from './targets.js'

/** GitHub shows 10 error annotations per step; keep room for the final one and other steps' notes. */
export const MAX_ANNOTATIONS = 5
/** A server message is cut to 300 characters; this leaves room for what the action says around it. */
const SHOWN_REASON_CHARS = 400

/** Failures grouped by reason, largest group first: a bad token is one annotation, not 600. */
export function failureAnnotations(results: PurgeResult[]): string[] {
  const groups = new Map<string, PurgeResult[]>()
  for (const result of results) {
    if (result.status !== 'failed') continue
    const reason = result.error ?? 'failed'
    const group = groups.get(reason)
    if (group === undefined) groups.set(reason, [result])
    else group.push(result)
  }
  const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length)
  const lines = sorted.slice(0, MAX_ANNOTATIONS).map(([reason, group]) => {
    const [first] = group
    const what =
      group.length === 1 && first !== undefined
        ? `${first.type} ${shorten(first.target)}`
        : `${group.length} targets`
    return `${what} failed: ${oneLine(reason, SHOWN_REASON_CHARS)}`
  })
  if (sorted.length > MAX_ANNOTATIONS) {
    lines.push(
      `…and ${sorted.length - MAX_ANNOTATIONS} more kinds of failure: see the job summary and the results output`
    )
  }
  return lines
}

export function conclude(results: PurgeResult[], counts: Counts, failOnError: boolean): void {
  if (counts.failed === 0) return
  const report = failOnError ? core.error : core.warning
  for (const line of failureAnnotations(results)) report(line)
  const message = `${counts.failed} of ${results.length} targets failed to purge; the job summary and the results output list each with its reason`
  if (failOnError) core.setFailed(message)
  else core.warning(`${message} (fail-on-error is false, so the step passes)`)
}
