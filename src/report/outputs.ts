/**
 * The step's outputs and the files that hold every entry, all views of the run record (those that
 * read every result, made as the purge hands each call's results out). The runner door hands in
 * how a file is kept and an output set, so this module never touches the runner.
 */
import type { StepLog } from '../log.js'
import type { Settings } from '../config/settings.js'
import {
  edgeCounts,
  type ComparedRange,
  type PurgeResult,
  type Results,
  type RunRecord,
  type Verification
} from '../record.js'
import { mayHoldSecret, redact } from '../text/guard.js'
import { plainPurgeIdsJson, purgeIdsJson, targetMayRepeat } from './purge-ids.js'

/** GitHub refuses outputs over 1 MB; stay under it with room for the output file's framing. */
export const MAX_OUTPUT_BYTES = 1_000_000

const unchanged = (text: string): string => text

/**
 * Entries serialised per slice: few enough that what is alive when a young collection runs stays
 * small (at 1,000, the slices in flight made V8 grow its young generation at 100,000 keys), many
 * enough that each scan and write is worth its call.
 */
const SLICE = 100

/** purge-ids is written in pieces of about this many characters, for the same reason. */
const PIECE_CHARS = 16 * 1024

/** Entries a group at a time: each call's results as the purge ends them, or one whole list. */
type Groups<T> = AsyncIterable<Iterable<T>> | Iterable<Iterable<T>>

/**
 * A JSON array, one slice of entries at a time, byte for byte what `JSON.stringify(entries)`
 * gives, with secrets hidden in its string values. Almost no run's output holds a secret, so each
 * slice is scanned once for every spelling of every secret; only on a hit is it built again with
 * each string redacted before it is escaped (redacting the finished text would miss a secret
 * holding a quote or backslash, and could cut through an escape).
 */
async function* redactedJson(groups: Groups<object>): AsyncGenerator<string> {
  yield '['
  let first = true
  for await (const slice of slices(groups, SLICE)) {
    let json = JSON.stringify(slice)
    if (mayHoldSecret(json)) {
      json = JSON.stringify(slice, (_key, item: unknown) =>
        typeof item === 'string' ? redact(item) : item
      )
    }
    yield `${first ? '' : ','}${json.slice(1, -1)}`
    first = false
  }
  yield ']'
}

/**
 * The items in arrays of at most `size`, a group's last one shorter: only one slice is held at a
 * time, and none while the next group is awaited (held then, it outlived young collections).
 */
async function* slices<T>(groups: Groups<T>, size: number): AsyncGenerator<T[]> {
  for await (const group of groups) {
    let slice: T[] = []
    for (const item of group) {
      slice.push(item)
      if (slice.length < size) continue
      yield slice
      slice = []
    }
    if (slice.length > 0) yield slice
  }
}

/** An output's text, `undefined` past GitHub's limit (the output is left empty), and its size. */
interface OutputText {
  text: string | undefined
  bytes: number
}

/**
 * An output's text while it fits GitHub's limit, and its exact size in bytes: past the limit the
 * text is let go, since the output will be left empty, but the bytes are still counted. The text
 * is held as UTF-8 outside the JS heap: held as strings, its megabyte outlived young collections,
 * which at 100,000 keys made V8 double its young generation (16 MB more RSS). Every chunk is whole
 * JSON, so no chunk ends inside a character.
 */
class BoundedText implements OutputText {
  private held: Buffer | undefined = Buffer.allocUnsafeSlow(MAX_OUTPUT_BYTES)
  bytes = 0

  add(chunk: string): void {
    const at = this.bytes
    this.bytes += Buffer.byteLength(chunk)
    if (this.bytes > MAX_OUTPUT_BYTES) this.held = undefined
    this.held?.write(chunk, at)
  }

  /** The whole text, or `undefined` when it outgrew the limit. */
  get text(): string | undefined {
    return this.held?.toString('utf8', 0, this.bytes)
  }
}

async function boundedText(chunks: AsyncIterable<string> | Iterable<string>): Promise<BoundedText> {
  const text = new BoundedText()
  for await (const chunk of chunks) text.add(chunk)
  return text
}

/** The plain walk's `purge-ids`, or `undefined` at its first piece that may hold a secret. */
type PlainIds = { text: BoundedText; complete: boolean } | undefined

/**
 * `purge-ids`, by the same rule: the pieces are scanned as they come, and only on a hit is the
 * whole made again with each string redacted. Most runs' ids take the one reading of the plain
 * walk; a run whose ids need an object's order is read again by the careful one.
 */
async function purgeIdsText(
  results: Results,
  perService: boolean,
  plain: PlainIds
): Promise<BoundedText> {
  if (plain?.complete === true) return plain.text
  const careful =
    plain && (await unlessSecret(purgeIdsJson(results, perService, unchanged, PIECE_CHARS)))
  return (
    careful?.text ?? (await boundedText(purgeIdsJson(results, perService, redact, PIECE_CHARS)))
  )
}

/**
 * The pieces as one text, with what their walk returned; `undefined` at the first piece that may
 * hold a secret.
 */
async function unlessSecret<R>(
  pieces: AsyncGenerator<string, R> | Generator<string, R>
): Promise<{ text: BoundedText; complete: R } | undefined> {
  const text = new BoundedText()
  let step = await pieces.next()
  for (; step.done !== true; step = await pieces.next()) {
    if (mayHoldSecret(step.value)) return undefined
    text.add(step.value)
  }
  return { text, complete: step.value }
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
  keepFile(kind: string, chunks: AsyncIterable<string>): Promise<KeptFile>
  /** A kept file's text: at most an output's megabyte, read at once. */
  readKept(path: string): string
  setOutput(name: string, value: string): void
  log: StepLog
}

/** Writes the entries, as JSON, to a file for later steps. */
function keepEntries(
  kind: 'results' | 'verification',
  entries: Groups<object>,
  io: OutputWriter
): Promise<KeptFile> {
  return io.keepFile(kind, redactedJson(entries))
}

/**
 * The entries' JSON for their output. It is not held while the file is written (for the
 * results, while the calls are out): it is read back from the file when it fits the output, or
 * made again from the entries when the file could not be written.
 */
async function entriesText(
  kept: KeptFile,
  entries: Iterable<object>,
  io: OutputWriter
): Promise<OutputText> {
  if (kept.failure !== undefined) return boundedText(redactedJson([entries]))
  const fits = kept.bytes <= MAX_OUTPUT_BYTES
  return { bytes: kept.bytes, text: fits ? io.readKept(kept.path) : undefined }
}

/**
 * What is made by reading every result: the results file and the plain walk of `purge-ids`. The
 * pipeline can hand them each call's results as the purge ends them: then they are made while
 * later calls are still out, not after the last one (at 10,000 keys, the outputs then take 4 ms
 * instead of 36). Otherwise they are made from the results at the end.
 */
export class ResultViews {
  private started: MadeViews | undefined

  constructor(private readonly io: OutputWriter) {}

  readonly start = (calls: AsyncIterable<Results>, settings: Settings): void => {
    this.started = this.make(calls, settings)
  }

  /** The views as made: the ones started, else ones made now from `results`. */
  made(results: Results, settings: Settings): MadeViews {
    return this.started ?? this.make([results], settings)
  }

  private make(calls: Groups<PurgeResult>, settings: Settings): MadeViews {
    const file = keepEntries('results', calls, this.io)
    const perService = perServiceIds(settings)
    const mayRepeat = targetMayRepeat(settings, perService)
    const ids = unlessSecret(plainPurgeIdsJson(calls, perService, mayRepeat, PIECE_CHARS))
    // Awaited only once the purge has ended: until then, a throw must not end the process as
    // unhandled. `writeOutputs` still gets it, and reports it.
    for (const view of [file, ids]) view.catch(() => undefined)
    return { file, ids }
  }
}

/** The results file, and the plain walk of `purge-ids`. */
interface MadeViews {
  file: Promise<KeptFile>
  ids: Promise<PlainIds>
}

/** With several services, `purge-ids` groups the ids by service. */
const perServiceIds = (settings: Settings): boolean => settings.services.length > 1

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
  if (text !== undefined) {
    io.setOutput(name, text)
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
  'results' | 'counts' | 'settings' | 'wait' | 'verification' | 'derivation'
>

/**
 * Writes the results file and every output; returns the results file's path, or '' when it could
 * not be written. Outputs are whole values, never cut: the guard's `redact` hides secrets in each
 * string written. The edge check's outputs are written even when the results' could not be.
 */
export async function writeOutputs(
  facts: OutputFacts,
  io: OutputWriter,
  views = new ResultViews(io)
): Promise<string> {
  writeBaseOutputs(facts.derivation?.report.ranges ?? [], io)
  try {
    return await writeResultOutputs(facts, io, views.made(facts.results, facts.settings))
  } finally {
    await writeStageOutputs(facts.verification?.entries, facts.wait?.elapsedMs, io)
  }
}

async function writeResultOutputs(
  { results, counts, settings }: OutputFacts,
  io: OutputWriter,
  made: MadeViews
): Promise<string> {
  const kept = await made.file
  const file = written('results-file', kept, io)
  const ids = await purgeIdsText(results, perServiceIds(settings), await made.ids)
  setBoundedOutput('purge-ids', ids, file, io)
  io.setOutput('purge-id', redact(onlyId(results)))
  setBoundedOutput('results', await entriesText(kept, results, io), file, io)
  io.setOutput('purged-count', String(counts.purged))
  io.setOutput('failed-count', String(counts.failed))
  const path = file.written ? redact(file.path) : ''
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
  const counts = edgeCounts(verification ?? [])
  io.setOutput('fresh-count', String(counts.fresh))
  // Every URL not known to be fresh, unreachable ones included: workflows gate on it.
  io.setOutput('stale-count', String((verification?.length ?? 0) - counts.fresh))
  io.setOutput('unreachable-count', String(counts.unreachable))
  if (verification === undefined) {
    io.setOutput('verification', '')
    io.setOutput('verification-file', '')
    return
  }
  const kept = await keepEntries('verification', [verification], io)
  const file = written('verification-file', kept, io)
  setBoundedOutput('verification', await entriesText(kept, verification, io), file, io)
  io.setOutput('verification-file', file.written ? redact(file.path) : '')
}
