/**
 * One run's stages in order: recall → derive → plan → purge marks opened → wait → purge → verify;
 * returns the RunRecord, and how the purge marks are closed once the report is written, on the one
 * GitHub client the run opened. No I/O of its own.
 */
import { mark } from '../clock.js'
import type { PurgeTargets, Settings } from '../config/settings.js'
import type { PageCheckDeps } from '../http/page-checks.js'
import type { Prober } from '../http/probe.js'
import type { StepLog } from '../log.js'
import {
  countResults,
  withSources,
  type Counts,
  type PlannedStage,
  type PurgeCall,
  type PurgeRun,
  type Results,
  type RunRecord,
  type EdgeCheckOutcome,
  type WaitOutcome
} from '../record/index.js'
import { NOT_READY, NOT_SENT_CANCELLED, type Failure } from '../record/failure.js'
import { describePlan, plannedResults, planPurges, showDryRun } from '../stages/plan.js'
import { runPurge } from '../stages/purge/engine.js'
import type { OpenMark } from '../stages/last-purge/write.js'
import { ResultLedger } from '../stages/purge/ledger.js'
import { createTransport, type Transport } from '../stages/purge/transport.js'
import { showChanges, targetsOf, type RepositoryDeps } from './targets.js'
import type { GitHubRepository } from '../github.js'
import {
  describeCheckPlanned,
  purgedUrlsOf,
  strayEdgeCheckHosts,
  edgeCheckTargetsOf
} from '../stages/edge-check/targets.js'
import { counted } from '../text/counted.js'
import { plainLine } from '../text/shown.js'
import { messageOf } from '../text/message.js'

const USER_AGENT = 'edge-purge/1'

// The stages only some runs need load when a run needs them: a run that purges keys or URLs loads
// none of them (nor the page prober), which takes about 2% off the action's start.
const lastPurgeMarks = () => import('../stages/last-purge/write.js')
const waitStage = () => import('../stages/wait.js')
const edgeCheckStage = () => import('../stages/edge-check/index.js')

/** How the stages reach the network: real sockets in a run, scripted answers in tests. */
export interface Connections {
  transport(settings: Settings): Transport
  /** Asked for only by a run that waits for the origin or checks the edge. */
  prober(settings: Settings): Promise<Prober>
}

/** The real connections; the purge transport carries the API token the runner door hands in. */
export const liveConnections = (apiToken: string): Connections => ({
  transport: (settings) =>
    createTransport({
      apiToken,
      concurrency: settings.concurrency,
      timeoutMs: settings.timeoutMs,
      userAgent: USER_AGENT
    }),
  prober: async (settings) => {
    const { createProber } = await import('../http/probe.js')
    return createProber({ userAgent: USER_AGENT, concurrency: settings.concurrency })
  }
})

/** What the pipeline is handed: time, the cancel, the log, the network and GitHub. */
export interface PipelineDeps extends RepositoryDeps {
  connect: Connections
}

/** What the stages after planning did; the wait and edge check only when they ran. */
interface Stages {
  purge: PurgeRun
  wait: WaitOutcome | undefined
  edgeCheck: EdgeCheckOutcome | undefined
  plannedStages: PlannedStage[]
}

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
  const { signal, log } = deps
  const { github, recalled, targets, derivation } = await targetsOf(settings, deps)
  const calls = planPurges({ ...settings, ...targets })
  mark('plan')
  if (derivation !== undefined) await showChanges(derivation, calls.length, log)
  log.info(describePlan(calls, settings))
  const waitUrls = settings.wait?.urls ?? []
  for (const notice of strayEdgeCheckHosts(settings.edgeCheck, targets.urls, waitUrls))
    log.notice(notice)

  const ledger = new ResultLedger(calls)
  const stages = nothingDone()
  let unexpectedError: string | undefined
  let marks: OpenMark[] = []
  try {
    if (!settings.dryRun && github !== undefined && recalled !== undefined && settings.lastPurge) {
      const { openMarks } = await lastPurgeMarks()
      marks = await openMarks(github, settings.lastPurge, recalled.head, log)
    }
    if (settings.dryRun) Object.assign(stages, await dryRun(calls, settings, targets, log))
    else await purgeForVisitors(calls, settings, deps, ledger, stages)
  } catch (error) {
    unexpectedError = `edge-purge stopped on an unexpected error: ${plainLine(messageOf(error))}`
    const cancelled = stages.purge.cancelled || signal.aborted
    stages.purge = {
      ...stages.purge,
      ...ledger.settle({ what: 'not finished', detail: unexpectedError }),
      cancelled
    }
    stages.edgeCheck ??= notJudged(settings, stages.purge.results, unexpectedError)
  }
  const { purge, wait, edgeCheck, plannedStages } = stages
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
  return { record, closeMarks: (reported) => closeMarks(github, record, reported, log) }
}

/**
 * Ends each service's purge mark on the run's GitHub client. A close GitHub refuses, that times out
 * or is cancelled costs a warning: the next run then compares from the older mark, which is safe.
 */
async function closeMarks(
  github: GitHubRepository | undefined,
  record: RunRecord,
  reported: boolean,
  log: StepLog
): Promise<void> {
  if (github === undefined || record.marks.every((mark) => mark.deploymentId === undefined)) {
    return
  }
  try {
    await (await lastPurgeMarks()).closeMarks(github, record.marks, reported, log)
  } catch (error) {
    log.warning(
      `Could not mark the records of this purge (${plainLine(messageOf(error))}): they stay in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe`
    )
  }
}

/** The edge check a run that stopped on an unexpected error expected but did not make: not fresh. */
function notJudged(
  settings: Settings,
  results: Results,
  why: string
): EdgeCheckOutcome | undefined {
  const targets = edgeCheckTargetsOf(settings.edgeCheck, () => purgedUrlsOf(results))
  if (settings.dryRun || targets.length === 0) return undefined
  const evidence = `not judged: ${why}`
  const entries = targets.map(({ url }) => ({
    url,
    fresh: false,
    http_status: null,
    age: null,
    checks: 0,
    evidence
  }))
  return { entries, cancelled: false, malformedAge: [] }
}

const notRun = (results: RunRecord['results'], counts: Counts): PurgeRun => ({
  results,
  counts,
  answered: 0,
  cancelled: false,
  firstSentMs: undefined
})

/** Every call not sent, or not answered, for `reason`: the ledger fails them. */
const unsent = (ledger: ResultLedger, failure: Failure): PurgeRun => {
  const { results, counts } = ledger.settle(failure)
  return notRun(results, counts)
}

/** The stages before any of them ran: nothing purged, waited for or checked. */
const nothingDone = (): Stages => ({
  purge: notRun([], countResults([])),
  wait: undefined,
  edgeCheck: undefined,
  plannedStages: []
})

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

/** A dry run: every call and every later stage as it would run; nothing sent, nothing marked. */
async function dryRun(
  calls: PurgeCall[],
  settings: Settings,
  targets: PurgeTargets,
  log: StepLog
): Promise<Stages> {
  const plannedStages = [
    settings.wait === undefined
      ? undefined
      : (await waitStage()).describeWaitPlanned(settings.wait),
    describeCheckPlanned(
      settings.edgeCheck,
      targets.urls.map((url) => url.target)
    ),
    settings.lastPurge === undefined
      ? undefined
      : (await lastPurgeMarks()).describeMarkPlanned(settings.lastPurge)
  ].filter((stage) => stage !== undefined)
  await showDryRun(calls, settings.repeatAfterMs, plannedStages, log)
  const planned = plannedResults(calls, settings.repeatAfterMs > 0)
  return {
    purge: notRun(planned, countResults(planned)),
    wait: undefined,
    edgeCheck: undefined,
    plannedStages
  }
}

/**
 * Wait until the origin serves the release, purge, then check at the edge that visitors get fresh
 * copies. No purge call is sent when the wait does not end in time.
 */
async function purgeForVisitors(
  calls: PurgeCall[],
  settings: Settings,
  { clock, signal, log, connect }: PipelineDeps,
  ledger: ResultLedger,
  stages: Stages
): Promise<void> {
  let prober: Prober | undefined
  const pages = async (): Promise<PageCheckDeps> => {
    prober ??= await connect.prober(settings)
    return { prober, clock, signal, log }
  }
  const limits = { requestTimeoutMs: settings.timeoutMs, concurrency: settings.concurrency }
  try {
    if (settings.wait !== undefined) {
      const { waitForOrigin } = await waitStage()
      stages.wait = await waitForOrigin(settings.wait, limits, await pages())
      if (!stages.wait.done) {
        const failure = stages.wait.cancelled
          ? NOT_SENT_CANCELLED
          : { ...(stages.wait.failure ?? NOT_READY), notSent: true }
        stages.purge = { ...unsent(ledger, failure), cancelled: stages.wait.cancelled }
        return
      }
    }
    const transport = connect.transport(settings)
    try {
      stages.purge = await runPurge(calls, settings, { transport, clock, signal, log }, ledger)
    } finally {
      transport.close()
    }
    const targets = edgeCheckTargetsOf(settings.edgeCheck, () => purgedUrlsOf(stages.purge.results))
    if (stages.purge.cancelled) return
    if (targets.length === 0) {
      if (settings.edgeCheck.purgedUrls) {
        log.notice(
          'verify: true, but there is nothing to check at the edge: no URL was purged and verify-urls is empty'
        )
      }
      return
    }
    const purgeStartedMs = stages.purge.firstSentMs ?? clock.now()
    const { checkEdge } = await edgeCheckStage()
    stages.edgeCheck = await checkEdge(
      { targets, purgeStartedMs, timeoutMs: settings.edgeCheck.timeoutMs },
      limits,
      await pages()
    )
  } finally {
    prober?.close()
  }
}
