/** The entry: the runner door → inputs → pipeline → report → what stays open → exit. The table of contents of the action. */
import { listenForCancel, mark, systemClock } from './clock.js'
import { liveConnections, type PipelineDeps } from './pipeline/connections.js'
import { runPipeline } from './pipeline/index.js'
import { INPUT_PARTS, type RunRecord } from './capabilities/index.js'
import { conclude } from './report/conclusion.js'
import { writeOutputs } from './report/write-outputs.js'
import { renderSummary } from './report/summary/index.js'
import { readRunContext } from './runner/context.js'
import { openGitHub } from './runner/open-github.js'
import { readSettings, readTokens } from './runner/step-inputs.js'
import { runnerVoice, type Voice } from './runner/voice.js'
import { runnerOutputs } from './runner/step-outputs.js'
import { writeSummary } from './runner/job-summary.js'
import { messageOf } from './text/message.js'

/** Runs the action; resolves to whether the run was cancelled. */
export async function run(): Promise<boolean> {
  mark('start')
  const { tokens, guard } = readTokens()
  const voice = runnerVoice(guard)
  const cancel = listenForCancel(voice.log)
  try {
    const settings = readSettings(tokens, voice, INPUT_PARTS)
    mark('inputs')
    const deps: PipelineDeps = {
      clock: systemClock,
      signal: cancel.signal,
      log: voice.log,
      guard,
      connect: liveConnections(tokens.api),
      openGitHub: openGitHub(tokens.github)
    }
    const { record, finish } = await runPipeline(settings, deps)
    mark('calls')
    await finish(await report(record, voice))
    conclude(record, voice)
  } catch (error) {
    voice.fail(messageOf(error))
  } finally {
    cancel.release()
  }
  return cancel.signal.aborted
}

/** Outputs, then summary, each standing alone so one that fails loses no other: both written? */
async function report(record: RunRecord, { log, fail, guard }: Voice): Promise<boolean> {
  const failed = (what: string) => (error: unknown) =>
    void fail(`Could not write the ${what}: ${messageOf(error)}`)
  const resultsFile = await writeOutputs(record, runnerOutputs(log, guard)).catch(failed('outputs'))
  mark('outputs')
  // The runner deletes RUNNER_TEMP, and the results file in it, with the job: it does not stay.
  const setting = { resultsFile: resultsFile ?? '', context: readRunContext(), guard }
  const render = (): string => renderSummary(record, { ...setting, resultsFileStays: false })
  const summary =
    !record.settings.summary || (await writeSummary(render).then(() => true, failed('job summary')))
  mark('summary')
  return resultsFile !== undefined && summary === true
}
