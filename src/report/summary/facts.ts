/**
 * The facts the summary shows, each read from the run record once (`renderSummary`), so that every
 * section reads the same answer to the same question.
 */
import type { WaitSettings } from '../../config/settings.js'
import type { EdgeCheckEntry, RunContext, RunRecord, WaitOutcome } from '../../record/index.js'

/**
 * What the record says as it is (why a run ended early, a cancel or an unexpected error, is shown
 * first), and what the summary reads of the settings and the report.
 */
export type SummaryFacts = Pick<
  RunRecord,
  | 'results'
  | 'counts'
  | 'derivation'
  | 'calls'
  | 'stopped'
  | 'unexpectedError'
  | 'plannedStages'
  | 'marks'
> & {
  services: string[]
  /** `mode: all`: each target is a whole service. */
  purgeAll: boolean
  dryRun: boolean
  repeatAfterMs: number
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  /** The wait for the origin, when there was one. */
  wait: WaitFacts | undefined
  /** The edge check, when one was made. */
  edgeCheck: EdgeCheck | undefined
}

/** The wait as it was asked for, and how it ended. */
export type WaitFacts = WaitSettings & { outcome: WaitOutcome }

export interface EdgeCheck {
  entries: EdgeCheckEntry[]
  /** The URLs judged by the text (`verify-urls` with `verify-text`); the rest by `Age`. */
  textUrls: string[]
  /** The URLs whose `Age` proved nothing: not a whole number of seconds. */
  malformedAge: string[]
}

/**
 * Nothing was sent because the wait for the origin did not end well: why, in a few words. The
 * headline, the scope line and the target sections all ask, and must agree.
 */
export function notSentBecause({ wait, dryRun }: SummaryFacts): string | undefined {
  if (dryRun || wait === undefined || wait.outcome.done) return undefined
  if (wait.outcome.cancelled) return 'cancelled during the wait'
  return wait.outcome.blocked ? 'the origin could not be checked' : 'the origin was not ready'
}
