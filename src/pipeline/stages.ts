/**
 * The stages after the plan, in the list's order around the purge: a dry run; or each
 * capability's stage before the purge (the purge marks opened, the wait), the purge, and each
 * one's stage after it (the edge check).
 */
import { CAPABILITIES, type Parts, type RunRecord } from '../capabilities/index.js'
import type {
  Capability,
  MadeTargets,
  Ongoing,
  StageDeps,
  StageEnd
} from '../capabilities/capability.js'
import type { PurgeTargets, Settings } from '../config/settings.js'
import {
  countResults,
  withSources,
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

/** What the stages after the plan make of the run: its record, but whether it is complete. */
type Stages = Omit<RunRecord, 'settings' | 'calls' | 'notComplete'>

/** What a run purges, the targets a capability made (with where each came from), their parts. */
export interface Targeted {
  targets: PurgeTargets
  made: MadeTargets | undefined
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
): Promise<{ purge: PurgeRun; plannedStages: PlannedStage[] }> {
  const planned = []
  for (const capability of CAPABILITIES)
    planned.push(...((await capability.planned?.(settings, targets, deps.guard)) ?? []))
  // In the order a real run would make them.
  const plannedStages = planned.sort((a, b) => WHEN.indexOf(a.when) - WHEN.indexOf(b.when))
  await showDryRun(calls, settings.repeatAfterMs, plannedStages, deps)
  const results = plannedResults(calls, settings.repeatAfterMs > 0)
  return { purge: notRun({ results, counts: countResults(results) }), plannedStages }
}

/** What the stages have done so far: each capability's part, and their ends around the purge. */
interface Progress {
  parts: Parts
  before: StageEnd<Parts>[]
  after: StageEnd<Parts>[]
}

const stoppedIn = (ends: StageEnd<Parts>[]): string | undefined =>
  ends.find((end) => end.stopped !== undefined)?.stopped

const heldBy = ({ before }: Progress) => before.find((end) => end.hold !== undefined)?.hold

/** Each capability's stage in turn, on the run so far: its part kept, its end added to `ends`. */
export async function walk<End extends StageEnd<Parts>>(
  settings: Settings,
  progress: Pick<Progress, 'parts'>,
  ends: End[],
  hook: (capability: Capability<Parts>, so: Ongoing<Parts>) => Promise<End> | undefined
): Promise<void> {
  for (const capability of CAPABILITIES) {
    const end = await hook(capability, { settings, ...progress.parts })
    if (end !== undefined) ends.push(end)
    progress.parts = { ...progress.parts, ...end?.part }
  }
}

/** The run as the stages leave it: the results (each with its source), the parts, an early end. */
function stagesOf(
  progress: Progress,
  purge: PurgeRun,
  { calls, made }: { calls: number; made: MadeTargets | undefined },
  unexpectedError?: string,
  plannedStages: PlannedStage[] = []
): Stages {
  const { results, counts } = purge
  // Why the run ended early: a cancel before the purge, during it, or after it.
  const stopped =
    stoppedIn(progress.before) ??
    (purge.cancelled
      ? `Cancelled after ${purge.answered} of ${counted(calls, 'call')}: the calls not answered by then are reported as failed`
      : stoppedIn(progress.after))
  const sourced = made === undefined ? results : withSources(results, made.sources)
  const early = { notSent: heldBy(progress)?.because, stopped, unexpectedError }
  return { results: sourced, counts, plannedStages, ...early, ...progress.parts }
}

/**
 * The stages after the plan: a dry run; or each capability's stage before the purge, the purge
 * (none when a stage held it), and each one's stage after it. A throw ends them: every target then
 * has a result from the ledger, the only state that must survive it.
 */
export async function runStages(
  calls: PurgeCall[],
  settings: Settings,
  { targets, made, parts }: Targeted,
  { stage, close }: { stage: StageDeps; close(): void },
  deps: PipelineDeps,
  ledger: ResultLedger
): Promise<Stages> {
  const progress: Progress = { parts, before: [], after: [] }
  const end = (ended: PurgeRun, why?: string, planned?: PlannedStage[]): Stages =>
    stagesOf(progress, ended, { calls: calls.length, made }, why, planned)
  let purge: PurgeRun | undefined
  try {
    if (settings.dryRun) {
      const { purge: planned, plannedStages } = await dryRun(calls, settings, targets, deps)
      return end(planned, undefined, plannedStages)
    }
    await walk(settings, progress, progress.before, (capability, so) =>
      capability.before?.(so, stage)
    )
    const hold = heldBy(progress)
    purge =
      hold === undefined
        ? await purgeNow(calls, settings, deps, ledger)
        : notRun(ledger.settle(hold.failure), hold.cancelled)
    const done = purge
    // A cancelled purge has no stage after it.
    if (!done.cancelled) {
      await walk(settings, progress, progress.after, (capability, so) =>
        capability.after?.(so, done, stage)
      )
    }
    return end(done)
  } catch (error) {
    const why = `edge-purge stopped on an unexpected error: ${plainLine(deps.guard, messageOf(error))}`
    const cancelled = (purge?.cancelled ?? false) || deps.signal.aborted
    const settled = ledger.settle({ what: 'not finished', detail: why })
    const ended = { answered: 0, firstSentMs: undefined, ...purge, ...settled, cancelled }
    for (const { notJudged } of CAPABILITIES) {
      const so = { settings, ...progress.parts }
      progress.parts = { ...progress.parts, ...notJudged?.(so, ended.results, why) }
    }
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
