/** The step's outputs and the complete results file, all views of the results. */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Counts, PurgeResult } from '../record.js'
import type { Verification } from '../stages/verify/edge-check.js'
import { redact } from '../text/guard.js'

/** GitHub refuses outputs over 1 MB; stay under it with room for the output file's framing. */
export const MAX_OUTPUT_BYTES = 1_000_000

/** Where URL purge ids go when ids are grouped by service: URL purges belong to no service. */
export const URL_IDS_GROUP = 'urls'

export type PurgeIds = Record<string, string> | Record<string, Record<string, string>>

/**
 * Each purged key or URL → its purge id (purge-all has none), secrets hidden in both. With
 * several services, grouped: service → target → id, URL purges under `urls`. Built with
 * `Object.fromEntries`, which makes every key the object's own: assigning `ids['__proto__'] = id`
 * would set the prototype instead and lose the key.
 */
export function purgeIds(results: PurgeResult[], perService: boolean): PurgeIds {
  const purged: [PurgeResult, string][] = []
  for (const result of results) {
    if (result.status === 'purged' && result.id !== null) purged.push([result, result.id])
  }
  const entry = ([result, id]: [PurgeResult, string]): [string, string] => [
    redact(result.target),
    redact(id)
  ]
  if (!perService) return Object.fromEntries(purged.map(entry))
  const groups = new Map<string, [string, string][]>()
  for (const item of purged) {
    const service = redact(item[0].service ?? URL_IDS_GROUP)
    const group = groups.get(service) ?? []
    group.push(entry(item))
    groups.set(service, group)
  }
  return Object.fromEntries([...groups].map(([service, ids]) => [service, Object.fromEntries(ids)]))
}

/**
 * JSON with every string value passed through `redact` before it is escaped: redacting the
 * finished text would miss a secret holding a quote or backslash and could cut through an escape.
 * Keys are left alone: a result's keys are its field names.
 */
function redactedJson(entries: readonly object[]): string {
  return JSON.stringify(entries, (_key, value: unknown) =>
    typeof value === 'string' ? redact(value) : value
  )
}

/** A file that holds every entry: its output name and its path, or why it could not be written. */
interface KeptFile {
  name: 'results-file' | 'verification-file'
  path: string
  written: boolean
}

function setBoundedOutput(name: string, json: string, file: KeptFile): void {
  const bytes = Buffer.byteLength(json)
  if (bytes <= MAX_OUTPUT_BYTES) {
    core.setOutput(name, json)
    return
  }
  core.setOutput(name, '')
  const holder = file.written
    ? `The ${file.name} output (${file.path}) holds every entry.`
    : `The ${file.name} could not be written either: the counts and the job summary are what is left.`
  core.notice(
    `Output ${name} is left empty: at ${bytes} bytes it exceeds GitHub's 1 MB output limit. ${holder}`
  )
}

/**
 * Writes `json` to a new file under RUNNER_TEMP, where a later step (even one after a cancel)
 * can read it. Written under another name and renamed into place, so that a reader, or a run
 * cancelled while writing, never finds half a file under the name the output gives. A file that
 * cannot be written (RUNNER_TEMP removed by a cleanup step, a full disk) costs a warning, not the
 * outputs: the purge happened whether or not its record could be kept.
 */
async function keepFile(name: KeptFile['name'], json: string): Promise<KeptFile> {
  const kind = name === 'results-file' ? 'results' : 'verification'
  const path = join(process.env.RUNNER_TEMP || tmpdir(), `edge-purge-${kind}-${randomUUID()}.json`)
  const partial = `${path}.partial`
  try {
    await writeFile(partial, json)
    await rename(partial, path)
    return { name, path, written: true }
  } catch (error) {
    await rm(partial, { force: true }).catch(() => undefined)
    const reason = error instanceof Error ? error.message : String(error)
    core.warning(
      redact(
        `Could not write the ${kind} file ${path}: ${reason}. The ${name} output is left empty; the other outputs are set.`
      )
    )
    return { name, path, written: false }
  }
}

/**
 * Writes the results file and every output; returns the results file's path, or '' when it could
 * not be written. Outputs are whole values, never cut: the guard's `redact` hides secrets in each
 * string written.
 */
export async function writeOutputs(
  results: PurgeResult[],
  counts: Counts,
  perService: boolean
): Promise<string> {
  const resultsJson = redactedJson(results)
  const file = await keepFile('results-file', resultsJson)
  const ids = results.filter((result) => result.status === 'purged' && result.id !== null)
  const single = ids.length === 1 ? (ids[0]?.id ?? '') : ''
  setBoundedOutput('purge-ids', JSON.stringify(purgeIds(results, perService)), file)
  core.setOutput('purge-id', redact(single))
  setBoundedOutput('results', resultsJson, file)
  core.setOutput('purged-count', String(counts.purged))
  core.setOutput('failed-count', String(counts.failed))
  const path = file.written ? redact(file.path) : ''
  core.setOutput('results-file', path)
  return path
}

/**
 * The edge check's outputs: `undefined` when nothing was verified (then the counts are 0 and the
 * rest empty). `waitMs` is how long the wait for the origin took, when there was one.
 */
export async function writeStageOutputs(
  verification: Verification[] | undefined,
  waitMs: number | undefined
): Promise<void> {
  core.setOutput('wait-seconds', waitMs === undefined ? '' : String(Math.round(waitMs / 1000)))
  const fresh = verification?.filter((entry) => entry.fresh).length ?? 0
  core.setOutput('fresh-count', String(fresh))
  core.setOutput('stale-count', String((verification?.length ?? 0) - fresh))
  if (verification === undefined) {
    core.setOutput('verification', '')
    core.setOutput('verification-file', '')
    return
  }
  const json = redactedJson(verification)
  const file = await keepFile('verification-file', json)
  setBoundedOutput('verification', json, file)
  core.setOutput('verification-file', file.written ? redact(file.path) : '')
}
