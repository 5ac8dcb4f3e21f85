/** The command's table of contents: options → settings → pipeline → report → exit code. */
import { listenForCancel, systemClock } from '../clock.js'
import { constants } from 'node:os'
import { liveConnections, type PipelineDeps } from '../pipeline/connections.js'
import { runPipeline } from '../pipeline/index.js'
import { INPUT_PARTS, type RunRecord } from '../capabilities/index.js'
import { parseSettings } from '../config/parse-settings.js'
import { readListFile } from '../config/list-files.js'
import { InputError } from '../config/input-error.js'
import { conclude } from '../report/conclusion.js'
import { writeOutputs } from '../report/write-outputs.js'
import { renderSummary } from '../report/summary/index.js'
import { guardAgainst } from '../text/guard.js'
import { messageOf } from '../text/message.js'
import { readOptions, UsageError, wantsHelp, type CommandOptions } from './options.js'
import { helpText } from './help.js'
import { terminalVoice, type TerminalVoice } from './terminal-voice.js'
import { commandOutputs, outputsJson } from './kept-files.js'
import { summaryAsText } from './summary-text.js'
import { openGitHubOutside } from './github-outside.js'
import { openLocalGit } from './local-git.js'

/** Exit codes: every target purged; a target failed; the inputs refused, nothing sent. */
const PURGED = 0
const FAILED = 1
const REFUSED = 2

/** Runs the command on `args` and `env`; resolves to its exit code and whether it was cancelled. */
export async function runCommand(args: readonly string[], env: NodeJS.ProcessEnv) {
  if (wantsHelp(args)) {
    process.stdout.write(helpText(process.stdout.columns))
    return { code: 0, cancelled: false }
  }
  let options: CommandOptions
  try {
    options = readOptions(args, env)
  } catch (error) {
    // Before the tokens are known, no message quotes a value given: a usage error quotes none.
    process.stderr.write(`error: ${messageOf(error)}\n`)
    return { code: error instanceof UsageError ? REFUSED : FAILED, cancelled: false }
  }
  const guard = guardAgainst([options.raw['api-token'], options.raw['github-token']])
  const voice = terminalVoice(guard)
  const interrupt = listenForCancel(voice.log)
  let refused = false
  try {
    const readFile = (path: string) => readListFile(path, guard)
    const settings = parseSettings(options.raw, { readFile, guard, parts: INPUT_PARTS })
    // The command runs in the site's checkout: its changed files are read there, with git.
    const localGit = openLocalGit(process.cwd(), env)
    const openGitHub = openGitHubOutside(options.raw['github-token'], env, localGit)
    const deps: PipelineDeps = {
      clock: systemClock,
      signal: interrupt.signal,
      log: voice.log,
      guard,
      connect: liveConnections(options.raw['api-token']),
      openGitHub,
      localGit
    }
    const { record, finish } = await runPipeline(settings, deps)
    const resultsFile = await writeReport(record, voice, options)
    // The log, its failure included, then the summary, then where the results are: last on screen.
    conclude(record, voice)
    showReport(record, voice, resultsFile)
    await finish(resultsFile !== undefined)
  } catch (error) {
    refused = error instanceof InputError
    voice.fail(messageOf(error))
  } finally {
    interrupt.release()
  }
  const signal = interrupt.received()
  // As a shell reports a command a signal ended: 128 and the signal's number (130 after SIGINT).
  const signalled = signal === undefined ? undefined : 128 + constants.signals[signal]
  const code = signalled ?? (refused ? REFUSED : voice.failed() ? FAILED : PURGED)
  return { code, cancelled: interrupt.signal.aborted }
}

/** The outputs and their files, and `--json`: the results file, or `undefined` when not written. */
async function writeReport(record: RunRecord, voice: TerminalVoice, options: CommandOptions) {
  const { log, fail, guard } = voice
  const { outputs, writer } = commandOutputs(options.resultsFile, log, guard)
  const resultsFile = await writeOutputs(record, writer).catch((error: unknown) => {
    fail(`Could not write the outputs: ${messageOf(error)}`)
    return undefined
  })
  if (options.json) process.stdout.write(outputsJson(outputs))
  return resultsFile
}

/** The summary as text, then where the results are. */
function showReport(record: RunRecord, voice: TerminalVoice, resultsFile: string | undefined) {
  if (record.settings.summary) {
    const html = renderSummary(record, {
      resultsFile: resultsFile ?? '',
      // Not in a runner's RUNNER_TEMP: the file stays where it was written.
      resultsFileStays: true,
      context: undefined,
      guard: voice.guard
    })
    const text = summaryAsText(html, 'in the results file', process.stderr.columns ?? 120)
    voice.print(`\n${text}\n`)
  }
  if (resultsFile) voice.print(`\nResults: ${resultsFile}\n`)
}
