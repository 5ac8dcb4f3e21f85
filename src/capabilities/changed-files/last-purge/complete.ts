/** Whether a run purged a service completely: what makes its purge mark a later base. Pure. */
import type { CoreRecord, PurgeResult } from '../../../record/index.js'
import { counted } from '../../../text/counted.js'
import type { OpenMark, PurgeMark } from '../record.js'

/** The parts of a run that decide completeness. */
type RunOutcome = Pick<CoreRecord, 'results' | 'stopped' | 'unexpectedError' | 'notComplete'>

/**
 * Why the run did not purge `service` completely, or `undefined` when it did: every target of the
 * service and every URL target purged (the repeat pass too), no cancel, no unexpected error, and
 * no capability found it not complete (a page not fresh at the edge). URL purges and edge checks
 * belong to no service, so they count against every one.
 * A run that matched no file and purged nothing is complete: the site is fresh up to its commit.
 */
function incompleteBecause(run: RunOutcome, service: string): string | undefined {
  if (run.stopped !== undefined) return 'the run was cancelled'
  if (run.unexpectedError !== undefined) return 'the run stopped on an unexpected error'
  const unpurged = run.results.filter(
    (result) => (result.service === service || result.service === null) && !purged(result)
  ).length
  if (unpurged > 0) return `${counted(unpurged, 'target')} not purged`
  return run.notComplete
}

function purged(result: PurgeResult): boolean {
  return result.status === 'purged' && (result.repeat == null || result.repeat.status === 'purged')
}

/** What each purge mark is to say: `success` when the run purged the service completely. Pure. */
export function decideMarks(marks: readonly OpenMark[], run: RunOutcome): PurgeMark[] {
  return marks.map(({ service, sha, deploymentId, refusal }) => {
    if (deploymentId === undefined) {
      return { service, sha, deploymentId, state: 'not written', why: refusal ?? '' }
    }
    const why = incompleteBecause(run, service)
    const state = why === undefined ? 'success' : 'failure'
    return { service, sha, deploymentId, state, why: why ?? '' }
  })
}
