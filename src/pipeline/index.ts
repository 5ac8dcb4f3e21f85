/**
 * One run's stages in order: recall → derive → plan → purge marks opened → wait → purge → verify;
 * returns the RunRecord, and how the purge marks are closed once the report is written, on the one
 * GitHub client the run opened. No I/O of its own.
 */
import { mark } from '../clock.js'
import type { Settings } from '../config/settings.js'
import { withSources, type RunRecord } from '../record/index.js'
import { describePlan, planPurges } from '../core/plan.js'
import { ResultLedger } from '../core/ledger.js'
import { showChanges, targetsOf } from './targets.js'
import type { GitHubRepository } from '../github.js'
import { strayEdgeCheckHosts } from '../capabilities/edge-check/urls.js'
import { counted } from '../text/counted.js'
import { plainLine } from '../text/shown.js'
import { messageOf } from '../text/message.js'
import type { PipelineDeps } from './connections.js'
import { runStages, type Stages } from './stages.js'

// Loaded only by runs that keep purge marks (changed-since: last-purge), as stages.ts loads it.
const lastPurgeMarks = () => import('../capabilities/changed-files/last-purge/write.js')

/** What a run did, and how its purge marks are closed once the report is written. */
export interface PipelineRun {
  record: RunRecord
  /**
   * Ends each service's purge mark: `success` only for a complete run whose report was written
   * (`reported`), on the GitHub client the run opened.
   */
  closeMarks(reported: boolean): Promise<void>
}

/**
 * Runs the stages in order. Input errors, the GitHub API and planning fail the run (they throw)
 * before anything is sent; from planning on, every target is reported exactly once, whatever
 * happens.
 */
export async function runPipeline(settings: Settings, deps: PipelineDeps): Promise<PipelineRun> {
  const { log } = deps
  const { github, recalled, targets, derivation } = await targetsOf(settings, deps)
  const calls = planPurges({ ...settings, ...targets })
  mark('plan')
  if (derivation !== undefined) await showChanges(derivation, calls.length, deps)
  log.info(describePlan(calls, settings, deps.guard))
  const waitUrls = settings.wait?.urls ?? []
  for (const notice of strayEdgeCheckHosts(settings.edgeCheck, targets.urls, waitUrls, deps.guard))
    log.notice(notice)

  const ledger = new ResultLedger(calls)
  const stages = await runStages(calls, settings, targets, { github, recalled }, deps, ledger)
  const { purge, wait, edgeCheck, plannedStages, marks, unexpectedError } = stages
  const results =
    derivation === undefined ? purge.results : withSources(purge.results, derivation.sources)
  const run = { results, edgeCheck, stopped: stoppedBy(stages, calls.length), unexpectedError }
  const record: RunRecord = {
    settings,
    derivation,
    calls,
    plannedStages,
    wait,
    ...run,
    counts: purge.counts,
    marks: marks.length === 0 ? [] : (await lastPurgeMarks()).decideMarks(marks, run)
  }
  return { record, closeMarks: (reported) => closeMarks(github, record, reported, deps) }
}

/**
 * Ends each service's purge mark on the run's GitHub client. A close GitHub refuses, that times out
 * or is cancelled costs a warning: the next run then compares from the older mark, which is safe.
 */
async function closeMarks(
  github: GitHubRepository | undefined,
  record: RunRecord,
  reported: boolean,
  { log, guard }: Pick<PipelineDeps, 'log' | 'guard'>
): Promise<void> {
  if (github === undefined || record.marks.every((mark) => mark.deploymentId === undefined)) {
    return
  }
  try {
    await (await lastPurgeMarks()).closeMarks(github, record.marks, reported, log)
  } catch (error) {
    log.warning(
      `Could not mark the records of this purge (${plainLine(guard, messageOf(error))}): they stay in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe`
    )
  }
}

/** Why the run ended early, when a cancel ended it. */
function stoppedBy({ purge, wait, edgeCheck }: Stages, calls: number): string | undefined {
  if (wait?.cancelled === true) {
    return 'Cancelled while waiting for the origin: no purge call was sent'
  }
  if (purge.cancelled) {
    return `Cancelled after ${purge.answered} of ${counted(calls, 'call')}: the calls not answered by then are reported as failed`
  }
  if (edgeCheck?.cancelled === true) {
    return 'Cancelled during the edge check: the URLs not judged by then are reported as not fresh'
  }
  return undefined
}
