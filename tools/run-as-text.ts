/**
 * A run of the bundled action as text for the terminal, as `npm run demo` and `npm run action`
 * print it: the log as the runner shows it for the step, and the job summary rendered.
 */
import { join } from 'node:path'
import type { ActionRun } from './run-like-runner.js'
import { summaryAsText } from '../src/cli/summary-text.js'

/**
 * A workflow command, `::name key=value,…::data`, which the runner obeys instead of showing; the
 * action writes them only through @actions/core, each on a line of its own.
 */
const COMMAND = /^::([A-Za-z-]+)(?: [^:]*)?::(.*)$/
/** What the runner shows an annotation as, in the step log. */
const ANNOTATIONS = new Map([
  ['error', 'Error'],
  ['warning', 'Warning'],
  ['notice', 'Notice']
])

/** A command's data as @actions/core escaped it (`%25`, `%0D`, `%0A`), back to its text. */
function unescapeData(data: string): string {
  return data.replace(/%(25|0D|0A)/g, (_, code: string) =>
    code === '25' ? '%' : code === '0D' ? '\r' : '\n'
  )
}

/**
 * The log as the runner shows it: `add-mask` hides its value as *** from then on and shows nothing,
 * `group` is a heading (▾, folded on GitHub) with its lines indented until `endgroup`, an error,
 * warning or notice reads `Error: message`, and `debug` (shown only with step debug logging) and
 * any other command show nothing.
 */
function asTheRunnerShows(log: string): string {
  const masks: string[] = []
  const shown: string[] = []
  let indent = ''
  const show = (line: string): void => {
    const masked = masks.reduce((text, mask) => text.split(mask).join('***'), line)
    shown.push(masked === '' ? '' : `${indent}${masked}`)
  }
  for (const line of log.replace(/\n$/, '').split('\n')) {
    const command = COMMAND.exec(line)
    if (command === null) {
      show(line)
      continue
    }
    const [, name = '', data = ''] = command
    const text = unescapeData(data)
    if (name === 'add-mask') {
      if (text !== '') masks.push(text)
    } else if (name === 'group') {
      // The runner does not nest groups: a group ends where the next one starts.
      indent = ''
      show(`▾ ${text}`)
      indent = '  '
    } else if (name === 'endgroup') {
      indent = ''
    } else if (ANNOTATIONS.has(name)) {
      for (const part of `${ANNOTATIONS.get(name)}: ${text}`.split(/\r?\n/)) show(part)
    }
  }
  return `${shown.join('\n')}\n`
}

/** A heading line that stands out in a terminal. */
export function section(title: string): void {
  console.log(`\n━━ ${title} ${'━'.repeat(Math.max(3, 76 - title.length))}\n`)
}

/** The action's log as the runner shows it, under a heading. */
export function printLog(run: ActionRun): void {
  section('The action’s log, as the runner shows it for the step')
  process.stdout.write(asTheRunnerShows(run.log))
}

/**
 * The job summary rendered for the terminal, under a heading, and where its Markdown is unless
 * `kept` is false: the run's folder is removed, and the path would lead nowhere.
 */
export function printSummary(run: ActionRun, { kept = true }: { kept?: boolean } = {}): void {
  section('The job summary')
  console.log(
    summaryAsText(run.summary, 'in the Markdown file named below', process.stdout.columns ?? 120)
  )
  if (kept) console.log(`\nMarkdown written by the action: ${join(run.dir, 'summary.md')}`)
}
