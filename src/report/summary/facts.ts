/**
 * The facts the summary shows, each read from the run record once (`renderSummary`), so that every
 * section reads the same answer to the same question.
 */
import type { Verdict } from '../../capabilities/capability.js'
import type { CoreRecord, RunContext } from '../../record/index.js'

/**
 * What the record says as it is (why a run ended early, a cancel or an unexpected error, is shown
 * first, and why nothing was sent), and what the summary reads of the settings and the report.
 */
export type SummaryFacts = Pick<
  CoreRecord,
  'results' | 'counts' | 'calls' | 'stopped' | 'unexpectedError' | 'plannedStages' | 'notSent'
> & {
  services: string[]
  /** `mode: all`: each target is a whole service. */
  purgeAll: boolean
  dryRun: boolean
  repeatAfterMs: number
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  /** What each capability says of the run, in the list's order. */
  verdicts: Verdict[]
}
