/**
 * npm run action [-- --input NAME=VALUE ... --env-file FILE ... --help]
 *
 * Runs the bundled dist/index.js as the GitHub runner does (tools/run-like-runner.ts): every input
 * as `INPUT_<NAME>`, from --input, else from the env files, else its action.yml default; a fresh
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP for each run, in a folder of its own that is
 * removed when the run ends (--keep keeps it). Then prints the action's log as the runner shows
 * it, its outputs, and its job summary as text (tools/run-as-text.ts), and exits with the action's
 * exit code. A Ctrl-C cancels the action as the runner cancels a job, and the folder still goes.
 *
 * Env files are in the format of .env.example (read with Node's util.parseEnv): inputs as
 * `INPUT_API-TOKEN=...`, any other variable (GITHUB_API_URL, GITHUB_EVENT_PATH, ...) passed to the
 * action as it is; a later file wins over an earlier one, and --input over both. The action runs
 * in the directory the command was started from (npm's INIT_CWD), as the runner runs it in the
 * workspace, so relative paths (keys-file, GITHUB_EVENT_PATH) mean what they say there.
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { cut } from '../src/text/cut.js'
import { CommandLine } from '../tools/command-line.js'
import { printLog, printSummary, section } from '../tools/run-as-text.js'
import {
  declaredInputs,
  removeRunDirs,
  runAction,
  type ActionRun
} from '../tools/run-like-runner.js'

const USAGE = `Usage: npm run action -- [--input NAME=VALUE ...] [--env-file FILE ...]

Runs the bundled action (dist/index.js) as the GitHub runner does, prints its log, its outputs and
its job summary as text, and exits with the action's exit code.

Options:
  --input NAME=VALUE  an input by its name in action.yml (keys, base-url, ...); repeat for more
  --env-file FILE     variables as NAME=value lines, inputs as INPUT_<NAME> (see .env.example);
                      repeat for more, a later file winning; --input wins over them
  --keep              keep the run's folder and name it: every output in full, the job
                      summary's Markdown, results-file
  -h, --help          show this help

An input given neither way takes its action.yml default; github-token's, \${{ github.token }}, is
the runner's to fill: here it is empty. Each run has its own output and summary files and
RUNNER_TEMP, in a folder removed when the run ends: the files' GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
and RUNNER_TEMP are not used.`

/** The runner's own files for the step, which each run gets fresh. */
const RUN_FILES = new Set(['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'RUNNER_TEMP'])
/** How the runner cancels a job, passed on to the action. */
const CANCEL_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
/** An output longer than this is shown cut, and whole in the output file. */
const SHOWN_OUTPUT_CHARS = 100

const commandLine: CommandLine = new CommandLine('action', USAGE)
const args = commandLine.parse({
  input: { type: 'string', multiple: true, default: [] },
  'env-file': { type: 'string', multiple: true, default: [] },
  keep: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false }
})
/** Where `npm run` was started: it runs the script in the package's root. */
const workspace = process.env.INIT_CWD ?? process.cwd()
const declared = await declaredInputs()
const variableOf = (input: string): string => `INPUT_${input.replace(/ /g, '_').toUpperCase()}`
const inputOf = new Map(Object.keys(declared).map((name) => [variableOf(name), name]))

/** The variables of the env files, in order: a later file's value wins. */
function readEnvFiles(paths: string[]): Record<string, string> {
  const variables: Record<string, string> = {}
  for (const path of paths) {
    let text: string
    try {
      text = readFileSync(resolve(workspace, path), 'utf8')
    } catch (error) {
      return commandLine.usageError(`cannot read --env-file ${path}: ${errorCode(error)}`)
    }
    Object.assign(variables, parseEnv(text))
  }
  return variables
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? String(error)

/** The inputs and the other variables, from the env files and then the --input flags. */
function runSettings(): { inputs: Record<string, string>; env: Record<string, string> } {
  const inputs: Record<string, string> = {}
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(readEnvFiles(args['env-file']))) {
    if (!name.startsWith('INPUT_')) {
      if (!RUN_FILES.has(name)) env[name] = value
      continue
    }
    const input = inputOf.get(name)
    if (input === undefined)
      commandLine.usageError(`${name} in an env file is no input of action.yml`)
    inputs[input] = value
  }
  for (const flag of args.input) {
    const [name = '', ...rest] = flag.split('=')
    if (rest.length === 0) commandLine.usageError(`--input ${flag}: give it as NAME=VALUE`)
    if (!(name in declared)) commandLine.usageError(`--input ${name}: action.yml has no such input`)
    inputs[name] = rest.join('=')
  }
  for (const [name, spec] of Object.entries(declared)) {
    // An expression (`${{ github.token }}`) only the runner can evaluate.
    if (!(name in inputs) && spec.default?.includes('${{') === true) inputs[name] = ''
  }
  return { inputs, env }
}

/** Each output set, one line each, long ones but paths cut: the output file holds them whole. */
function printOutputs(run: ActionRun): void {
  section('The outputs')
  const set = Object.entries(run.outputs).filter(([, value]) => value !== '')
  for (const [name, value] of set) {
    if (name.endsWith('-file')) {
      console.log(`${name}: ${value}`)
      continue
    }
    const shown = cut([...value.replace(/\n/g, ' ')], SHOWN_OUTPUT_CHARS)
    const length = value.length > SHOWN_OUTPUT_CHARS ? ` (${value.length} characters)` : ''
    console.log(`${name}: ${shown}${length}`)
  }
  const empty = Object.keys(run.outputs).filter((name) => run.outputs[name] === '')
  if (empty.length > 0) console.log(`empty: ${empty.join(', ')}`)
  if (args.keep) console.log(`\nEvery output in full: ${resolve(run.dir, 'output.txt')}`)
}

/** Where the run's files are, or that they are gone, and how to keep them. */
function printRunFolder(run: ActionRun): void {
  if (args.keep) {
    console.log(`\nThis run's folder, kept: ${run.dir} (remove it with rm -r when done)`)
    return
  }
  console.log(
    "\nThis run's folder (every output in full, the summary's Markdown, results-file) is removed" +
      ' now; --keep keeps it.'
  )
}

const { inputs, env } = runSettings()
let action: ChildProcess | undefined
// A Ctrl-C reaches the action too; a kill of this script alone is passed on. Either way the action
// ends as a cancelled run, and this script lives on to remove the run's folder.
for (const name of CANCEL_SIGNALS) process.on(name, () => action?.kill(name))
try {
  const onStart = (child: ChildProcess): void => {
    action = child
  }
  const run = await runAction(inputs, { env, cwd: workspace, onStart })
  printLog(run)
  printOutputs(run)
  printSummary(run, { kept: args.keep })
  printRunFolder(run)
  section(`The action exited ${run.code ?? 'on a signal'}`)
  process.exitCode = run.code ?? 1
} finally {
  if (!args.keep) await removeRunDirs()
}
