/**
 * The targets: the failures by cause, open and first; then, folded, those not sent for the reason
 * already said above (the wait); then the successes or a dry run's plan, open when the list is
 * short or a dry run shows what it would purge.
 */
import type { PurgeResult, Results } from '../../record/index.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import { causeReason, refusedAndStopped, type Cause } from '../causes.js'
import {
  code,
  folded,
  SECTION_BYTES,
  SHOWN_ERROR_CHARS,
  SHOWN_TARGET_CHARS,
  SUMMARY_ROW_LIMIT,
  table,
  type Budget,
  type Table
} from '../../report-kit/budget.js'
import type { SummaryFacts } from './facts.js'

const SHOWN_SERVICE_CHARS = 64
const SHOWN_ID_CHARS = 128
/** A successful run of at most this many targets shows them open: a short list is read at a glance. */
const OPEN_LIST_LIMIT = 20

const STATUS_CELL = { purged: '✅ purged', failed: '❌ failed', planned: '📝 planned' } as const

function targetCells(result: PurgeResult, withService: boolean, guard: Guard): string[] {
  return [
    code(guard, result.target, SHOWN_TARGET_CHARS),
    ...(withService
      ? [result.service === null ? '' : code(guard, result.service, SHOWN_SERVICE_CHARS)]
      : []),
    result.type,
    result.soft ? 'soft' : 'instant',
    result.status === 'failed' ? '❌ not sent' : STATUS_CELL[result.status],
    result.id === null ? '' : code(guard, result.id, SHOWN_ID_CHARS)
  ]
}

/** A target where several services or types meet: `key <code>home</code> (svc2)`. */
function namedTarget(result: PurgeResult, withService: boolean, guard: Guard): string {
  const service =
    withService && result.service !== null
      ? ` (${code(guard, result.service, SHOWN_SERVICE_CHARS)})`
      : ''
  return `${result.type}&nbsp;${code(guard, result.target, SHOWN_TARGET_CHARS)}${service}`
}

/** One row per cause: what it was, how many targets it failed, and the first of them. */
function causeCells(cause: Cause, withService: boolean, guard: Guard): string[] {
  const how = refusedAndStopped(cause)
  const more = cause.count - cause.first.length
  const targets = [
    ...cause.first.map((result) => namedTarget(result, withService, guard)),
    ...(more > 0 ? [`…and ${more} more`] : [])
  ]
  return [
    `❌ ${guard.summaryText(causeReason(cause), SHOWN_ERROR_CHARS)}`,
    `${cause.count}${how === undefined ? '' : `<br>${how}`}`,
    targets.join(', ')
  ]
}

/** The first results a table can show, and how many there are in all. */
interface Sample {
  first: PurgeResult[]
  count: number
}

/**
 * Fills each sample's first rows, in result order, from the section `into` puts each result in;
 * reads only as far as the rows to show, since every count is already known.
 */
function sampleResults(
  results: Results,
  samples: Sample[],
  into: (result: PurgeResult) => Sample | undefined
): void {
  let wanted = samples.reduce((sum, { count }) => sum + Math.min(count, SUMMARY_ROW_LIMIT), 0)
  for (const result of results) {
    if (wanted === 0) return
    const sample = into(result)
    if (sample === undefined || sample.first.length === Math.min(sample.count, SUMMARY_ROW_LIMIT))
      continue
    sample.first.push(result)
    wanted -= 1
  }
}

/** What every target table of one run shares: its columns, where the hidden rows are, the budget. */
interface TargetTables {
  withService: boolean
  headers: string[]
  /** Where every target is, for the line under a table that hides some. */
  inFile: string
  budget: Budget
  guard: Guard
}

function targetTables(facts: SummaryFacts, budget: Budget, guard: Guard): TargetTables {
  const withService = facts.settings.services.length > 1
  return {
    withService,
    headers: ['Target', ...(withService ? ['Service'] : []), 'Type', 'Purge', 'Result', 'Purge id'],
    inFile: facts.resultsFile === '' ? 'the step log' : 'the <code>results-file</code>',
    budget,
    guard
  }
}

/** A table of a sample's targets, one row each; `what` names them in the "Showing …" line. */
function sampleTable(tables: TargetTables, sample: Sample, what: string, cap: number): Table {
  return table(
    tables.headers,
    sample.first,
    (result) => targetCells(result, tables.withService, tables.guard),
    tables.budget,
    cap,
    (count) =>
      `Showing ${count} of ${sample.count} ${what} targets; ${tables.inFile} holds them all.`,
    sample.count
  )
}

/** The failures by cause; it hides targets too when a cause shows only its first ones. */
function causeTable(tables: TargetTables, causes: Cause[]): Table {
  const shown = table(
    ['Cause', 'Targets', 'First targets'],
    causes,
    (cause) => causeCells(cause, tables.withService, tables.guard),
    tables.budget,
    SECTION_BYTES.failed,
    (count) => `Showing ${count} of ${causes.length} causes; ${tables.inFile} holds every target.`
  )
  const hidden = shown.hidden || causes.some((cause) => cause.first.length < cause.count)
  return { lines: ['<h3>Failed, by cause</h3>', ...shown.lines], hidden }
}

/** The target sections, and whether together they show every target. */
interface TargetSections {
  /** The failures by cause, shown before the edge check. */
  failures: string[]
  /** Those not sent and the successes or the plan, after it. */
  rest: string[]
  everyTargetShown: boolean
}

/**
 * Every target section, in the order they draw on the budget: the failures, then the successes
 * when open, then those not sent, then the successes when folded. The edge check is shown between
 * the failures and the rest but draws after both, and this order must stay, or the same run would
 * show other rows.
 */
export function targetSections(
  facts: SummaryFacts,
  causes: Cause[],
  budget: Budget,
  guard: Guard
): TargetSections {
  const { dryRun } = facts.settings
  const tables = targetTables(facts, budget, guard)
  // When nothing was sent, every target failed for the reason said above.
  const nothingSent = facts.notSent !== undefined
  const { failed: failedCount, total } = facts.counts
  const notSent: Sample = { first: [], count: nothingSent ? failedCount : 0 }
  const rest: Sample = { first: [], count: total - failedCount }
  // The other failures are shown by cause.
  sampleResults(facts.results, [notSent, rest], (result) =>
    result.status !== 'failed' ? rest : nothingSent ? notSent : undefined
  )
  const what = dryRun ? 'planned' : 'purged'
  const restOpen = dryRun || rest.count <= OPEN_LIST_LIMIT
  // Failures take their share of the budget first.
  const failures = nothingSent || failedCount === 0 ? undefined : causeTable(tables, causes)
  const openRest =
    restOpen && rest.count > 0
      ? sampleTable(tables, rest, what, SECTION_BYTES.succeeded)
      : undefined
  const notSentTable =
    notSent.count > 0 ? sampleTable(tables, notSent, 'not sent', SECTION_BYTES.notSent) : undefined
  // Folded only when more than OPEN_LIST_LIMIT: never empty.
  const foldedRest = restOpen ? undefined : sampleTable(tables, rest, what, SECTION_BYTES.succeeded)
  const fold = (sample: Sample, title: string, body: Table | undefined): string[] =>
    body === undefined ? [] : folded(`${counted(sample.count, 'target')} ${title}`, body.lines)
  return {
    failures: failures?.lines ?? [],
    rest: [
      ...fold(notSent, 'not sent', notSentTable),
      ...(openRest === undefined
        ? []
        : [`<h3>${dryRun ? 'Planned targets' : 'Purged'}</h3>`, ...openRest.lines]),
      ...fold(rest, what, foldedRest)
    ],
    everyTargetShown: ![failures, openRest, notSentTable, foldedRest].some((part) => part?.hidden)
  }
}
