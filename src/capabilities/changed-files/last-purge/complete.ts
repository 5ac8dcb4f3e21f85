/** Whether a run purged a service completely: what makes its purge mark a later base. Pure. */
import type { PurgeResult, RunRecord } from '../../../record/index.js'
import { counted } from '../../../text/counted.js'

/** The parts of a run that decide completeness. */
export type RunOutcome = Pick<RunRecord, 'results' | 'edgeCheck' | 'stopped' | 'unexpectedError'>

/**
 * Why the run did not purge `service` completely, or `undefined` when it did: every target of the
 * service and every URL target purged (the repeat pass too), every URL checked at the edge fresh,
 * no cancel, no unexpected error. URL purges and edge checks belong to no service, so they count
 * against every one.
 * A run that matched no file and purged nothing is complete: the site is fresh up to its commit.
 */
export function incompleteBecause(run: RunOutcome, service: string): string | undefined {
  if (run.stopped !== undefined) return 'the run was cancelled'
  if (run.unexpectedError !== undefined) return 'the run stopped on an unexpected error'
  const unpurged = run.results.filter(
    (result) => (result.service === service || result.service === null) && !purged(result)
  ).length
  if (unpurged > 0) return `${counted(unpurged, 'target')} not purged`
  const notFresh = run.edgeCheck?.entries.filter((entry) => !entry.fresh) ?? []
  if (notFresh.length > 0) return `${counted(notFresh.length, 'page')} not fresh at the edge`
  return undefined
}

function purged(result: PurgeResult): boolean {
  return result.status === 'purged' && (result.repeat == null || result.repeat.status === 'purged')
}
