/**
 * What the log and the summary say of the changed files: which produced which targets, so users
 * can tune url-map and key-map, and what each purge mark will say.
 */
import type { ChangedFilesReport, Derivation, DerivedTarget, PurgeMark } from './record.js'
import type { StepLog } from '../../log.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import {
  code,
  SECTION_BYTES,
  SHOWN_TARGET_CHARS,
  table,
  type Budget
} from '../../report-kit/budget.js'

/** URLs and file paths: long enough for any a CDN or a repository holds in practice, shown whole. */
const SHOWN_ADDRESS_CHARS = 2000

/**
 * The changed-files group of the log: one line per derived target; when the run has no target at
 * all (`none`), a notice that none of the files matched.
 */
export async function showDerivation(
  { report, targets }: Derivation,
  none: boolean,
  { log, guard }: { log: StepLog; guard: Guard }
): Promise<void> {
  const files = counted(report.files.length, 'changed file')
  const range = guard.oneLine(report.description)
  await log.group(`Targets from ${files} (${range})`, async () => {
    for (const { file, type, target } of targets) {
      log.info(
        `${guard.oneLine(file, SHOWN_ADDRESS_CHARS)} → ${type} ${guard.oneLine(target, SHOWN_ADDRESS_CHARS)}`
      )
    }
  })
  if (none) {
    log.notice(`Nothing to purge: ${nothingToPurge(report, guard)}`)
  }
}

/** Why changed files gave nothing to purge: none changed, or none matched a map. */
export function nothingToPurge(
  { files, ranges, description }: ChangedFilesReport,
  guard: Guard
): string {
  if (files.length > 0) {
    return `${counted(files.length, 'file')} changed in ${guard.oneLine(description)}, none matched url-map or key-map`
  }
  const [only] = ranges
  const where =
    ranges.length === 1 && only !== undefined
      ? `between ${only.baseSha.slice(0, 7)} and ${only.head.slice(0, 7)}`
      : `in ${guard.oneLine(description)}`
  return `no files changed ${where}`
}

/** A url-map with many prefixes or a key-map with many keys can give one file many targets. */
const SHOWN_TARGETS_PER_FILE = 10

function fileCells(file: string, targets: DerivedTarget[], guard: Guard): string[] {
  const more = targets.length - SHOWN_TARGETS_PER_FILE
  const shown = targets
    .slice(0, SHOWN_TARGETS_PER_FILE)
    .map(({ type, target }) => `${type} ${code(guard, target, SHOWN_TARGET_CHARS)}`)
  const list = more > 0 ? [...shown, `…and ${more} more`] : shown
  return [code(guard, file, SHOWN_TARGET_CHARS), list.join('<br>')]
}

/** Which changed files produced which targets, one row per file that produced any. */
export function derivationSection(
  { report, targets }: Derivation,
  budget: Budget,
  guard: Guard
): string[] {
  const byFile = new Map<string, DerivedTarget[]>()
  for (const derived of targets) {
    const list = byFile.get(derived.file) ?? []
    list.push(derived)
    byFile.set(derived.file, list)
  }
  if (targets.length === 0) {
    return [
      `<h3>Targets from changed files</h3>`,
      `<p>None: ${guard.summaryText(nothingToPurge(report, guard))}.</p>`
    ]
  }
  return [
    `<h3>Targets from changed files</h3>`,
    `<p>${counted(report.files.length, 'file')} changed in ${guard.summaryText(report.description)}; ` +
      `${byFile.size} of them produced ${counted(targets.length, 'target')}.</p>`,
    ...table(
      ['Changed file', 'Targets'],
      [...byFile],
      ([file, list]) => fileCells(file, list, guard),
      budget,
      SECTION_BYTES.derivation,
      (shown) => `Showing ${shown} of ${byFile.size} files; the step log lists every one.`
    ).lines
  ]
}

/**
 * What a run's purge mark of one service will say, and what the next run compares from. The mark
 * is closed after this summary is written, so the line says what it will be.
 */
function markLine({ service, sha, state, why }: PurgeMark): string {
  const at = sha.slice(0, 7)
  switch (state) {
    case 'success':
      return `To be recorded as the last complete purge of ${service}, at ${at}: the next run with changed-since: last-purge compares from it.`
    case 'failure':
      return `To be recorded as an incomplete purge of ${service} (${why}): the next run compares from the last complete purge again.`
    case 'not written':
      return `Not recorded for ${service}: GitHub did not take it (${why}); the next run compares from the older record, which purges more, never less.`
  }
}

/** One line per service; the service, the sha and GitHub's words are outside text, so guarded. */
export function markLines(marks: PurgeMark[], guard: Guard): string[] {
  return marks.map((mark) => `<p>${guard.summaryText(markLine(mark))}</p>`)
}
