/**
 * The job summary: the answer in its first line, then what went wrong, then what went right
 * (folded), within one byte budget whatever the run's size. Pure. The core's sections are modules
 * here, each capability's its own; this one reads the record once and sets the sections in order,
 * which is also the order in which they draw on the budget.
 */
import { CAPABILITIES, verdictsOf, type RunRecord } from '../../capabilities/index.js'
import type { Slot } from '../../capabilities/capability.js'
import { Budget, SUMMARY_MAX_BYTES } from '../../report-kit/budget.js'
import { failureCauses } from '../causes.js'
import { callsSection, plannedSection } from './dry-run.js'
import type { SummaryFacts, SummarySetting } from './facts.js'
import type { Guard } from '../../text/guard.js'
import { headLines } from './heading.js'
import { targetSections } from './target-tables.js'

/** The targets shown for each cause of a failure; the results file holds every one. */
const TARGETS_PER_CAUSE = 5
/** Where a user learns to keep the results file, which the runner deletes with the job. */
const KEEP_RESULTS_DOC =
  'https://github.com/edge-purge/edge-purge/blob/v1/docs/results.md#keep-the-results-file'

/** Characters of the results file's path shown: more than any folder a user would choose. */
const MAX_PATH_CHARS = 1000

/**
 * Where every result is, and how to keep it when the door says it does not stay (the runner deletes
 * RUNNER_TEMP with the job): shown when the summary does not show every target, or when the file
 * could not be written.
 */
function footer(facts: SummaryFacts, guard: Guard): string {
  if (facts.resultsFileStays) {
    if (facts.resultsFile === '') {
      return '<p>The results file could not be written (see the log above, which lists every call).</p>'
    }
    const path = guard.summaryText(facts.resultsFile, MAX_PATH_CHARS)
    return `<p>Every target, with its purge id or reason, is in the results file, which stays where it was written: <code>${path}</code></p>`
  }
  if (facts.resultsFile === '') {
    return '<p>The results file could not be written (see the warning in the step log); the step log lists every call.</p>'
  }
  return (
    '<p>Every target, with its purge id or reason, is in the file the <code>results-file</code> output names. ' +
    `The runner deletes it when the job ends: <a href="${KEEP_RESULTS_DOC}">upload it as an artifact</a> to keep it.</p>`
  )
}

/** The job summary of a run: its first line is the answer, then what went wrong, then the rest. */
export function renderSummary(
  record: RunRecord,
  { resultsFile, resultsFileStays, context, guard }: SummarySetting
): string {
  const verdicts = verdictsOf(record, guard)
  const facts: SummaryFacts = { ...record, resultsFile, resultsFileStays, context, verdicts }
  const causes = facts.counts.failed === 0 ? [] : failureCauses(facts.results, TARGETS_PER_CAUSE)
  const head = headLines(facts, causes, guard)
  const end = footer(facts, guard)
  // What the sections say besides their rows and items (titles, table heads, "Showing …" lines,
  // a dry run's sentences) is bounded and few: at most about 30 KiB at the widest escaping.
  const reserve = 40 * 1024
  const fixed = Buffer.byteLength([...head, end].join('\n'))
  const budget = new Budget(SUMMARY_MAX_BYTES - fixed - reserve)
  // Each capability's section in its slot, in the list's order: the order they draw on the budget.
  const sections = (slot: Slot): string[] =>
    CAPABILITIES.flatMap((capability) => capability.sections?.[slot]?.(record, budget, guard) ?? [])

  const body = [...sections('lead'), ...plannedSection(facts.plannedStages, budget, guard)]
  if (facts.settings.dryRun) body.push(...callsSection(facts.calls, budget, guard))
  const targets = targetSections(facts, causes, budget, guard)
  body.push(...targets.failures, ...sections('beside'), ...targets.rest, ...sections('after'))
  const pointer = facts.resultsFile === '' || !targets.everyTargetShown ? [end] : []
  return [...head, ...body, ...pointer].join('\n')
}
