/**
 * The stages after the plan, in the list's order around the purge: a dry run; or each
 * capability's stage before the purge (the purge marks opened, the wait), the purge, and each
 * one's stage after it (the edge check).
 */
import { CAPABILITIES, type Parts } from '../capabilities/index.js'
import type { StageDeps, StageEnd } from '../capabilities/capability.js'
import type { PurgeTargets, Settings } from '../config/settings.js'
import {
  countResults,
  type CoreRecord,
  type PlannedStage,
  type PurgeCall,
  type PurgeRun
} from '../record/index.js'
import { plannedResults, showDryRun } from '../core/plan.js'
import { runPurge } from '../core/engine.js'
import type { ResultLedger } from '../core/ledger.js'
import { counted } from '../text/counted.js'
import { plainLine } from '../text/shown.js'
import { messageOf } from '../text/message.js'
import type { PipelineDeps } from './connections.js'

/** What the stages after the plan did: the purge, the capabilities' parts, an early end's why. */
export type Stages = Pick<
  CoreRecord,
  'plannedStages' | 'notSent' | 'stopped' | 'unexpectedError'
> & {
  purge: PurgeRun
  parts: Parts
}

/** A purge that sent nothing: its results from the plan or the ledger. */
const notRun = (
  { results, counts }: Pick<PurgeRun, 'results' | 'counts'>,
  cancelled = false
): PurgeRun => ({ results, counts, answered: 0, cancelled, firstSentMs: undefined })

const WHEN: PlannedStage['when'][] = ['before', 'after', 'end']

/** A dry run: every call and what each capability would do; nothing sent, nothing marked. */
async function dryRun(
  calls: PurgeCall[],
  settings: Settings,
  targets: PurgeTargets,
  deps: Pick<PipelineDeps, 'log' | 'guard'>
): Promise<Pick<Stages, 'purge' | 'plannedStages'>> {
  const planned = []
  for (const capability of CAPABILITIES)
    planned.push(...((await capability.planned?.(settings, targets, deps.guard)) ?? []))
  // In the order a real run would make them.
  const plannedStages = planned.sort((a, b) => WHEN.indexOf(a.when) - WHEN.indexOf(b.when))
  await showDryRun(calls, settings.repeatAfterMs, plannedStages, deps)
  const results = plannedResults(calls, settings.repeatAfterMs > 0)
  return { purge: notRun({ results, counts: countResults(results) }), plannedStages }
}

/**
 * The stages after the plan: a dry run; or each capability's stage before the purge, the purge
 * (none when a stage held it), and each one's stage after it. A throw ends them: every target then
 * has a result from the ledger, the only state that must survive it.
 */
export async function runStages(
  calls: PurgeCall[],
  settings: Settings,
  targets: PurgeTargets,
  given: Parts,
  { stage, close }: { stage: StageDeps; close(): void },
  deps: PipelineDeps,
  ledger: ResultLedger
): Promise<Stages> {
  let parts = given
  let purge: PurgeRun | undefined
  const before: StageEnd<Parts>[] = []
  const after: StageEnd<Parts>[] = []
  const stoppedIn = (ends: StageEnd<Parts>[]): string | undefined =>
    ends.find((ended) => ended.stopped !== undefined)?.stopped
  // Why the run ended early: a cancel before the purge, during it, or after it.
  const stoppedBy = (ended: PurgeRun): string | undefined =>
    stoppedIn(before) ??
    (ended.cancelled
      ? `Cancelled after ${ended.answered} of ${counted(calls.length, 'call')}: the calls not answered by then are reported as failed`
      : stoppedIn(after))
  const held = () => before.find((end) => end.hold !== undefined)?.hold
  const end = (ended: PurgeRun, unexpectedError?: string): Stages => {
    const early = { notSent: held()?.because, stopped: stoppedBy(ended), unexpectedError }
    return { purge: ended, parts, plannedStages: [], ...early }
  }
  try {
    if (settings.dryRun) {
      const early = { notSent: undefined, stopped: undefined, unexpectedError: undefined }
      return { ...(await dryRun(calls, settings, targets, deps)), parts, ...early }
    }
    for (const capability of CAPABILITIES) {
      const ended = await capability.before?.({ settings, ...parts }, stage)
      if (ended !== undefined) before.push(ended)
      parts = { ...parts, ...ended?.part }
    }
    const hold = held()
    purge =
      hold === undefined
        ? await purgeNow(calls, settings, deps, ledger)
        : notRun(ledger.settle(hold.failure), hold.cancelled)
    // A cancelled purge has no stage after it.
    for (const capability of purge.cancelled ? [] : CAPABILITIES) {
      const ended = await capability.after?.({ settings, ...parts }, purge, stage)
      if (ended !== undefined) after.push(ended)
      parts = { ...parts, ...ended?.part }
    }
    return end(purge)
  } catch (error) {
    const why = `edge-purge stopped on an unexpected error: ${plainLine(deps.guard, messageOf(error))}`
    const cancelled = (purge?.cancelled ?? false) || deps.signal.aborted
    const settled = ledger.settle({ what: 'not finished', detail: why })
    const ended = { answered: 0, firstSentMs: undefined, ...purge, ...settled, cancelled }
    for (const capability of CAPABILITIES)
      parts = { ...parts, ...capability.notJudged?.({ settings, ...parts }, ended.results, why) }
    return end(ended, why)
  } finally {
    close()
  }
}

async function purgeNow(
  calls: PurgeCall[],
  settings: Settings,
  { clock, signal, log, guard, connect }: PipelineDeps,
  ledger: ResultLedger
): Promise<PurgeRun> {
  const transport = connect.transport(settings)
  try {
    return await runPurge(calls, settings, { transport, clock, signal, log, guard }, ledger)
  } finally {
    transport.close()
  }
}
