/**
 * Outputs and kept files for the command: each output kept for `--json`, the results file where
 * `--results-file` says (or a new one in the system's temporary folder), the others beside it.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'
import { writeWhole } from '../report-kit/whole-file.js'

/** Where each kind of file goes: `results` at `resultsFile`, `verification` beside it. */
function pathOf(kind: string, resultsFile: string): string {
  if (kind === 'results') return resultsFile
  const stem = basename(resultsFile).replace(/\.json$/, '')
  return join(dirname(resultsFile), `${stem}-${kind}.json`)
}

/** What the report is handed to write the outputs, and the outputs it set, by name. */
export function commandOutputs(resultsFile: string | undefined, log: StepLog, guard: Guard) {
  const results = resultsFile ?? join(tmpdir(), `edge-purge-results-${randomUUID()}.json`)
  const outputs = new Map<string, string>()
  return {
    outputs,
    writer: {
      keepFile: (kind: string, chunks: Iterable<string>) =>
        writeWhole(pathOf(kind, results), chunks),
      readKept: (path: string): string => readFileSync(path, 'utf8'),
      setOutput: (name: string, value: string): void => void outputs.set(name, value),
      log,
      guard
    }
  }
}

/** Outputs whose value is a number (empty stays empty: not measured). */
const isCount = (name: string): boolean => name.endsWith('-count') || name === 'wait-seconds'
/** Outputs whose value is JSON; a file holds it when it was too big for an output. */
const JSON_OUTPUTS: Record<string, string | undefined> = {
  'purge-ids': undefined,
  results: 'results-file',
  verification: 'verification-file'
}

/**
 * The outputs as one JSON object for `--json`: counts as numbers, `purge-ids`, `results` and
 * `verification` as JSON values (read from their file past GitHub's output limit, which the command
 * does not have), the rest as strings. Every value was redacted when it was set.
 */
export function outputsJson(outputs: ReadonlyMap<string, string>): string {
  const values: Record<string, unknown> = {}
  for (const [name, value] of outputs) {
    if (isCount(name)) values[name] = value === '' ? null : Number(value)
    else if (name in JSON_OUTPUTS)
      values[name] = jsonValue(value, outputs.get(JSON_OUTPUTS[name] ?? ''))
    else values[name] = value
  }
  return `${JSON.stringify(values)}\n`
}

function jsonValue(value: string, file: string | undefined): unknown {
  if (value !== '') return JSON.parse(value)
  if (file !== undefined && file !== '') return JSON.parse(readFileSync(file, 'utf8'))
  return null
}
