/**
 * The job summary: the answer in its first line, then what went wrong, then what went right
 * (folded), within one byte budget whatever the run's size. Pure.
 */
import {
  describeCall,
  describeUrlWait,
  edgeCounts,
  notChecked,
  nothingToPurge,
  unreachable,
  type Counts,
  type PurgeCall,
  type PlannedStage,
  type PurgeResult,
  type Results,
  type RunContext,
  type RunRecord,
  type Verification,
  type WaitOutcome,
  type DerivedTarget,
  type Derivation,
  type ServiceRecord
} from '../record.js'
import { summaryText } from '../text/guard.js'
import { counted } from '../text/counted.js'
import type { WaitSettings } from '../config/settings.js'
import { briefly, failureCauses, refusedAndStopped, type Cause } from './causes.js'

/** Half of GitHub's 1 MiB per step: a summary over the limit is dropped whole, not cut. */
export const SUMMARY_MAX_BYTES = 512 * 1024
/** Rows per table: enough to find any failure by eye, few enough to read. */
export const SUMMARY_ROW_LIMIT = 250
/** Entries in a list of URLs (the wait, a dry run's checks): the log holds every one. */
const LIST_ITEM_LIMIT = 50
/**
 * The most each section may take, so that a huge early section leaves room for the later ones;
 * they share the one budget too, so together they never pass `SUMMARY_MAX_BYTES`.
 */
const SECTION_BYTES = {
  wait: 16 * 1024,
  planned: 40 * 1024,
  failed: 128 * 1024,
  stale: 96 * 1024,
  notSent: 16 * 1024,
  calls: 24 * 1024,
  fresh: 32 * 1024,
  succeeded: 56 * 1024,
  derivation: 56 * 1024
} as const
const SHOWN_TARGET_CHARS = 160
const SHOWN_SERVICE_CHARS = 64
const SHOWN_ID_CHARS = 128
const SHOWN_ERROR_CHARS = 400
const SHOWN_TEXT_CHARS = 80
/** A successful run of at most this many targets shows them open: a short list is read at a glance. */
const OPEN_LIST_LIMIT = 20
/** The targets shown for each cause of a failure; the results file holds every one. */
const TARGETS_PER_CAUSE = 5
/** A url-map with many prefixes or a key-map with many keys can give one file many targets. */
const SHOWN_TARGETS_PER_FILE = 10
/** Where a user learns to keep the results file, which the runner deletes with the job. */
const KEEP_RESULTS_DOC =
  'https://github.com/edge-purge/edge-purge/blob/v1/docs/results.md#keep-the-results-file'

export interface SummaryFacts {
  results: Results
  counts: Counts
  services: string[]
  /** `mode: all`: each target is a whole service. */
  purgeAll: boolean
  dryRun: boolean
  repeatAfterMs: number
  derivation: Derivation | undefined
  calls: readonly PurgeCall[]
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  /** Why the run ended early (a cancel), shown first. */
  stopped: string | undefined
  /** An unexpected error that ended the run after planning, shown first too. */
  unexpectedError: string | undefined
  /** The wait for the origin, when there was one. */
  wait: (WaitSettings & { outcome: WaitOutcome }) | undefined
  /** The edge check, when one was made. */
  edgeCheck: EdgeCheck | undefined
  /** In a dry run: what would be awaited and checked at the edge. */
  plannedStages: PlannedStage[]
  /** With `changed-since: last-purge`: what is recorded for each service, once the report is written. */
  records: ServiceRecord[]
}

export interface EdgeCheck {
  entries: Verification[]
  /** The URLs judged by the text (`verify-urls` with `verify-text`); the rest by `Age`. */
  textUrls: string[]
  /** The URLs whose `Age` proved nothing: not a whole number of seconds. */
  malformedAge: string[]
}

const STATUS_CELL = { purged: '✅ purged', failed: '❌ failed', planned: '📝 planned' } as const

const code = (text: string, maxChars?: number): string =>
  `<code>${summaryText(text, maxChars)}</code>`

/** Bytes left for the sections; each takes what it uses, up to its own cap. */
class Budget {
  constructor(private left: number) {}

  /** The leading items that fit in `cap` and in what is left, counted as used. */
  take(items: string[], cap: number): string[] {
    let room = Math.min(cap, this.left)
    let count = 0
    for (const item of items) {
      const bytes = Buffer.byteLength(item) + 1
      if (bytes > room) break
      room -= bytes
      this.left -= bytes
      count += 1
    }
    return items.slice(0, count)
  }
}

/** Nothing was sent because the wait for the origin did not end well: why, in a few words. */
function notSentBecause({ wait, dryRun }: SummaryFacts): string | undefined {
  if (dryRun || wait === undefined || wait.outcome.done) return undefined
  return wait.outcome.cancelled ? 'cancelled during the wait' : 'the origin was not ready'
}

/** What the targets came to: a count each way, the whole service for purge-all, the one cause. */
function outcome(facts: SummaryFacts, causes: Cause[]): string {
  const { counts, purgeAll, results } = facts
  const [only] = causes
  // When nothing was sent, the headline says why once, after the counts.
  const cause =
    causes.length === 1 && only !== undefined && notSentBecause(facts) === undefined
      ? `: ${summaryText(briefly(only.reason), 200)}`
      : ''
  if (!purgeAll) return `${counts.purged} purged, ${counts.failed} failed${cause}`
  const purged: string[] = []
  const failed: string[] = []
  for (const { status, target } of results) (status === 'purged' ? purged : failed).push(target)
  const ids = (list: string[]): string => summaryText(list.join(', '), 200)
  return [
    purged.length > 0 ? `everything in ${ids(purged)} purged` : undefined,
    failed.length > 0 ? `${ids(failed)} not purged${cause}` : undefined
  ]
    .filter((part) => part !== undefined)
    .join('; ')
}

/** The run's answer, in the first line: what was purged, what failed, what visitors still get stale. */
function heading(facts: SummaryFacts, causes: Cause[]): string {
  const { counts, dryRun, services, derivation } = facts
  const title =
    services.length === 0 ? 'Edge purge' : `Edge purge of ${summaryText(services.join(', '))}`
  if (counts.total === 0 && derivation !== undefined) {
    return `${title}: nothing to purge: ${summaryText(nothingToPurge(derivation.report))}`
  }
  if (dryRun) {
    const planned = facts.purgeAll ? 'everything planned' : `${counts.planned} planned`
    return `${title} (dry run): ${planned}, nothing sent`
  }
  const edge = edgeCounts(facts.edgeCheck?.entries ?? [])
  const notSent = notSentBecause(facts)
  return (
    `${title}: ${outcome(facts, causes)}` +
    (edge.stale > 0 ? `, <b>${counted(edge.stale, 'page')} still stale</b>` : '') +
    (edge.unreachable > 0 ? `, <b>${counted(edge.unreachable, 'page')} unreachable</b>` : '') +
    (edge.unchecked > 0 ? `, <b>${counted(edge.unchecked, 'page')} not checked</b>` : '') +
    (notSent === undefined ? '' : `, <b>nothing sent</b>: ${notSent}`)
  )
}

function scopeLine(facts: SummaryFacts): string {
  const { counts, calls, repeatAfterMs, dryRun, purgeAll } = facts
  const sent = dryRun || notSentBecause(facts) !== undefined ? ' planned, none sent' : ''
  const what = purgeAll
    ? `purge-all of ${counted(counts.total, 'service')}`
    : counted(counts.total, 'target')
  return [
    `${what} in ${counted(calls.length, 'call')}${sent}`,
    repeatAfterMs > 0
      ? `purged twice, ${repeatAfterMs / 1000} s apart (repeat-after): a target counts as purged only when both passes purged it`
      : undefined
  ]
    .filter((part) => part !== undefined)
    .join(' · ')
}

/** Event, repository, commit, workflow and run: whichever the runner set (all of them, in a real run). */
function contextLine(context: RunContext): string {
  const where = context.sha === '' ? '' : ` at ${code(context.sha.slice(0, 7), 7)}`
  const parts = [
    `${summaryText(context.event || 'run')} on ${code(context.repository)}${where}`,
    context.workflow === '' ? undefined : `workflow <b>${summaryText(context.workflow)}</b>`,
    Number.isInteger(context.runNumber) && context.runNumber > 0
      ? runLink(context.runNumber, context.runUrl)
      : undefined
  ]
  return parts.filter((part) => part !== undefined).join(', ')
}

/** An empty `runUrl` means the runner gave no usable run id: an `href=""` would link this page. */
function runLink(runNumber: number, runUrl: string): string {
  return runUrl === ''
    ? `run ${runNumber}`
    : `<a href="${summaryText(runUrl)}">run ${runNumber}</a>`
}

/** A list of at most `LIST_ITEM_LIMIT` items within `cap` bytes, then how many more there are. */
function list(items: string[], budget: Budget, cap: number, where: string): string[] {
  const shown = budget.take(items.slice(0, LIST_ITEM_LIMIT), cap)
  const more = items.length - shown.length
  return [
    '<ul>',
    ...shown.map((item) => `<li>${item}</li>`),
    ...(more > 0 ? [`<li>… and ${more} more: ${where}</li>`] : []),
    '</ul>'
  ]
}

/** The wait: what the origin showed, or why no purge call was sent and what each URL answered. */
function waitSection(wait: NonNullable<SummaryFacts['wait']>, budget: Budget): string[] {
  const { text, passes, outcome } = wait
  const seconds = Math.round(outcome.elapsedMs / 1000)
  const shown = text === undefined ? 'answered 2xx' : `showed ${code(text, SHOWN_TEXT_CHARS)}`
  const checks = (item: WaitOutcome['urls'][number]): string =>
    `${counted(item.checks, 'check')} of ${code(item.url, SHOWN_TARGET_CHARS)}`
  if (outcome.done || outcome.cancelled) {
    const lead = outcome.done
      ? `The origin ${shown} after ${seconds} s:`
      : `Waited ${seconds} s for the origin before the cancel:`
    const items = outcome.urls.map(checks)
    return [`<p>${lead}</p>`, ...list(items, budget, SECTION_BYTES.wait, 'the step log has each')]
  }
  const failure = outcome.failure ?? 'the origin was not ready'
  const waiting = outcome.urls.filter((item) => item.passedInARow < passes)
  const items = waiting.map((item) =>
    summaryText(describeUrlWait(item, { text, passes }), SHOWN_ERROR_CHARS)
  )
  return [
    `<p><b>No purge call was sent:</b> ${summaryText(failure, SHOWN_ERROR_CHARS)}.</p>`,
    ...list(items, budget, SECTION_BYTES.wait, 'the step log has each')
  ]
}

/** A dry run: each URL it would wait for and check at the edge, as the log lists each call. */
function plannedSection(stages: PlannedStage[], budget: Budget): string[] {
  return stages.flatMap(({ sentence, urls }) => [
    `<p>${summaryText(sentence, 2 * SHOWN_ERROR_CHARS)}</p>`,
    ...(urls.length === 0
      ? []
      : list(
          urls.map((url) => code(url, SHOWN_TARGET_CHARS)),
          budget,
          SECTION_BYTES.planned / Math.max(1, stages.length),
          'the step log lists every one'
        ))
  ])
}

/**
 * What a run records of its purge of one service, and what the next run compares from. The record
 * is closed after this summary is written, so it says what will be recorded.
 */
function recordLine({ service, sha, state, why }: ServiceRecord): string {
  const at = sha.slice(0, 7)
  switch (state) {
    case 'success':
      return `To be recorded as the last complete purge of ${service}, at ${at}: the next run with changed-since: last-purge compares from it.`
    case 'failure':
      return `To be recorded as an incomplete purge of ${service} (${why}): the next run compares from the last complete purge again.`
    case 'not written':
      return `Not recorded for ${service}: GitHub refused (${why}); the next run compares from the older record, which purges more, never less.`
  }
}

/** A table of rows within the row limit and `cap` bytes, then how many more the file holds. */
function table<T>(
  headers: string[],
  items: readonly T[],
  row: (item: T) => string,
  budget: Budget,
  cap: number,
  more: (shown: number) => string,
  total = items.length
): { lines: string[]; hidden: boolean } {
  // Only the rows that can be shown are rendered: a run may hold 100,000 results.
  const shown = budget.take(items.slice(0, SUMMARY_ROW_LIMIT).map(row), cap)
  const hidden = shown.length < total
  return {
    lines: [
      `<table><tr>${headers.map((header) => `<th>${header}</th>`).join('')}</tr>`,
      ...shown,
      '</table>',
      ...(hidden ? [`<p>${more(shown.length)}</p>`] : [])
    ],
    hidden
  }
}

/** The first results a table can show, and how many there are in all. */
interface Sample {
  first: PurgeResult[]
  count: number
}

/** Folded by default: counted in its one-line title, opened on demand. */
function folded(title: string, body: string[]): string[] {
  return [`<details><summary>${title}</summary>`, ...body, '</details>']
}

function targetRow(result: PurgeResult, withService: boolean): string {
  const cells = [
    code(result.target, SHOWN_TARGET_CHARS),
    ...(withService
      ? [result.service === null ? '' : code(result.service, SHOWN_SERVICE_CHARS)]
      : []),
    result.type,
    result.soft ? 'soft' : 'instant',
    result.status === 'failed' ? '❌ not sent' : STATUS_CELL[result.status],
    result.id === null ? '' : code(result.id, SHOWN_ID_CHARS)
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** A target where several services or types meet: `key <code>home</code> (svc2)`. */
function namedTarget(result: PurgeResult, withService: boolean): string {
  const service =
    withService && result.service !== null ? ` (${code(result.service, SHOWN_SERVICE_CHARS)})` : ''
  return `${result.type}&nbsp;${code(result.target, SHOWN_TARGET_CHARS)}${service}`
}

/** One row per cause: what it was, how many targets it failed, and the first of them. */
function causeRow(cause: Cause, withService: boolean): string {
  const how = refusedAndStopped(cause)
  const more = cause.count - cause.first.length
  const targets = [
    ...cause.first.map((result) => namedTarget(result, withService)),
    ...(more > 0 ? [`…and ${more} more`] : [])
  ]
  const cells = [
    `❌ ${summaryText(cause.reason, SHOWN_ERROR_CHARS)}`,
    `${cause.count}${how === undefined ? '' : `<br>${how}`}`,
    targets.join(', ')
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** A dry run's calls: what would be sent where, one row each. */
function callsSection(calls: readonly PurgeCall[], budget: Budget): string[] {
  if (calls.length === 0) return []
  const row = (call: PurgeCall): string => `<tr><td>${code(describeCall(call))}</td></tr>`
  const { lines } = table(
    ['Call'],
    calls,
    row,
    budget,
    SECTION_BYTES.calls,
    (shown) => `Showing ${shown} of ${calls.length} calls; the step log lists every one.`
  )
  return ['<h3>Planned calls</h3>', ...lines]
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

/** The target sections, and whether together they show every target. */
interface TargetSections {
  /** The failures by cause, shown before the edge check. */
  failures: string[]
  /** Those not sent and the successes or the plan, after it. */
  rest: string[]
  everyTargetShown: boolean
}

/**
 * The targets: failures by cause, open and first; then, folded, those not sent for the reason
 * already said above (the wait); then the successes or a dry run's plan, open when the list is
 * short or a dry run shows what it would purge.
 */
function targetSections(facts: SummaryFacts, causes: Cause[], budget: Budget): TargetSections {
  const { services, dryRun } = facts
  const withService = services.length > 1
  const headers = [
    'Target',
    ...(withService ? ['Service'] : []),
    'Type',
    'Purge',
    'Result',
    'Purge id'
  ]
  // When nothing was sent, every target failed for the reason said above.
  const nothingSent = notSentBecause(facts) !== undefined
  const { failed: failedCount, total } = facts.counts
  const notSent: Sample = { first: [], count: nothingSent ? failedCount : 0 }
  const rest: Sample = { first: [], count: total - failedCount }
  // The other failures are shown by cause.
  sampleResults(facts.results, [notSent, rest], (result) =>
    result.status !== 'failed' ? rest : nothingSent ? notSent : undefined
  )
  const inFile = facts.resultsFile === '' ? 'the step log' : 'the <code>results-file</code>'
  let hidden = false
  const section = (list: Sample, what: string, cap: number): string[] => {
    const shown = table(
      headers,
      list.first,
      (result) => targetRow(result, withService),
      budget,
      cap,
      (count) => `Showing ${count} of ${list.count} ${what} targets; ${inFile} holds them all.`,
      list.count
    )
    hidden ||= shown.hidden
    return shown.lines
  }
  const byCause = (): string[] => {
    const shown = table(
      ['Cause', 'Targets', 'First targets'],
      causes,
      (cause) => causeRow(cause, withService),
      budget,
      SECTION_BYTES.failed,
      (count) => `Showing ${count} of ${causes.length} causes; ${inFile} holds every target.`
    )
    hidden ||= shown.hidden || causes.some((cause) => cause.first.length < cause.count)
    return ['<h3>Failed, by cause</h3>', ...shown.lines]
  }
  const what = dryRun ? 'planned' : 'purged'
  const restOpen = dryRun || rest.count <= OPEN_LIST_LIMIT
  // Failures take their share of the budget first.
  const failures = nothingSent || failedCount === 0 ? [] : byCause()
  const openRest = [
    ...(restOpen && rest.count > 0
      ? [
          `<h3>${dryRun ? 'Planned targets' : 'Purged'}</h3>`,
          ...section(rest, what, SECTION_BYTES.succeeded)
        ]
      : [])
  ]
  const foldedSection = (list: Sample, title: string, cap: number): string[] =>
    list.count === 0
      ? []
      : folded(`${counted(list.count, 'target')} ${title}`, section(list, title, cap))
  return {
    failures,
    rest: [
      ...foldedSection(notSent, 'not sent', SECTION_BYTES.notSent),
      ...openRest,
      ...(restOpen ? [] : foldedSection(rest, what, SECTION_BYTES.succeeded))
    ],
    everyTargetShown: !hidden
  }
}

/** What the verdict rests on: the text, the `Age`, or why neither could tell. */
function judgedBy(entry: Verification, byText: boolean, malformedAge: boolean): string {
  if (notChecked(entry)) return 'not checked'
  if (entry.http_status === null) return 'no answer'
  if (byText) return 'text'
  if (entry.age !== null) return `Age ${entry.age} s`
  return malformedAge ? 'malformed Age' : 'no Age'
}

/** Where a URL stands, with its status when it is not 2xx: a typo in verify-urls shows as a 404. */
function edgeCell(entry: Verification): string {
  const status = entry.http_status
  const beside = status !== null && (status < 200 || status >= 300) ? ` (HTTP ${status})` : ''
  if (entry.fresh) return `✅ fresh${beside}`
  if (notChecked(entry)) return '❌ not checked'
  if (unreachable(entry)) return '❌ unreachable'
  return `❌ stale${beside}`
}

function edgeRow(entry: Verification, judged: string): string {
  const cells = [
    code(entry.url, SHOWN_TARGET_CHARS),
    edgeCell(entry),
    judged,
    String(entry.checks),
    summaryText(entry.evidence, SHOWN_ERROR_CHARS)
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** Whether visitors get fresh copies: counts, each URL not known to be fresh, then the fresh ones folded. */
function edgeCheckSection(
  { entries, textUrls, malformedAge }: EdgeCheck,
  budget: Budget
): string[] {
  const byText = new Set(textUrls)
  const malformed = new Set(malformedAge)
  // A fresh page that answered 3xx or 4xx is worth a look (a typo in verify-urls answers 404).
  const plain = (entry: Verification): boolean =>
    entry.fresh && entry.http_status !== null && entry.http_status >= 200 && entry.http_status < 300
  const notFresh = entries.filter((entry) => !plain(entry))
  const fresh = entries.filter(plain)
  const counts = edgeCounts(entries)
  const headers = ['URL', 'Edge', 'Age or text', 'Checks', 'Evidence']
  const row = (entry: Verification): string =>
    edgeRow(entry, judgedBy(entry, byText.has(entry.url), malformed.has(entry.url)))
  const more =
    (total: number, what: string) =>
    (shown: number): string =>
      `Showing ${shown} of ${total} ${what}; the <code>verification-file</code> output holds them all.`
  const byAge = entries.filter((entry) => !byText.has(entry.url))
  const blind =
    byAge.length > 0 &&
    byAge.every(
      (entry) => entry.age === null && entry.http_status !== null && !malformed.has(entry.url)
    )
  const bold = (count: number, what: string): string =>
    count > 0 ? `, <b>${count} ${what}</b>` : ''
  return [
    '<h3>Edge check</h3>',
    `<p>${counts.fresh} of ${counted(entries.length, 'URL')} fresh` +
      bold(counts.stale, 'stale') +
      bold(counts.unreachable, 'unreachable') +
      bold(counts.unchecked, 'not checked') +
      '.</p>',
    ...(notFresh.length > 0
      ? table(
          headers,
          notFresh,
          row,
          budget,
          SECTION_BYTES.stale,
          more(notFresh.length, 'URLs not fresh or not 2xx')
        ).lines
      : []),
    ...(fresh.length > 0
      ? folded(
          `${counted(fresh.length, 'URL')} fresh`,
          table(headers, fresh, row, budget, SECTION_BYTES.fresh, more(fresh.length, 'fresh URLs'))
            .lines
        )
      : []),
    ...(blind
      ? [
          '<p>No checked response carried an <code>Age</code> header, so the check could not tell whether these copies came after the purge; use <code>verify-text</code> for pages that show the release.</p>'
        ]
      : [])
  ]
}

function fileRow(file: string, targets: DerivedTarget[]): string {
  const more = targets.length - SHOWN_TARGETS_PER_FILE
  const shown = targets
    .slice(0, SHOWN_TARGETS_PER_FILE)
    .map(({ type, target }) => `${type} ${code(target, SHOWN_TARGET_CHARS)}`)
  const list = more > 0 ? [...shown, `…and ${more} more`] : shown
  return `<tr><td>${code(file, SHOWN_TARGET_CHARS)}</td><td>${list.join('<br>')}</td></tr>`
}

/** Which changed files produced which targets, so users can tune url-map and key-map. */
function derivationSection({ report, targets }: Derivation, budget: Budget): string[] {
  const byFile = new Map<string, DerivedTarget[]>()
  for (const derived of targets) {
    const list = byFile.get(derived.file) ?? []
    list.push(derived)
    byFile.set(derived.file, list)
  }
  if (targets.length === 0) {
    return [
      `<h3>Targets from changed files</h3>`,
      `<p>None: ${summaryText(nothingToPurge(report))}.</p>`
    ]
  }
  return [
    `<h3>Targets from changed files</h3>`,
    `<p>${counted(report.files.length, 'file')} changed in ${summaryText(report.description)}; ` +
      `${byFile.size} of them produced ${counted(targets.length, 'target')}.</p>`,
    ...table(
      ['Changed file', 'Targets'],
      [...byFile],
      ([file, list]) => fileRow(file, list),
      budget,
      SECTION_BYTES.derivation,
      (shown) => `Showing ${shown} of ${byFile.size} files; the step log lists every one.`
    ).lines
  ]
}

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
}

/** The job summary of a run: its first line is the answer, then what went wrong, then the rest. */
export function renderSummary(record: RunRecord, { resultsFile, context }: SummarySetting): string {
  const { settings, verification } = record
  return renderFacts({
    results: record.results,
    counts: record.counts,
    services: settings.services.map((service) => service.id),
    dryRun: settings.dryRun,
    repeatAfterMs: settings.repeatAfterMs,
    derivation: record.derivation,
    purgeAll: settings.purgeAll,
    calls: record.calls,
    resultsFile,
    context,
    stopped: record.stopped,
    unexpectedError: record.unexpectedError,
    plannedStages: record.plannedStages,
    records: record.records,
    wait:
      record.wait === undefined || settings.wait === undefined
        ? undefined
        : { ...settings.wait, outcome: record.wait },
    edgeCheck:
      verification === undefined
        ? undefined
        : {
            entries: verification.entries,
            textUrls: settings.verify.text === undefined ? [] : settings.verify.urls,
            malformedAge: verification.malformedAge
          }
  })
}

/** The summary from the facts it shows, each read from the record once (`renderSummary`). */
export function renderFacts(facts: SummaryFacts): string {
  const causes = facts.counts.failed === 0 ? [] : failureCauses(facts.results, TARGETS_PER_CAUSE)
  const head = [`<h2>${heading(facts, causes)}</h2>`]
  for (const early of [facts.stopped, facts.unexpectedError]) {
    if (early !== undefined) head.push(`<p><b>${summaryText(early)}</b></p>`)
  }
  // With nothing to purge, the headline says why: no scope of 0 targets in 0 calls.
  if (facts.counts.total > 0) head.push(`<p>${scopeLine(facts)}</p>`)
  if (facts.context !== undefined) head.push(`<p>${contextLine(facts.context)}</p>`)
  const end = footer(facts)
  // What the sections say besides their rows and items (titles, table heads, "Showing …" lines,
  // a dry run's sentences) is bounded and few: at most about 30 KiB at the widest escaping.
  const reserve = 40 * 1024
  const fixed = Buffer.byteLength([...head, end].join('\n'))
  const budget = new Budget(SUMMARY_MAX_BYTES - fixed - reserve)

  const body: string[] = []
  if (facts.wait !== undefined) body.push(...waitSection(facts.wait, budget))
  body.push(...plannedSection(facts.plannedStages, budget))
  if (facts.dryRun) body.push(...callsSection(facts.calls, budget))
  const targets = targetSections(facts, causes, budget)
  body.push(...targets.failures)
  if (facts.edgeCheck !== undefined) body.push(...edgeCheckSection(facts.edgeCheck, budget))
  body.push(...targets.rest)
  // With nothing to purge at all, the headline has already said why.
  if (facts.derivation !== undefined && facts.counts.total > 0) {
    body.push(...derivationSection(facts.derivation, budget))
  }
  body.push(...facts.records.map((record) => `<p>${summaryText(recordLine(record))}</p>`))
  const pointer = facts.resultsFile === '' || !targets.everyTargetShown ? [end] : []
  return [...head, ...body, ...pointer].join('\n')
}
