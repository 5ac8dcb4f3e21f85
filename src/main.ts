/** run(): inputs → settings → plan → engine → results → outputs, summary, exit. Wires the runner to the engine. */
import * as core from '@actions/core'
import { systemClock } from './clock.js'
import { createTransport } from './client.js'
import { conclude } from './conclusion.js'
import { counted } from './counted.js'
import { applyChangedFiles, type Derivation } from './derivation.js'
import { runPurge, type EngineLog, type PurgeRun } from './engine.js'
import { getSettings, readInputs, type Settings } from './inputs.js'
import { describeCall, describeDerivation, describePlan } from './log-lines.js'
import { writeOutputs } from './outputs.js'
import { planPurges, type PurgeCall } from './plan.js'
import {
  countResults,
  plannedResults,
  ResultLedger,
  withSources,
  type PurgeResult
} from './results.js'
import { readRunContext } from './run-context.js'
import { redactor, type Redact } from './secrets.js'
import { cut } from './server-message.js'
import { renderSummary } from './summary.js'

const USER_AGENT = 'edge-purge/1'

/** How runners cancel a job: SIGINT, then SIGTERM 7.5 s later; some have sent SIGHUP. */
const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/** Runs the action; resolves to whether the run was cancelled. */
export async function run(): Promise<boolean> {
  const cancel = new AbortController()
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
    core.setFailed(log.redact(messageOf(error)))
  } finally {
    log.closeGroups()
    for (const name of CANCEL_SIGNALS) process.off(name, onSignal)
  }
  return cancel.signal.aborted
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The step log, with every line redacted and every group it opened closed however the run ends. */
class RunnerLog implements EngineLog {
  redact: Redact = (text) => text
  private openGroups = 0

  info(line: string): void {
    core.info(this.redact(line))
  }

  startGroup(title: string): void {
    core.startGroup(this.redact(title))
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

class Cancelled extends Error {}

/** Rejects as soon as the run is cancelled, so a slow GitHub API cannot hold a cancelled job. */
function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (): void =>
      reject(new Cancelled('Cancelled before the targets were known: nothing was sent'))
    if (signal.aborted) stop()
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

async function purgeAndReport(signal: AbortSignal, log: RunnerLog): Promise<void> {
  const raw = readInputs()
  log.redact = redactor([raw['api-token'], raw['github-token']])
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
  let outcome: PurgeRun
  try {
    outcome = settings.dryRun
      ? showPlan(calls, settings, log)
      : await purge(calls, settings, { signal, log, ledger })
  } catch (error) {
    const reason = `not finished: edge-purge stopped on an unexpected error: ${cut(log.redact(messageOf(error)))}`
    core.error(reason)
    outcome = { results: ledger.fill(reason), answered: 0, cancelled: signal.aborted }
  }
  log.closeGroups()
  const results =
    derivation === undefined ? outcome.results : withSources(outcome.results, derivation.sources)
  const stopped = outcome.cancelled
    ? `Cancelled after ${outcome.answered} of ${counted(calls.length, 'call')}: the calls not answered by then are reported as failed`
    : undefined
  await report({ results, settings, derivation, calls, stopped, redact: log.redact })
  if (stopped !== undefined) core.setFailed(stopped)
}

interface Report {
  results: PurgeResult[]
  settings: Settings
  derivation: Derivation | undefined
  calls: PurgeCall[]
  stopped: string | undefined
  redact: Redact
}

/** Outputs, results file, summary and conclusion; a failure in one does not stop the others. */
async function report({
  results,
  settings,
  derivation,
  calls,
  stopped,
  redact
}: Report): Promise<void> {
  const counts = countResults(results)
  let resultsFile = ''
  try {
    resultsFile = await writeOutputs(results, counts, settings.services.length > 1, redact)
  } catch (error) {
    core.setFailed(`Could not write the outputs: ${redact(messageOf(error))}`)
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
        stopped
      })
      await core.summary.addRaw(redact(html), true).write()
    } catch (error) {
      core.setFailed(`Could not write the job summary: ${redact(messageOf(error))}`)
    }
  }
  conclude(results, counts, settings.failOnError)
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
  log.endGroup()
  return {
    results: plannedResults(calls, settings.repeatAfterMs > 0),
    answered: 0,
    cancelled: false
  }
}

async function purge(
  calls: PurgeCall[],
  settings: Settings,
  { signal, log, ledger }: { signal: AbortSignal; log: RunnerLog; ledger: ResultLedger }
): Promise<PurgeRun> {
  const transport = createTransport({
    apiToken: settings.apiToken,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    userAgent: USER_AGENT
  })
  try {
    return await runPurge(
      calls,
      settings,
      { transport, clock: systemClock, signal, log, redact: log.redact },
      ledger
    )
  } finally {
    transport.close()
  }
}
