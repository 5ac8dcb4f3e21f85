/** The step's outputs, read from the finished run record: the results', then each capability's. */
import { CAPABILITIES, type RunRecord } from '../capabilities/index.js'
import type { PurgeResult, Results } from '../record/index.js'
import {
  bounded,
  keepEntries,
  setBoundedOutput,
  setFileOutput,
  type OutputWriter
} from '../report-kit/json-outputs.js'
import type { Guard } from '../text/guard.js'
import { purgeIds } from './purge-ids.js'

/**
 * Writes the results file and every output, the core's then each capability's; returns the results
 * file's path, or '' when it could not be written. Outputs are whole values, never cut: the guard's
 * `redact` hides secrets in each string written. The capabilities' outputs are written even when
 * the results' could not be.
 */
export async function writeOutputs(record: RunRecord, io: OutputWriter): Promise<string> {
  try {
    return await writeResultOutputs(record, io)
  } finally {
    for (const capability of CAPABILITIES) await capability.outputs?.(record, io)
  }
}

/** `purge-ids`, made again with every name and id redacted when its text may hold a secret. */
function purgeIdsText(results: Results, perService: boolean, guard: Guard): string {
  const json = JSON.stringify(purgeIds(results, perService))
  return guard.mayHoldSecret(json)
    ? JSON.stringify(purgeIds(results, perService, guard.redact))
    : json
}

/** A result as the `results` output gives it: its failure is there in words, as `error`. */
const resultEntry = ({ failure: _failure, ...entry }: PurgeResult): object => entry

async function writeResultOutputs(
  { results, counts, settings }: RunRecord,
  io: OutputWriter
): Promise<string> {
  const { file, json } = await keepEntries('results', results, resultEntry, io)
  // With several services, `purge-ids` groups the ids by service.
  const ids = bounded(purgeIdsText(results, settings.services.length > 1, io.guard))
  setBoundedOutput('purge-ids', ids, file, io)
  io.setOutput('purge-id', io.guard.redact(onlyId(results)))
  setBoundedOutput('results', json(), file, io)
  io.setOutput('purged-count', String(counts.purged))
  io.setOutput('failed-count', String(counts.failed))
  return setFileOutput('results-file', file, io)
}

/** The purge id when the run produced exactly one; otherwise empty. */
function onlyId(results: Results): string {
  let only: string | undefined
  for (const result of results) {
    if (result.status !== 'purged' || result.id === null) continue
    if (only !== undefined) return ''
    only = result.id
  }
  return only ?? ''
}
