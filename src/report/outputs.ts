/**
 * The step's outputs and the files that hold every entry, all views of the run record. The runner
 * door hands in how a file is kept and an output set, so this module never touches the runner.
 */
import type { StepLog } from '../log.js'
import {
  countResults,
  type ComparedRange,
  type PurgeResult,
  type RunRecord,
  type Verification
} from '../record.js'
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

/** How the runner keeps a file for later steps: its path, and why it could not be written if so. */
export interface KeptFile {
  path: string
  failure: string | undefined
}

/** What the runner door hands in to write outputs and files. */
export interface OutputWriter {
  /** Writes `text` to a new file named for `kind` where later steps can read it. */
  keepFile(kind: string, text: string): Promise<KeptFile>
  setOutput(name: string, value: string): void
  log: StepLog
}

type FileOutput = 'results-file' | 'verification-file'

/** A file that holds every entry: its output name and its path, or why it could not be written. */
interface WrittenFile {
  name: FileOutput
  path: string
  written: boolean
}

/**
 * A file that cannot be written (RUNNER_TEMP removed by a cleanup step, a full disk) costs a
 * warning, not the outputs: the purge happened whether or not its record could be kept.
 */
async function keep(name: FileOutput, json: string, io: OutputWriter): Promise<WrittenFile> {
  const kind = name === 'results-file' ? 'results' : 'verification'
  const { path, failure } = await io.keepFile(kind, json)
  if (failure === undefined) return { name, path, written: true }
  io.log.warning(
    `Could not write the ${kind} file ${path}: ${failure}. The ${name} output is left empty; the other outputs are set.`
  )
  return { name, path, written: false }
}

function setBoundedOutput(name: string, json: string, file: WrittenFile, io: OutputWriter): void {
  const bytes = Buffer.byteLength(json)
  if (bytes <= MAX_OUTPUT_BYTES) {
    io.setOutput(name, json)
    return
  }
  io.setOutput(name, '')
  const holder = file.written
    ? `The ${file.name} output (${file.path}) holds every entry.`
    : `The ${file.name} could not be written either: the counts and the job summary are what is left.`
  io.log.notice(
    `Output ${name} is left empty: at ${bytes} bytes it exceeds GitHub's 1 MB output limit. ${holder}`
  )
}

/** What the outputs are made of: the results, and the run's wait and edge check. */
export type OutputFacts = Pick<
  RunRecord,
  'results' | 'settings' | 'wait' | 'verification' | 'derivation'
>

/**
 * Writes the results file and every output; returns the results file's path, or '' when it could
 * not be written. Outputs are whole values, never cut: the guard's `redact` hides secrets in each
 * string written. The edge check's outputs are written even when the results' could not be.
 */
export async function writeOutputs(facts: OutputFacts, io: OutputWriter): Promise<string> {
  writeBaseOutputs(facts.derivation?.report.ranges ?? [], io)
  try {
    return await writeResultOutputs(facts.results, facts.settings.services.length > 1, io)
  } finally {
    await writeStageOutputs(facts.verification?.entries, facts.wait?.elapsedMs, io)
  }
}

async function writeResultOutputs(
  results: PurgeResult[],
  perService: boolean,
  io: OutputWriter
): Promise<string> {
  const counts = countResults(results)
  const resultsJson = redactedJson(results)
  const file = await keep('results-file', resultsJson, io)
  const ids = results.filter((result) => result.status === 'purged' && result.id !== null)
  const single = ids.length === 1 ? (ids[0]?.id ?? '') : ''
  setBoundedOutput('purge-ids', JSON.stringify(purgeIds(results, perService)), file, io)
  io.setOutput('purge-id', redact(single))
  setBoundedOutput('results', resultsJson, file, io)
  io.setOutput('purged-count', String(counts.purged))
  io.setOutput('failed-count', String(counts.failed))
  const path = file.written ? redact(file.path) : ''
  io.setOutput('results-file', path)
  return path
}

/**
 * The commit the changed files were compared from, and where it came from. Services whose records
 * name different commits are compared from each: then one line per base, in both outputs alike.
 */
function writeBaseOutputs(ranges: ComparedRange[], io: OutputWriter): void {
  io.setOutput('base', ranges.map((range) => redact(range.baseSha)).join('\n'))
  io.setOutput('base-source', ranges.map((range) => range.source).join('\n'))
}

/**
 * The edge check's outputs: `undefined` when nothing was verified (then the counts are 0 and the
 * rest empty). `waitMs` is how long the wait for the origin took, when there was one.
 */
async function writeStageOutputs(
  verification: Verification[] | undefined,
  waitMs: number | undefined,
  io: OutputWriter
): Promise<void> {
  io.setOutput('wait-seconds', waitMs === undefined ? '' : String(Math.round(waitMs / 1000)))
  const fresh = verification?.filter((entry) => entry.fresh).length ?? 0
  io.setOutput('fresh-count', String(fresh))
  io.setOutput('stale-count', String((verification?.length ?? 0) - fresh))
  if (verification === undefined) {
    io.setOutput('verification', '')
    io.setOutput('verification-file', '')
    return
  }
  const json = redactedJson(verification)
  const file = await keep('verification-file', json, io)
  setBoundedOutput('verification', json, file, io)
  io.setOutput('verification-file', file.written ? redact(file.path) : '')
}
