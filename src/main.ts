/** run(): inputs → settings → plan → execution → results → outputs, summary, exit. */
import * as core from '@actions/core'
import { createTransport } from './client.js'
import { conclude } from './conclusion.js'
import { applyChangedFiles, type Derivation } from './derivation.js'
import { executePlan, sleep, type ExecuteOptions } from './execute.js'
import { getSettings, type Settings } from './inputs.js'
import { writeOutputs } from './outputs.js'
import { describeCall, describeDerivation, describeEnd, describePlan } from './log-lines.js'
import { planPurges, type PurgeCall } from './plan.js'
import {
  countResults,
  plannedResults,
  withRepeat,
  withSources,
  type PurgeResult
} from './results.js'
import { readRunContext } from './run-context.js'
import { renderSummary } from './summary.js'

const USER_AGENT = 'edge-purge/1'

export async function run(): Promise<void> {
  try {
    const { settings, derivation } = await applyChangedFiles(getSettings())
    const calls = planPurges(settings)
    if (derivation !== undefined) showDerivation(derivation, calls.length)
    core.info(describePlan(calls, settings))
    const outcome = settings.dryRun ? showPlan(calls, settings) : await purge(calls, settings)
    const results = derivation === undefined ? outcome : withSources(outcome, derivation.sources)
    const counts = countResults(results)
    const resultsFile = await writeOutputs(results, counts, settings.services.length > 1)
    if (settings.summary) {
      const context = await readRunContext()
      const html = renderSummary({
        results,
        counts,
        services: settings.services.map((service) => service.id),
        dryRun: settings.dryRun,
        repeatAfterMs: settings.repeatAfterMs,
        derivation,
        calls: calls.length,
        resultsFile,
        context
      })
      await core.summary.addRaw(html, true).write()
    }
    conclude(results, counts, settings.failOnError)
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error))
  }
}

function showDerivation(derivation: Derivation, calls: number): void {
  const { title, lines, nothingMatched } = describeDerivation(derivation)
  core.startGroup(title)
  for (const line of lines) core.info(line)
  core.endGroup()
  if (calls === 0 && nothingMatched !== undefined) core.notice(nothingMatched)
}

function showPlan(calls: PurgeCall[], settings: Settings): PurgeResult[] {
  core.startGroup(`Dry run: ${calls.length} planned calls, none sent`)
  for (const call of calls) core.info(describeCall(call))
  if (settings.repeatAfterMs > 0) {
    core.info(`…then the same calls again after ${settings.repeatAfterMs / 1000} s (repeat-after)`)
  }
  core.endGroup()
  return plannedResults(calls, settings.repeatAfterMs > 0)
}

async function purge(calls: PurgeCall[], settings: Settings): Promise<PurgeResult[]> {
  const { apiToken } = settings
  const transport = createTransport({
    apiToken,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    userAgent: USER_AGENT
  })
  const options: ExecuteOptions = {
    concurrency: settings.concurrency,
    maxAttempts: settings.maxAttempts,
    redact: (text) => (apiToken === '' ? text : text.split(apiToken).join('***')),
    onCallEnd: (call, end, elapsedMs) => core.info(describeEnd(call, end, elapsedMs)),
    onRetry: (call, attempt, reason, waitMs) =>
      core.info(
        `↻ ${describeCall(call)}: attempt ${attempt} failed (${reason}); retrying in ${(waitMs / 1000).toFixed(1)} s`
      )
  }
  try {
    core.startGroup(`Purge calls (${calls.length}, up to ${settings.concurrency} at once)`)
    const first = await executePlan(calls, transport, options).finally(() => core.endGroup())
    if (settings.repeatAfterMs === 0) return first.flat()

    // Shielded services: an inner cache can refill the outer one with stale content during the
    // first pass, so every call that purged something is sent again once everything is done.
    const again = calls.filter((_, index) =>
      first[index]?.some((result) => result.status === 'purged')
    )
    core.info(`Waiting ${settings.repeatAfterMs / 1000} s before purging again (repeat-after)`)
    await sleep(settings.repeatAfterMs)
    core.startGroup(`Repeat purge calls (${again.length})`)
    const repeated = await executePlan(again, transport, options).finally(() => core.endGroup())
    const repeatOf = new Map(again.map((call, index) => [call, repeated[index]]))
    return withRepeat(
      first,
      calls.map((call) => repeatOf.get(call))
    )
  } finally {
    transport.close()
  }
}
