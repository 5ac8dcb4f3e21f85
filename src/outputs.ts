/** The step's outputs and the complete results file, all views of the results. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Counts, PurgeResult } from './results.js'

/** GitHub refuses outputs over 1 MB; stay under it with room for the output file's framing. */
export const MAX_OUTPUT_BYTES = 1_000_000

/** Where URL purge ids go when ids are grouped by service: URL purges belong to no service. */
export const URL_IDS_GROUP = 'urls'

export type PurgeIds = Record<string, string> | Record<string, Record<string, string>>

/**
 * Each purged key or URL → its purge id (purge-all has none). With several services, grouped:
 * service → target → id, URL purges under `urls`.
 */
export function purgeIds(results: PurgeResult[], perService: boolean): PurgeIds {
  const flat: Record<string, string> = {}
  const grouped: Record<string, Record<string, string>> = {}
  for (const result of results) {
    if (result.status !== 'purged' || result.id === null) continue
    if (!perService) flat[result.target] = result.id
    else (grouped[result.service ?? URL_IDS_GROUP] ??= {})[result.target] = result.id
  }
  return perService ? grouped : flat
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
export async function writeOutputs(
  results: PurgeResult[],
  counts: Counts,
  perService: boolean
): Promise<string> {
  const resultsJson = JSON.stringify(results)
  const resultsFile = join(
    process.env.RUNNER_TEMP || tmpdir(),
    `edge-purge-results-${randomUUID()}.json`
  )
  await writeFile(resultsFile, resultsJson)

  const ids = results.filter((result) => result.status === 'purged' && result.id !== null)
  setBoundedOutput('purge-ids', JSON.stringify(purgeIds(results, perService)), resultsFile)
  core.setOutput('purge-id', ids.length === 1 ? ids[0]?.id : '')
  setBoundedOutput('results', resultsJson, resultsFile)
  core.setOutput('purged-count', String(counts.purged))
  core.setOutput('failed-count', String(counts.failed))
  core.setOutput('results-file', resultsFile)
  return resultsFile
}
