/** The entry: the runner door → inputs → pipeline → report → exit. The table of contents of the action. */
import { mark, systemClock } from './clock.js'
import { liveConnections, runPipeline } from './pipeline.js'
import type { RunRecord } from './record.js'
import { conclude } from './report/conclusion.js'
import { ResultViews, writeOutputs } from './report/outputs.js'
import { renderSummary } from './report/summary.js'
import { readRunContext } from './runner/context.js'
import { openGitHub } from './runner/github.js'
import { readSettings } from './runner/inputs.js'
import { failStep, runnerLog } from './runner/log.js'
import { runnerOutputs } from './runner/outputs.js'
import { listenForCancel } from './runner/signals.js'
import { writeSummary } from './runner/summary.js'
import { messageOf } from './text/message.js'

/** Runs the action; resolves to whether the run was cancelled. */
export async function run(): Promise<boolean> {
  mark('start')
  const cancel = listenForCancel(runnerLog)
  try {
    const settings = readSettings()
    mark('inputs')
    const views = new ResultViews(runnerOutputs)
    const record = await runPipeline(settings, {
      clock: systemClock,
      signal: cancel.signal,
      log: runnerLog,
      connect: liveConnections,
      openGitHub,
      onResults: views.start
    })
    mark('calls')
    await report(record, views)
  } catch (error) {
    failStep(messageOf(error))
  } finally {
    cancel.release()
  }
  return cancel.signal.aborted
}

/** Outputs, summary, conclusion: each writer stands alone, so one that fails loses no other. */
async function report(record: RunRecord, views: ResultViews): Promise<void> {
  const resultsFile = await writeOutputs(record, runnerOutputs, views).catch((error: unknown) => {
    failStep(`Could not write the outputs: ${messageOf(error)}`)
    return ''
  })
  mark('outputs')
  if (record.settings.summary) {
    const html = renderSummary(record, { resultsFile, context: readRunContext() })
    await writeSummary(html).catch((error: unknown) => {
      failStep(`Could not write the job summary: ${messageOf(error)}`)
    })
  }
  mark('summary')
  conclude(record, { log: runnerLog, fail: failStep })
}
