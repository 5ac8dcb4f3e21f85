/**
 * Changed files: targets from the files this run's commits changed, mapped by url-map and key-map;
 * with `changed-since: last-purge`, compared from each service's last complete purge, whose purge
 * mark this run writes.
 */
import type { Capability } from '../capability.js'
import { plainLine } from '../../text/shown.js'
import { messageOf } from '../../text/message.js'
import { changedFilesInputs } from './inputs.js'
import { decideMarks } from './last-purge/complete.js'
import type { ChangedFilesPart } from './record.js'
import { derivationSection, markLines, nothingToPurge } from './summary.js'

// GitHub is read, and the purge marks written, only by a run that asks for them.
const changes = () => import('./apply.js')
const recall = () => import('./last-purge/recall.js')
const marks = () => import('./last-purge/write.js')

export const changedFiles: Capability<ChangedFilesPart> = {
  inputs: changedFilesInputs,
  async targets(settings, deps) {
    const { changedFiles, lastPurge } = settings
    if (changedFiles === undefined && lastPurge === undefined) return { part: {} }
    const recalled =
      lastPurge === undefined
        ? undefined
        : await (
            await recall()
          ).recallLastPurges(await deps.github(), lastPurge, changedFiles !== undefined, deps.log)
    if (changedFiles === undefined) return { part: { recalled } }
    const { applyChangedFiles } = await changes()
    return applyChangedFiles(settings, changedFiles, { ...deps, recalled })
  },
  planned: async ({ lastPurge }) =>
    lastPurge === undefined ? [] : [(await marks()).describeMarkPlanned(lastPurge)],
  async before({ settings, recalled }, deps) {
    if (settings.lastPurge === undefined || recalled === undefined) return { part: {} }
    const { openMarks } = await marks()
    const opened = await openMarks(await deps.github(), settings.lastPurge, recalled.head, deps.log)
    return { part: { marks: opened } }
  },
  async outputs({ derivation }, io) {
    // Services whose purge marks name different commits are compared from each: a line per base.
    const ranges = derivation?.report.ranges ?? []
    io.setOutput('base', ranges.map((range) => io.guard.redact(range.baseSha)).join('\n'))
    io.setOutput('base-source', ranges.map((range) => range.source).join('\n'))
  },
  sections: {
    after: (record, budget, guard) => [
      // With nothing to purge at all, the headline has already said why.
      ...(record.derivation !== undefined && record.counts.total > 0
        ? derivationSection(record.derivation, budget, guard)
        : []),
      ...markLines(decideMarks(record.marks ?? [], record), guard)
    ]
  },
  verdict: ({ derivation }, guard) => ({
    nothingToPurge:
      derivation === undefined || derivation.targets.length > 0
        ? undefined
        : nothingToPurge(derivation.report, guard)
  }),
  /**
   * Ends each service's purge mark: `success` only for a complete run whose report was written. A
   * close GitHub refuses, that times out or is cancelled costs a warning: the next run then
   * compares from the older mark, which is safe.
   */
  async finish(record, reported, deps) {
    const decided = decideMarks(record.marks ?? [], record)
    if (decided.every((mark) => mark.deploymentId === undefined)) return
    try {
      await (await marks()).closeMarks(await deps.github(), decided, reported, deps.log)
    } catch (error) {
      deps.log.warning(
        `Could not mark the records of this purge (${plainLine(deps.guard, messageOf(error))}): they stay in_progress, so the next run with changed-since: last-purge compares from the older record, which is safe`
      )
    }
  }
}
