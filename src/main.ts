/** run(): inputs → settings → plan → engine → results → outputs, summary, exit. Wires the runner to the engine. */
import * as core from '@actions/core'
import { setMaxListeners } from 'node:events'
import { systemClock } from './clock.js'
import { createTransport } from './stages/purge/transport.js'
import { conclude } from './report/conclusion.js'
import { counted } from './text/counted.js'
import { applyChangedFiles, type Derivation } from './stages/changed-files/index.js'
import { runPurge, type EngineLog, type PurgeRun } from './stages/purge/engine.js'
import { getSettings, readInputs, type Settings } from './config/inputs.js'
import { describeCall, describeDerivation, describePlan } from './stages/purge/log-lines.js'
import { writeOutputs, writeStageOutputs } from './report/outputs.js'
import { planPurges, type PurgeCall } from './stages/plan.js'
import {
  countResults,
  plannedResults,
  NOT_SENT_CANCELLED,
  ResultLedger,
  withSources,
  type PurgeResult
} from './record.js'
import { readRunContext } from './runner/context.js'
import { describeStagesPlanned, purgedUrlsOf, verifyTargetsOf } from './stages/verify/targets.js'
import { createProber } from './http/probe.js'
import { verifyFreshness, type VerifyRun } from './stages/verify/edge-check.js'
import { waitForOrigin, type WaitOutcome } from './stages/wait.js'
import { hideSecrets, oneLine, redact } from './text/guard.js'
import { cut } from './stages/purge/server-message.js'
import { renderSummary } from './report/summary.js'

const USER_AGENT = 'edge-purge/1'

/** How runners cancel a job: SIGINT, then SIGTERM 7.5 s later; some have sent SIGHUP. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** Runs the action; resolves to whether the run was cancelled. */
export async function run(): Promise<boolean> {
  const cancel = new AbortController()
  // Every call, probe and wait in flight listens for the cancel: more than Node's default of 10.
  setMaxListeners(0, cancel.signal)
  const onSignal = (name: NodeJS.Signals): void => {
    if (cancel.signal.aborted) return
    core.info(
      `Received ${name}: cancelling. No new purge call starts; calls in flight are abandoned.`
    )
    cancel.abort()
  }
  for (const name of CANCEL_SIGNALS) process.on(name, onSignal)
  const log = new RunnerLog()
  try {
    await purgeAndReport(cancel.signal, log)
  } catch (error) {
    core.setFailed(redact(messageOf(error)))
  } finally {
    log.closeGroups()
    for (const name of CANCEL_SIGNALS) process.off(name, onSignal)
  }
  return cancel.signal.aborted
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** URLs are the user's own, validated: shown whole up to a length no real URL reaches. */
const SHOWN_URL_CHARS = 2000

/** Longer than any line the action writes: the guard below only cuts what went wrong upstream. */
const MAX_LOG_LINE_CHARS = 8000

/**
 * The step log. Every line passes the guard once more as a whole (its outside pieces already
 * did), so no line can hold a secret, break in two or read as a runner command; every group it
 * opened is closed however the run ends.
 */
class RunnerLog implements EngineLog {
  private openGroups = 0

  info(line: string): void {
    core.info(oneLine(line, MAX_LOG_LINE_CHARS))
  }

  startGroup(title: string): void {
    core.startGroup(oneLine(title, MAX_LOG_LINE_CHARS))
    this.openGroups += 1
  }

  endGroup(): void {
    if (this.openGroups === 0) return
    core.endGroup()
    this.openGroups -= 1
  }

  closeGroups(): void {
    while (this.openGroups > 0) this.endGroup()
  }
}

/** Rejects as soon as the run is cancelled, so a slow GitHub API cannot hold a cancelled job. */
function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (): void =>
      reject(new Error('Cancelled before the targets were known: nothing was sent'))
    if (signal.aborted) stop()
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

async function purgeAndReport(signal: AbortSignal, log: RunnerLog): Promise<void> {
  const raw = readInputs()
  // Before any outside text is read: from here the guard hides every spelling of both tokens.
  hideSecrets([raw['api-token'], raw['github-token']])
  // Input errors, the GitHub API and planning fail the step before anything is sent or set.
  const { settings, derivation } = await unlessCancelled(
    applyChangedFiles(getSettings(raw)),
    signal
  )
  const calls = planPurges(settings)
  if (derivation !== undefined) showDerivation(derivation, calls.length, log)
  log.info(describePlan(calls, settings))

  // From here every target is known: whatever happens, each one is reported exactly once.
  const ledger = new ResultLedger(calls)
  let stages: Stages = { outcome: notRun(), wait: undefined, verification: undefined }
  try {
    stages = settings.dryRun
      ? { ...stages, outcome: showPlan(calls, settings, log) }
      : await purgeForVisitors(calls, settings, { signal, log, ledger })
  } catch (error) {
    const reason = `not finished: edge-purge stopped on an unexpected error: ${cut(messageOf(error))}`
    core.error(reason)
    stages.outcome = { ...notRun(), results: ledger.fill(reason), cancelled: signal.aborted }
  }
  log.closeGroups()
  const { outcome, wait, verification } = stages
  const results =
    derivation === undefined ? outcome.results : withSources(outcome.results, derivation.sources)
  const stopped = stoppedBy(stages, calls.length)
  await report({
    results,
    settings,
    derivation,
    calls,
    stopped,
    wait,
    verification
  })
  if (stopped !== undefined) core.setFailed(stopped)
}

const notRun = (): PurgeRun => ({
  results: [],
  answered: 0,
  cancelled: false,
  firstSentMs: undefined
})

interface Stages {
  outcome: PurgeRun
  wait: WaitOutcome | undefined
  verification: VerifyRun | undefined
}

/** Why the run ended early, when a cancel ended it. */
function stoppedBy({ outcome, wait, verification }: Stages, calls: number): string | undefined {
  if (wait?.cancelled === true) {
    return 'Cancelled while waiting for the origin: no purge call was sent'
  }
  if (outcome.cancelled) {
    return `Cancelled after ${outcome.answered} of ${counted(calls, 'call')}: the calls not answered by then are reported as failed`
  }
  if (verification?.cancelled === true) {
    return 'Cancelled during the edge check: the URLs not judged by then are reported as not fresh'
  }
  return undefined
}

interface Report {
  results: PurgeResult[]
  settings: Settings
  derivation: Derivation | undefined
  calls: PurgeCall[]
  stopped: string | undefined
  wait: WaitOutcome | undefined
  /** `undefined` when nothing was checked at the edge. */
  verification: VerifyRun | undefined
}

/**
 * Outputs, results file, summary and conclusion. Each writer stands alone: one that fails says so
 * and the others still write, so a purge that happened is never reported as lost.
 */
async function report(facts: Report): Promise<void> {
  const { results, settings, derivation, calls, stopped, wait, verification } = facts
  const counts = countResults(results)
  const failure = (what: string, error: unknown): void =>
    core.setFailed(`Could not write ${what}: ${redact(messageOf(error))}`)
  let resultsFile = ''
  try {
    resultsFile = await writeOutputs(results, counts, settings.services.length > 1)
  } catch (error) {
    failure('the outputs', error)
  }
  try {
    await writeStageOutputs(verification?.entries, wait?.elapsedMs)
  } catch (error) {
    failure('the edge check outputs', error)
  }
  if (settings.summary) {
    try {
      const context = await readRunContext().catch(() => undefined)
      const html = renderSummary({
        results,
        counts,
        services: settings.services.map((service) => service.id),
        dryRun: settings.dryRun,
        repeatAfterMs: settings.repeatAfterMs,
        derivation,
        calls: calls.length,
        resultsFile,
        context,
        stopped,
        plannedStages: settings.dryRun ? describeStagesPlanned(settings) : [],
        wait:
          wait === undefined || settings.wait === undefined
            ? undefined
            : { ...settings.wait, outcome: wait },
        edgeCheck:
          verification === undefined
            ? undefined
            : {
                entries: verification.entries,
                textUrls: settings.verify.text === undefined ? [] : settings.verify.urls,
                malformedAge: verification.malformedAge
              }
      })
      // Every outside piece of it passed the guard, which hides secrets before it escapes.
      await core.summary.addRaw(html, true).write()
    } catch (error) {
      failure('the job summary', error)
    }
  }
  conclude(results, counts, {
    failOnError: settings.failOnError,
    verification: verification?.entries ?? []
  })
}

function showDerivation(derivation: Derivation, calls: number, log: EngineLog): void {
  const { title, lines, nothingMatched } = describeDerivation(derivation)
  log.startGroup(title)
  for (const line of lines) log.info(line)
  log.endGroup()
  if (calls === 0 && nothingMatched !== undefined) core.notice(nothingMatched)
}

function showPlan(calls: PurgeCall[], settings: Settings, log: EngineLog): PurgeRun {
  log.startGroup(`Dry run: ${counted(calls.length, 'planned call')}, none sent`)
  for (const call of calls) log.info(describeCall(call))
  if (settings.repeatAfterMs > 0) {
    log.info(`…then the same calls again after ${settings.repeatAfterMs / 1000} s (repeat-after)`)
  }
  for (const { sentence, urls } of describeStagesPlanned(settings)) {
    log.info(sentence)
    for (const url of urls) log.info(`• ${oneLine(url, SHOWN_URL_CHARS)}`)
  }
  log.endGroup()
  return { ...notRun(), results: plannedResults(calls, settings.repeatAfterMs > 0) }
}

interface RunDeps {
  signal: AbortSignal
  log: RunnerLog
  ledger: ResultLedger
}

/**
 * Wait until the origin serves the release, purge, then check at the edge that visitors get fresh
 * copies. No purge call is sent when the wait does not end in time.
 */
async function purgeForVisitors(
  calls: PurgeCall[],
  settings: Settings,
  { signal, log, ledger }: RunDeps
): Promise<Stages> {
  const prober = createProber({ userAgent: USER_AGENT, concurrency: settings.concurrency })
  const deps = { prober, clock: systemClock, signal, log }
  const requests = { requestTimeoutMs: settings.timeoutMs, concurrency: settings.concurrency }
  try {
    const wait =
      settings.wait === undefined
        ? undefined
        : await waitForOrigin({ ...settings.wait, ...requests }, deps)
    if (wait !== undefined && !wait.done) {
      const reason = wait.cancelled
        ? NOT_SENT_CANCELLED
        : `not sent: ${wait.failure ?? 'the origin was not ready'}`
      const outcome = { ...notRun(), results: ledger.fill(reason), cancelled: wait.cancelled }
      return { outcome, wait, verification: undefined }
    }
    const outcome = await purge(calls, settings, { signal, log, ledger })
    const targets = verifyTargetsOf(settings.verify, purgedUrlsOf(outcome.results))
    if (targets.length === 0 || outcome.cancelled) {
      if (settings.verify.purgedUrls && !outcome.cancelled) {
        core.notice(
          'verify: true, but there is nothing to check at the edge: no URL was purged and verify-urls is empty'
        )
      }
      return { outcome, wait, verification: undefined }
    }
    const verification = await verifyFreshness(
      {
        targets,
        purgeStartedMs: outcome.firstSentMs ?? systemClock.now(),
        timeoutMs: settings.verify.timeoutMs,
        ...requests
      },
      deps
    )
    return { outcome, wait, verification }
  } finally {
    prober.close()
  }
}

async function purge(
  calls: PurgeCall[],
  settings: Settings,
  { signal, log, ledger }: RunDeps
): Promise<PurgeRun> {
  const transport = createTransport({
    apiToken: settings.apiToken,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    userAgent: USER_AGENT
  })
  try {
    return await runPurge(calls, settings, { transport, clock: systemClock, signal, log }, ledger)
  } finally {
    transport.close()
  }
}
