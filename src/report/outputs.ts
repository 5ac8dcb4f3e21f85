/**
 * The step's outputs and the files that hold every entry, read from the finished run record. The
 * runner door hands in how a file is kept and an output set, so this module never touches the
 * runner.
 */
import type { StepLog } from '../log.js'
import {
  edgeCounts,
  type ComparedRange,
  type PurgeResult,
  type Results,
  type RunRecord,
  type EdgeCheckEntry
} from '../record/index.js'
import type { Guard } from '../text/guard.js'
import { purgeIds } from './purge-ids.js'

/** GitHub refuses outputs over 1 MB; stay under it with room for the output file's framing. */
export const MAX_OUTPUT_BYTES = 1_000_000

/** Entries serialised per chunk of a file: a file of 100,000 results is written in pieces. */
const SLICE = 100

/**
 * The JSON of a value, secrets hidden in its strings. Almost no run's output holds a secret, so
 * the text is scanned once for every spelling of every secret; only on a hit is it built again
 * with each string redacted before it is escaped (redacting the finished text would miss a secret
 * holding a quote or backslash, and could cut through an escape).
 */
function redactedStringify(value: unknown, guard: Guard): string {
  const json = JSON.stringify(value)
  if (!guard.mayHoldSecret(json)) return json
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' ? guard.redact(item) : item
  )
}

/** `purge-ids`, made again with every name and id redacted when its text may hold a secret. */
function purgeIdsText(results: Results, perService: boolean, guard: Guard): string {
  const json = JSON.stringify(purgeIds(results, perService))
  return guard.mayHoldSecret(json)
    ? JSON.stringify(purgeIds(results, perService, guard.redact))
    : json
}

/** How an entry is written: as it is, but a result, whose failure is the report's to read. */
type Shown<Entry extends object> = (entry: Entry) => object

const asItIs = <Entry extends object>(entry: Entry): object => entry

/** A result as the `results` output gives it: its failure is there in words, as `error`. */
const resultEntry = ({ failure: _failure, ...entry }: PurgeResult): object => entry

/**
 * A JSON array of the entries as `shown`, a slice at a time (so a result's output form is made
 * for one slice at a time), byte for byte `redactedStringify(entries.map(shown))`.
 */
function* redactedJson<Entry extends object>(
  entries: readonly Entry[],
  shown: Shown<Entry>,
  guard: Guard
): Generator<string> {
  yield '['
  for (let start = 0; start < entries.length; start += SLICE) {
    const json = redactedStringify(entries.slice(start, start + SLICE).map(shown), guard)
    yield `${start === 0 ? '' : ','}${json.slice(1, -1)}`
  }
  yield ']'
}

/** An output's text, `undefined` past GitHub's limit (the output is left empty), and its size. */
interface OutputText {
  text: string | undefined
  bytes: number
}

function bounded(text: string): OutputText {
  const bytes = Buffer.byteLength(text)
  return { text: bytes <= MAX_OUTPUT_BYTES ? text : undefined, bytes }
}

/** How the runner keeps a file for later steps: its path, and why it could not be written if so. */
export interface KeptFile {
  path: string
  failure: string | undefined
  /** How many bytes were written. */
  bytes: number
}

/** What the runner door hands in to write outputs and files. */
export interface OutputWriter {
  /** Writes the chunks, in order, to a new file named for `kind` where later steps can read it. */
  keepFile(kind: string, chunks: Iterable<string>): Promise<KeptFile>
  /** A kept file's text: at most an output's megabyte, read at once. */
  readKept(path: string): string
  setOutput(name: string, value: string): void
  log: StepLog
  guard: Guard
}

/**
 * The entries' JSON for their output: read back from the file when it fits the output, or made
 * again from the entries when the file could not be written.
 */
function entriesText<Entry extends object>(
  kept: KeptFile,
  entries: readonly Entry[],
  shown: Shown<Entry>,
  io: OutputWriter
): OutputText {
  if (kept.failure !== undefined)
    return bounded([...redactedJson(entries, shown, io.guard)].join(''))
  const fits = kept.bytes <= MAX_OUTPUT_BYTES
  return { bytes: kept.bytes, text: fits ? io.readKept(kept.path) : undefined }
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
function written(name: FileOutput, { path, failure }: KeptFile, io: OutputWriter): WrittenFile {
  if (failure === undefined) return { name, path, written: true }
  const kind = name === 'results-file' ? 'results' : 'verification'
  io.log.warning(
    `Could not write the ${kind} file ${path}: ${failure}. The ${name} output is left empty; the other outputs are set.`
  )
  return { name, path, written: false }
}

function setBoundedOutput(
  name: string,
  json: OutputText,
  file: WrittenFile,
  io: OutputWriter
): void {
  const { text, bytes } = json
  io.setOutput(name, text ?? '')
  if (text !== undefined) return
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
  'results' | 'counts' | 'settings' | 'wait' | 'edgeCheck' | 'derivation'
>

/**
 * Writes the results file and every output; returns the results file's path, or '' when it could
 * not be written. Outputs are whole values, never cut: the guard's `redact` hides secrets in each
 * string written. The edge check's outputs are written even when the results' could not be.
 */
export async function writeOutputs(facts: OutputFacts, io: OutputWriter): Promise<string> {
  writeBaseOutputs(facts.derivation?.report.ranges ?? [], io)
  try {
    return await writeResultOutputs(facts, io)
  } finally {
    await writeStageOutputs(facts.edgeCheck?.entries, facts.wait?.elapsedMs, io)
  }
}

async function writeResultOutputs(
  { results, counts, settings }: OutputFacts,
  io: OutputWriter
): Promise<string> {
  const kept = await io.keepFile('results', redactedJson(results, resultEntry, io.guard))
  const file = written('results-file', kept, io)
  // With several services, `purge-ids` groups the ids by service.
  const ids = bounded(purgeIdsText(results, settings.services.length > 1, io.guard))
  setBoundedOutput('purge-ids', ids, file, io)
  io.setOutput('purge-id', io.guard.redact(onlyId(results)))
  setBoundedOutput('results', entriesText(kept, results, resultEntry, io), file, io)
  io.setOutput('purged-count', String(counts.purged))
  io.setOutput('failed-count', String(counts.failed))
  const path = file.written ? io.guard.redact(file.path) : ''
  io.setOutput('results-file', path)
  return path
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

/**
 * The commit the changed files were compared from, and where it came from. Services whose purge
 * marks name different commits are compared from each: then one line per base, in both outputs
 * alike.
 */
function writeBaseOutputs(ranges: ComparedRange[], io: OutputWriter): void {
  io.setOutput('base', ranges.map((range) => io.guard.redact(range.baseSha)).join('\n'))
  io.setOutput('base-source', ranges.map((range) => range.source).join('\n'))
}

/**
 * The edge check's outputs: `undefined` when nothing was verified (then the counts are 0 and the
 * rest empty). `waitMs` is how long the wait for the origin took, when there was one.
 */
async function writeStageOutputs(
  entries: EdgeCheckEntry[] | undefined,
  waitMs: number | undefined,
  io: OutputWriter
): Promise<void> {
  io.setOutput('wait-seconds', waitMs === undefined ? '' : String(Math.round(waitMs / 1000)))
  const counts = edgeCounts(entries ?? [])
  io.setOutput('fresh-count', String(counts.fresh))
  // Every URL not known to be fresh, unreachable ones included: workflows gate on it.
  io.setOutput('stale-count', String((entries?.length ?? 0) - counts.fresh))
  io.setOutput('unreachable-count', String(counts.unreachable))
  if (entries === undefined) {
    io.setOutput('verification', '')
    io.setOutput('verification-file', '')
    return
  }
  const kept = await io.keepFile('verification', redactedJson(entries, asItIs, io.guard))
  const file = written('verification-file', kept, io)
  setBoundedOutput('verification', entriesText(kept, entries, asItIs, io), file, io)
  io.setOutput('verification-file', file.written ? io.guard.redact(file.path) : '')
}
