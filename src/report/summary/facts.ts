/**
 * The facts the summary shows, each read from the run record once (`renderSummary`), so that every
 * section reads the same answer to the same question.
 */
import type { Verdict } from '../../capabilities/capability.js'
import type { RunRecord } from '../../capabilities/index.js'
import type { RunContext } from '../../record/index.js'

/** The run's record, with what the report adds: where the results file is, which run, the verdicts. */
export type SummaryFacts = RunRecord & {
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  /** What each capability says of the run, in the list's order. */
  verdicts: Verdict[]
}
