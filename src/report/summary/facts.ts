/**
 * The facts the summary shows, each read from the run record once (`renderSummary`), so that every
 * section reads the same answer to the same question.
 */
import type { Verdict } from '../../capabilities/capability.js'
import type { RunRecord } from '../../capabilities/index.js'
import type { RunContext } from '../../record/index.js'
import type { Guard } from '../../text/guard.js'

/** Where the report put what the summary points to, and which run this was. */
export interface SummarySetting {
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  /**
   * Whether the results file stays where it was written once the run is over (the command's), or
   * is deleted with the job (the runner's, in RUNNER_TEMP): the door knows, and the footer says
   * where the file is, or how to keep it.
   */
  resultsFileStays: boolean
  context: RunContext | undefined
  /** The run's guard, through which every outside piece of the summary passes. */
  guard: Guard
}

/** The run's record, with what the report adds: where the results file is, which run, the verdicts. */
export type SummaryFacts = RunRecord &
  Omit<SummarySetting, 'guard'> & {
    /** What each capability says of the run, in the list's order. */
    verdicts: Verdict[]
  }
