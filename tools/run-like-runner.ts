/** Runs the bundled action as the GitHub runner does: INPUT_* variables, output and summary files, exit code. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import type { AssetEntry, EdgeCheckEntry } from '../src/capabilities/edge-check/record.js'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ENTRY = join(ROOT, 'dist', 'index.js')
/**
 * The node that runs the action. EDGE_PURGE_NODE lets .ci/run spawn it with the runner's Node 24
 * while jest itself stays on the machine's Node.
 */
const NODE = process.env.EDGE_PURGE_NODE || process.execPath

/** The version of the node that runs the action (`v24.21.0`), for a report that names it. */
export function actionNodeVersion(): string {
  return execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()
}

interface ActionYml {
  inputs: Record<string, { default?: string }>
}

export async function declaredInputs(): Promise<Record<string, { default?: string }>> {
  const yml = parse(await readFile(join(ROOT, 'action.yml'), 'utf8')) as ActionYml
  return yml.inputs
}

/** The `GITHUB_*` variables the runner always sets, fixed: the summary's run context comes from them. */
export const RUN_CONTEXT_ENV = {
  GITHUB_REPOSITORY: 'acme/site',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_EVENT_NAME: 'push',
  GITHUB_WORKFLOW: 'Deploy',
  GITHUB_RUN_ID: '1',
  GITHUB_RUN_NUMBER: '1',
  GITHUB_SERVER_URL: 'https://github.com'
}

export interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** Lines the runner would show: everything printed, both streams. */
  log: string
  dir: string
  /** From spawning node to its exit. */
  elapsedMs: number
  /** performance.now() just before the spawn: where the run's timeline starts (the bench's). */
  startedAt: number
}

/** Parses the runner's `name<<DELIMITER ... DELIMITER` output file format. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index += 1) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[index] ?? '')
    if (match === null) continue
    const [, name, delimiter] = match
    const value: string[] = []
    for (index += 1; index < lines.length && lines[index] !== delimiter; index += 1)
      value.push(lines[index] ?? '')
    outputs[name ?? ''] = value.join('\n')
  }
  return outputs
}

/**
 * Every declared input is set, to the given value or its action.yml default or '', as the runner does.
 * `env` adds variables (e.g. GITHUB_REPOSITORY); `files` are written into the run's directory first.
 */
export interface RunOptions {
  env?: Record<string, string>
  files?: Record<string, string>
  /** Another entry point launched the same way (benchmarks: an empty action). */
  entry?: string
  /** Flags for node before the entry (benchmarks: a preload that reports peak memory). */
  nodeArgs?: string[]
  /** Called once the process is started, e.g. to send it a signal as the runner does on cancel. */
  onStart?: (child: ChildProcess) => void
  /**
   * Where the action runs, as the runner runs it in the workspace (relative paths in inputs and
   * GITHUB_EVENT_PATH start there); default: the run's directory.
   */
  cwd?: string
}

/** Every run's directory (inputs, output files, RUNNER_TEMP), removed by `removeRunDirs`. */
const runDirs = new Set<string>()

/** Removes the directories of the runs made so far: jest calls it after each test file. */
export async function removeRunDirs(): Promise<void> {
  await Promise.all([...runDirs].map((dir) => rm(dir, { recursive: true, force: true })))
  runDirs.clear()
}

/** Where a run's files are: its directory (also RUNNER_TEMP), the output file and the summary file. */
interface RunPaths {
  dir: string
  outputFile: string
  summaryFile: string
}

/** A new run directory with empty output and summary files, and `files` written into it. */
async function prepareRunDir(files: Record<string, string> = {}): Promise<RunPaths> {
  const dir = await mkdtemp(join(tmpdir(), 'edge-purge-run-'))
  runDirs.add(dir)
  const outputFile = join(dir, 'output.txt')
  const summaryFile = join(dir, 'summary.md')
  await writeFile(outputFile, '')
  await writeFile(summaryFile, '')
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content)
  return { dir, outputFile, summaryFile }
}

/** The runner's variables, then `extra`, then every declared input, as `INPUT_<NAME>`. */
function runnerEnv(
  paths: RunPaths,
  declared: Record<string, { default?: string }>,
  inputs: Record<string, string>,
  extra: Record<string, string> = {}
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_OUTPUT: paths.outputFile,
    GITHUB_STEP_SUMMARY: paths.summaryFile,
    RUNNER_TEMP: paths.dir,
    ...extra
  }
  for (const [name, spec] of Object.entries(declared)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = inputs[name] ?? spec.default ?? ''
  }
  return env
}

export async function runAction(
  inputs: Record<string, string>,
  options: RunOptions = {}
): Promise<ActionRun> {
  const declared = await declaredInputs()
  for (const name of Object.keys(inputs)) {
    if (!(name in declared)) throw new Error(`test uses undeclared input ${name}`)
  }
  const paths = await prepareRunDir(options.files)
  const env = runnerEnv(paths, declared, inputs, options.env)

  const started = performance.now()
  const child = spawn(NODE, [...(options.nodeArgs ?? []), options.entry ?? ENTRY], {
    cwd: options.cwd ?? paths.dir,
    env
  })
  options.onStart?.(child)
  let stdout = ''
  let stderr = ''
  let log = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    log += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    log += chunk.toString()
  })
  // A wrong EDGE_PURGE_NODE fails the spawn: reject with its error instead of an unhandled 'error'.
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const elapsedMs = performance.now() - started
  return {
    code,
    elapsedMs,
    startedAt: started,
    stdout,
    stderr,
    log,
    dir: paths.dir,
    outputs: parseOutputFile(await readFile(paths.outputFile, 'utf8')),
    summary: await readFile(paths.summaryFile, 'utf8')
  }
}

export interface ResultEntry {
  type: string
  target: string
  service: string | null
  soft: boolean
  status: string
  id: string | null
  http_status: number | null
  attempts: number
  error: string | null
  repeat?: { status: string; id: string | null; attempts: number } | null
  source?: 'input' | 'changed-files'
  file?: string | null
}

export function resultsOf(run: ActionRun): ResultEntry[] {
  return JSON.parse(run.outputs.results ?? '[]') as ResultEntry[]
}

/** One entry of the `verification` output, as a workflow reads it: the action's own type. */
export type VerificationEntry = EdgeCheckEntry

export function verificationOf(run: ActionRun): VerificationEntry[] {
  const text = run.outputs.verification ?? ''
  return text === '' ? [] : (JSON.parse(text) as VerificationEntry[])
}

/** One entry of the file `assets-file` names (verify-assets): a file a checked page loads. */
export type AssetsFileEntry = AssetEntry

/** The entries of the run's `assets-file`; none when the output is unset or empty. */
export async function assetsFileOf(run: ActionRun): Promise<AssetsFileEntry[]> {
  const path = run.outputs['assets-file'] ?? ''
  return path === '' ? [] : (JSON.parse(await readFile(path, 'utf8')) as AssetsFileEntry[])
}
