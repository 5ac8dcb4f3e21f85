/** Outputs and kept files through the runner: `GITHUB_OUTPUT`, and files under `RUNNER_TEMP`. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'
import type { KeptFile } from '../report-kit/json-outputs.js'
import { writeWhole } from '../report-kit/whole-file.js'

/**
 * Keeps the chunks in a new file under RUNNER_TEMP, where a later step (even one after a cancel)
 * can read it.
 */
function keepFile(kind: string, chunks: Iterable<string>): Promise<KeptFile> {
  const path = join(process.env.RUNNER_TEMP || tmpdir(), `edge-purge-${kind}-${randomUUID()}.json`)
  return writeWhole(path, chunks)
}

/** What the report is handed to write the outputs (its `OutputWriter`), with the run's log and guard. */
export const runnerOutputs = (log: StepLog, guard: Guard) => ({
  keepFile,
  readKept: (path: string): string => readFileSync(path, 'utf8'),
  setOutput: (name: string, value: string): void => core.setOutput(name, value),
  log,
  guard
})
