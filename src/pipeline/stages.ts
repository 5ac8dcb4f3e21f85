/**
 * The stages after the plan, each returning its outcome to the one function that runs them in
 * order: a dry run, or the purge marks opened, then the wait, the purge and the edge check.
 */
import type { LastPurgeSettings, PurgeTargets, Settings } from '../config/settings.js'
import type { PageCheckDeps, RequestLimits } from '../http/page-checks.js'
import type { Prober } from '../http/probe.js'
import type { StepLog } from '../log.js'
import {
  countResults,
  type PlannedStage,
  type PurgeCall,
  type PurgeRun,
  type EdgeCheckOutcome,
  type WaitOutcome
} from '../record/index.js'
import { NOT_READY, NOT_SENT_CANCELLED } from '../record/failure.js'
import { plannedResults, showDryRun } from '../core/plan.js'
import { runPurge } from '../core/engine.js'
import type { OpenMark } from '../capabilities/changed-files/last-purge/write.js'
import { ResultLedger } from '../core/ledger.js'
import type { Targets } from './targets.js'
import {
  describeCheckPlanned,
  purgedUrlsOf,
  edgeCheckTargetsOf
} from '../capabilities/edge-check/urls.js'
import { plainLine } from '../text/shown.js'
import { messageOf } from '../text/message.js'
import type { PipelineDeps } from './connections.js'

// The stages only some runs need load when a run needs them: a run that purges keys or URLs loads
// none of them (nor the page prober), which takes about 2% off the action's start.
const lastPurgeMarks = () => import('../capabilities/changed-files/last-purge/write.js')
const waitStage = () => import('../capabilities/wait/index.js')
const edgeCheckStage = () => import('../capabilities/edge-check/index.js')

/**
 * What the stages after the plan did: each stage's outcome (the wait and edge check only when they
 * ran), the marks opened, an early end's why.
 */
export interface Stages {
  purge: PurgeRun
  wait: WaitOutcome | undefined
  edgeCheck: EdgeCheckOutcome | undefined
  plannedStages: PlannedStage[]
  marks: OpenMark[]
  unexpectedError: string | undefined
}

/** The edge check a run that stopped on an unexpected error expected but did not make: not fresh. */
function notJudged(settings: Settings, purge: PurgeRun, why: string): EdgeCheckOutcome | undefined {
  const targets = edgeCheckTargetsOf(settings.edgeCheck, () => purgedUrlsOf(purge.results))
  if (settings.dryRun || targets.length === 0) return undefined
  const evidence = `not judged: ${why}`
  const unjudged = { fresh: false, http_status: null, age: null, checks: 0, evidence }
  const entries = targets.map(({ url }) => ({ url, ...unjudged }))
  return { entries, cancelled: false, malformedAge: [] }
}

/** A purge that sent nothing: its results from the plan or the ledger. */
const notRun = (
  { results, counts }: Pick<PurgeRun, 'results' | 'counts'>,
  cancelled = false
): PurgeRun => ({ results, counts, answered: 0, cancelled, firstSentMs: undefined })

/** A dry run: every call and every later stage as it would run; nothing sent, nothing marked. */
async function dryRun(
  calls: PurgeCall[],
  settings: Settings,
  targets: PurgeTargets,
  deps: Pick<PipelineDeps, 'log' | 'guard'>
): Promise<Stages> {
  const { wait, lastPurge, edgeCheck } = settings
  const urls = targets.urls.map((url) => url.target)
  const plannedStages = [
    wait === undefined ? undefined : (await waitStage()).describeWaitPlanned(wait, deps.guard),
    describeCheckPlanned(edgeCheck, urls, deps.guard),
    lastPurge === undefined ? undefined : (await lastPurgeMarks()).describeMarkPlanned(lastPurge)
  ].filter((stage) => stage !== undefined)
  await showDryRun(calls, settings.repeatAfterMs, plannedStages, deps)
  const planned = plannedResults(calls, settings.repeatAfterMs > 0)
  return {
    purge: notRun({ results: planned, counts: countResults(planned) }),
    wait: undefined,
    edgeCheck: undefined,
    plannedStages,
    marks: [],
    unexpectedError: undefined
  }
}

/**
 * The stages after the plan, each returning its outcome: a dry run; or open the purge marks, then
 * wait until the origin serves the release, purge, and check at the edge that visitors get fresh
 * copies (no purge call is sent when the wait does not end in time). A throw ends them: every
 * target then has a result from the ledger, the only state that must survive it.
 */
export async function runStages(
  calls: PurgeCall[],
  settings: Settings,
  targets: PurgeTargets,
  repository: Pick<Targets, 'github' | 'recalled'>,
  deps: PipelineDeps,
  ledger: ResultLedger
): Promise<Stages> {
  const pages = pageChecks(settings, deps)
  let marks: OpenMark[] = []
  let wait: WaitOutcome | undefined
  let purge: PurgeRun | undefined
  let edgeCheck: EdgeCheckOutcome | undefined
  try {
    if (settings.dryRun) return await dryRun(calls, settings, targets, deps)
    marks = await openMarksOf(settings.lastPurge, repository, deps.log)
    if (settings.wait !== undefined) {
      const { waitForOrigin } = await waitStage()
      wait = await waitForOrigin(settings.wait, limitsOf(settings), await pages.get())
    }
    purge =
      wait?.done === false
        ? notSentForWait(wait, ledger)
        : await purgeNow(calls, settings, deps, ledger)
    edgeCheck = purge.cancelled ? undefined : await checkAtEdge(settings, purge, pages, deps)
    return { purge, wait, edgeCheck, plannedStages: [], marks, unexpectedError: undefined }
  } catch (error) {
    const why = `edge-purge stopped on an unexpected error: ${plainLine(deps.guard, messageOf(error))}`
    const cancelled = (purge?.cancelled ?? false) || deps.signal.aborted
    const settled = ledger.settle({ what: 'not finished', detail: why })
    const ended = { answered: 0, firstSentMs: undefined, ...purge, ...settled, cancelled }
    edgeCheck ??= notJudged(settings, ended, why)
    return { purge: ended, wait, edgeCheck, plannedStages: [], marks, unexpectedError: why }
  } finally {
    pages.close()
  }
}

/** The page checks of the wait and the edge check: their prober, made on first use, closed once. */
function pageChecks(
  settings: Settings,
  { clock, signal, log, guard, connect }: PipelineDeps
): { get(): Promise<PageCheckDeps>; close(): void } {
  let prober: Prober | undefined
  return {
    get: async () => {
      prober ??= await connect.prober(settings, guard)
      return { prober, clock, signal, log, guard }
    },
    close: () => prober?.close()
  }
}

/** Each service's purge mark opened, with `changed-since: last-purge` (never in a dry run). */
async function openMarksOf(
  lastPurge: LastPurgeSettings | undefined,
  { github, recalled }: Pick<Targets, 'github' | 'recalled'>,
  log: StepLog
): Promise<OpenMark[]> {
  if (lastPurge === undefined || github === undefined || recalled === undefined) return []
  const { openMarks } = await lastPurgeMarks()
  return openMarks(github, lastPurge, recalled.head, log)
}

/** Every target failed unsent, when the wait did not end with the origin ready. */
function notSentForWait(wait: WaitOutcome, ledger: ResultLedger): PurgeRun {
  const failure = wait.cancelled
    ? NOT_SENT_CANCELLED
    : { ...(wait.failure ?? NOT_READY), notSent: true }
  return notRun(ledger.settle(failure), wait.cancelled)
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

/** The edge check of what was purged and `verify-urls`; none when there is nothing to check. */
async function checkAtEdge(
  settings: Settings,
  purge: PurgeRun,
  pages: ReturnType<typeof pageChecks>,
  { clock, log }: PipelineDeps
): Promise<EdgeCheckOutcome | undefined> {
  const targets = edgeCheckTargetsOf(settings.edgeCheck, () => purgedUrlsOf(purge.results))
  if (targets.length === 0) {
    if (settings.edgeCheck.purgedUrls) {
      log.notice(
        'verify: true, but there is nothing to check at the edge: no URL was purged and verify-urls is empty'
      )
    }
    return undefined
  }
  const purgeStartedMs = purge.firstSentMs ?? clock.now()
  const { checkEdge } = await edgeCheckStage()
  const { timeoutMs } = settings.edgeCheck
  return checkEdge({ targets, purgeStartedMs, timeoutMs }, limitsOf(settings), await pages.get())
}

/** The user's `timeout` and `concurrency`, which every fetch of a page obeys. */
const limitsOf = (settings: Settings): RequestLimits => ({
  requestTimeoutMs: settings.timeoutMs,
  concurrency: settings.concurrency
})
