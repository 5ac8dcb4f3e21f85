/** run(): inputs → settings → plan → execution → results → outputs, summary, exit. */
import * as core from '@actions/core'
import { createTransport } from './client.js'
import { conclude } from './conclusion.js'
import { executePlan } from './execute.js'
import { getSettings, type Settings } from './inputs.js'
import { writeOutputs } from './outputs.js'
import { describeCall, describeEnd, describePlan } from './log-lines.js'
import { planPurges, type PurgeCall } from './plan.js'
import { countResults, plannedResults, type PurgeResult } from './results.js'
import { readRunContext } from './run-context.js'
import { renderSummary } from './summary.js'

const USER_AGENT = 'edge-purge/1'

export async function run(): Promise<void> {
  try {
    const settings = getSettings()
    const calls = planPurges(settings)
    core.info(describePlan(calls, settings))
    const results = settings.dryRun ? showPlan(calls) : await purge(calls, settings)
    const counts = countResults(results)
    const resultsFile = await writeOutputs(results, counts)
    if (settings.summary) {
      const context = await readRunContext()
      const html = renderSummary({
        results,
        counts,
        service: settings.service?.id,
        dryRun: settings.dryRun,
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

function showPlan(calls: PurgeCall[]): PurgeResult[] {
  core.startGroup(`Dry run: ${calls.length} planned calls, none sent`)
  for (const call of calls) core.info(describeCall(call))
  core.endGroup()
  return plannedResults(calls)
}

async function purge(calls: PurgeCall[], settings: Settings): Promise<PurgeResult[]> {
  const { apiToken } = settings
  const transport = createTransport({
    apiToken,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    userAgent: USER_AGENT
  })
  core.startGroup(`Purge calls (${calls.length}, up to ${settings.concurrency} at once)`)
  try {
    return await executePlan(calls, transport, {
      concurrency: settings.concurrency,
      maxAttempts: settings.maxAttempts,
      redact: (text) => (apiToken === '' ? text : text.split(apiToken).join('***')),
      onCallEnd: (call, end, elapsedMs) => core.info(describeEnd(call, end, elapsedMs)),
      onRetry: (call, attempt, reason, waitMs) =>
        core.info(
          `↻ ${describeCall(call)}: attempt ${attempt} failed (${reason}); retrying in ${(waitMs / 1000).toFixed(1)} s`
        )
    })
  } finally {
    core.endGroup()
    transport.close()
  }
}
