/** The step's outputs and the complete results file, all views of the results. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Counts, PurgeResult } from './results.js'

/** GitHub refuses outputs over 1 MB; stay under it with room for the output file's framing. */
export const MAX_OUTPUT_BYTES = 1_000_000

/** Each purged key or URL → its purge id (purge-all has none). */
export function purgeIds(results: PurgeResult[]): Record<string, string> {
  const ids: Record<string, string> = {}
  for (const result of results) {
    if (result.status === 'purged' && result.id !== null) ids[result.target] = result.id
  }
  return ids
}

function setBoundedOutput(name: string, json: string, resultsFile: string): void {
  if (Buffer.byteLength(json) <= MAX_OUTPUT_BYTES) {
    core.setOutput(name, json)
    return
  }
  core.setOutput(name, '')
  core.notice(
    `Output ${name} is left empty: at ${Buffer.byteLength(json)} bytes it exceeds GitHub's 1 MB output limit. The results-file output (${resultsFile}) holds every result.`
  )
}

/** Writes the results file and every output; returns the results file's path. */
export async function writeOutputs(results: PurgeResult[], counts: Counts): Promise<string> {
  const resultsJson = JSON.stringify(results)
  const resultsFile = join(
    process.env.RUNNER_TEMP || tmpdir(),
    `edge-purge-results-${randomUUID()}.json`
  )
  await writeFile(resultsFile, resultsJson)

  const ids = purgeIds(results)
  const idValues = Object.values(ids)
  setBoundedOutput('purge-ids', JSON.stringify(ids), resultsFile)
  core.setOutput('purge-id', idValues.length === 1 ? idValues[0] : '')
  setBoundedOutput('results', resultsJson, resultsFile)
  core.setOutput('purged-count', String(counts.purged))
  core.setOutput('failed-count', String(counts.failed))
  core.setOutput('results-file', resultsFile)
  return resultsFile
}
