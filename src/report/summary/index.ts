/**
 * The job summary: the answer in its first line, then what went wrong, then what went right
 * (folded), within one byte budget whatever the run's size. Pure. Each section is a module of its
 * own; this one reads the record once and sets the sections in order, which is also the order in
 * which they draw on the budget.
 */
import type { RunContext, RunRecord } from '../../record/index.js'
import type { Guard } from '../../text/guard.js'
import { failureCauses } from '../causes.js'
import { Budget, SUMMARY_MAX_BYTES } from './budget.js'
import { derivationSection } from './changed-files.js'
import { callsSection, plannedSection } from './dry-run.js'
import { edgeCheckSection } from './edge-check.js'
import type { SummaryFacts } from './facts.js'
import { headLines } from './heading.js'
import { markLines } from './marks.js'
import { targetSections } from './target-tables.js'
import { waitSection } from './wait.js'

/** The targets shown for each cause of a failure; the results file holds every one. */
const TARGETS_PER_CAUSE = 5
/** Where a user learns to keep the results file, which the runner deletes with the job. */
const KEEP_RESULTS_DOC =
  'https://github.com/edge-purge/edge-purge/blob/v1/docs/results.md#keep-the-results-file'

/**
 * Where every result is, and how to keep it (the runner deletes RUNNER_TEMP with the job): shown
 * when the summary does not show every target, or when the file could not be written.
 */
function footer(facts: SummaryFacts): string {
  if (facts.resultsFile === '') {
    return '<p>The results file could not be written (see the warning in the step log); the step log lists every call.</p>'
  }
  return (
    '<p>Every target, with its purge id or reason, is in the file the <code>results-file</code> output names. ' +
    `The runner deletes it when the job ends: <a href="${KEEP_RESULTS_DOC}">upload it as an artifact</a> to keep it.</p>`
  )
}

/** Where the report put what the summary points to, and which run this was. */
export interface SummarySetting {
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  /** The run's guard, through which every outside piece of the summary passes. */
  guard: Guard
}

/** The job summary of a run: its first line is the answer, then what went wrong, then the rest. */
export function renderSummary(
  record: RunRecord,
  { resultsFile, context, guard }: SummarySetting
): string {
  const { settings, edgeCheck } = record
  const facts: SummaryFacts = {
    ...record,
    services: settings.services.map((service) => service.id),
    dryRun: settings.dryRun,
    repeatAfterMs: settings.repeatAfterMs,
    purgeAll: settings.purgeAll,
    resultsFile,
    context,
    wait:
      record.wait === undefined || settings.wait === undefined
        ? undefined
        : { ...settings.wait, outcome: record.wait },
    edgeCheck:
      edgeCheck === undefined
        ? undefined
        : {
            entries: edgeCheck.entries,
            textUrls: settings.edgeCheck.text === undefined ? [] : settings.edgeCheck.urls,
            malformedAge: edgeCheck.malformedAge
          }
  }
  return renderFacts(facts, guard)
}

/** The summary from the facts it shows, each read from the record once (`renderSummary`). */
function renderFacts(facts: SummaryFacts, guard: Guard): string {
  const causes = facts.counts.failed === 0 ? [] : failureCauses(facts.results, TARGETS_PER_CAUSE)
  const head = headLines(facts, causes, guard)
  const end = footer(facts)
  // What the sections say besides their rows and items (titles, table heads, "Showing …" lines,
  // a dry run's sentences) is bounded and few: at most about 30 KiB at the widest escaping.
  const reserve = 40 * 1024
  const fixed = Buffer.byteLength([...head, end].join('\n'))
  const budget = new Budget(SUMMARY_MAX_BYTES - fixed - reserve)

  const body: string[] = []
  if (facts.wait !== undefined) body.push(...waitSection(facts.wait, budget, guard))
  body.push(...plannedSection(facts.plannedStages, budget, guard))
  if (facts.dryRun) body.push(...callsSection(facts.calls, budget, guard))
  const targets = targetSections(facts, causes, budget, guard)
  body.push(...targets.failures)
  if (facts.edgeCheck !== undefined) body.push(...edgeCheckSection(facts.edgeCheck, budget, guard))
  body.push(...targets.rest)
  // With nothing to purge at all, the headline has already said why.
  if (facts.derivation !== undefined && facts.counts.total > 0) {
    body.push(...derivationSection(facts.derivation, budget, guard))
  }
  body.push(...markLines(facts.marks, guard))
  const pointer = facts.resultsFile === '' || !targets.everyTargetShown ? [end] : []
  return [...head, ...body, ...pointer].join('\n')
}
