/**
 * How an output and the file that holds every entry are written: JSON made a slice at a time,
 * secrets hidden, kept within GitHub's output limit. The runner door hands in how a file is kept
 * and an output set, so no module here touches the runner.
 */
import type { StepLog } from '../log.js'
import type { Guard } from '../text/guard.js'

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
export function redactedStringify(value: unknown, guard: Guard): string {
  const json = JSON.stringify(value)
  if (!guard.mayHoldSecret(json)) return json
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'string' ? guard.redact(item) : item
  )
}

/** How an entry is written: as it is, but a result, whose failure is the report's to read. */
export type Shown<Entry extends object> = (entry: Entry) => object

export const asItIs = <Entry extends object>(entry: Entry): object => entry

/**
 * A JSON array of the entries as `shown`, a slice at a time (so a result's output form is made
 * for one slice at a time), byte for byte `redactedStringify(entries.map(shown))`.
 */
export function* redactedJson<Entry extends object>(
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
export interface OutputText {
  text: string | undefined
  bytes: number
}

export function bounded(text: string): OutputText {
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

/** A file that holds every entry: its output name and its path, or why it could not be written. */
export interface WrittenFile {
  name: `${EntriesKind}-file`
  path: string
  written: boolean
}

type EntriesKind = 'results' | 'verification' | 'assets'

/**
 * Keeps every entry in a file for later steps, and makes the entries' JSON for their output: read
 * back from the file when it fits the output, or made again when the file could not be written.
 * A file that cannot be written (RUNNER_TEMP removed by a cleanup step, a full disk) costs a
 * warning, not the outputs: the purge happened whether or not its record could be kept.
 */
export async function keepEntries<Entry extends object>(
  kind: EntriesKind,
  entries: readonly Entry[],
  shown: Shown<Entry>,
  io: OutputWriter
): Promise<{ file: WrittenFile; json(): OutputText }> {
  const name = `${kind}-file` as const
  const { path, failure, bytes } = await io.keepFile(kind, redactedJson(entries, shown, io.guard))
  if (failure === undefined) {
    const json = () => ({ bytes, text: bytes <= MAX_OUTPUT_BYTES ? io.readKept(path) : undefined })
    return { file: { name, path, written: true }, json }
  }
  io.log.warning(
    `Could not write the ${kind} file ${path}: ${failure}. The ${name} output is left empty; the other outputs are set.`
  )
  const json = () => bounded([...redactedJson(entries, shown, io.guard)].join(''))
  return { file: { name, path, written: false }, json }
}

/** Sets a file's output, and returns it: its path, or empty when it could not be written. */
export function setFileOutput(name: string, file: WrittenFile, io: OutputWriter): string {
  const path = file.written ? io.guard.redact(file.path) : ''
  io.setOutput(name, path)
  return path
}

export function setBoundedOutput(
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
