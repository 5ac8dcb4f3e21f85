/** Which changed files produced which targets, so users can tune url-map and key-map. */
import { type Derivation, type DerivedTarget } from '../../record/index.js'
import { nothingToPurge } from '../../record/words.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { code, SECTION_BYTES, SHOWN_TARGET_CHARS, table, type Budget } from './budget.js'

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
