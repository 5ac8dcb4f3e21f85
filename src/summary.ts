/** The job summary: counts, the run behind the purge, and a table of targets, failures first. Pure. */
import type { DerivedTarget } from './changed-files.js'
import type { Derivation } from './derivation.js'
import type { RunContext } from './run-context.js'
import type { Counts, PurgeResult } from './results.js'
import { summaryText } from './outside-text.js'
import { counted } from './counted.js'
import type { WaitForOrigin } from './inputs.js'
import type { Verification } from './verify-stage.js'
import type { WaitOutcome } from './wait-stage.js'

/** Keeps the summary readable and far below GitHub's 1 MiB limit even for 1024-byte keys. */
export const SUMMARY_ROW_LIMIT = 250
/**
 * Each table stops adding rows at this size, so that even rows whose every shown string is cut at
 * its longest and escaped at its widest keep the whole summary far below GitHub's 1 MiB limit.
 */
const TABLE_BUDGET_BYTES = 192 * 1024
const SHOWN_TARGET_CHARS = 160
const SHOWN_SERVICE_CHARS = 64
const SHOWN_ID_CHARS = 128
const SHOWN_ERROR_CHARS = 400
const SHOWN_TEXT_CHARS = 80
/** A dry run's sentence names every wait-for-url: a few of them, whole, and the timeout after. */
const SHOWN_PLAN_CHARS = 1000
/** A url-map with many prefixes or a key-map with many keys can give one file many targets. */
const SHOWN_TARGETS_PER_FILE = 10

export interface SummaryFacts {
  results: PurgeResult[]
  counts: Counts
  services: string[]
  dryRun: boolean
  repeatAfterMs: number
  derivation: Derivation | undefined
  calls: number
  resultsFile: string
  context: RunContext | undefined
  /** Why the run ended early (a cancel), shown first. */
  stopped: string | undefined
  /** The wait for the origin, when there was one. */
  wait: (WaitForOrigin & { outcome: WaitOutcome }) | undefined
  /** The edge check, when one was made. */
  edgeCheck: EdgeCheck | undefined
  /** What a dry run would have awaited and checked at the edge, one sentence each. */
  stagesPlanned: string[]
}

export interface EdgeCheck {
  entries: Verification[]
  /** The URLs judged by the text (`verify-urls` with `verify-text`); the rest by `Age`. */
  textUrls: string[]
}

const STATUS_CELL = { purged: '✅ purged', failed: '❌ failed', planned: '📝 planned' } as const

const code = (text: string, maxChars?: number): string =>
  `<code>${summaryText(text, maxChars)}</code>`

function heading(facts: SummaryFacts): string {
  const { counts, dryRun, services } = facts
  const title =
    services.length === 0 ? 'Edge purge' : `Edge purge of ${summaryText(services.join(', '))}`
  if (dryRun) return `${title} (dry run): ${counts.planned} planned, nothing sent`
  return `${title}: ${counts.purged} purged, ${counts.failed} failed`
}

/** Event, repository, commit, workflow and run: whichever the runner set (all of them, in a real run). */
function contextLine(context: RunContext): string {
  const where = context.sha === '' ? '' : ` at ${code(context.sha.slice(0, 7), 7)}`
  const parts = [
    `${summaryText(context.event || 'run')} on ${code(context.repository)}${where}`,
    context.workflow === '' ? undefined : `workflow <b>${summaryText(context.workflow)}</b>`,
    Number.isInteger(context.runNumber) && context.runNumber > 0
      ? `<a href="${summaryText(context.runUrl)}">run ${context.runNumber}</a>`
      : undefined
  ]
  return parts.filter((part) => part !== undefined).join(', ')
}

function row(result: PurgeResult, withService: boolean): string {
  const outcome =
    result.status === 'failed' && result.error !== null
      ? `${STATUS_CELL.failed}: ${summaryText(result.error, SHOWN_ERROR_CHARS)}`
      : STATUS_CELL[result.status]
  const cells = [
    code(result.target, SHOWN_TARGET_CHARS),
    ...(withService
      ? [result.service === null ? '' : code(result.service, SHOWN_SERVICE_CHARS)]
      : []),
    result.type,
    result.soft ? 'soft' : 'instant',
    outcome,
    result.id === null ? '' : code(result.id, SHOWN_ID_CHARS)
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** Failures first, then the rest, each in request order, up to the row limit. */
function shownRows(results: PurgeResult[]): PurgeResult[] {
  const shown: PurgeResult[] = []
  for (const status of ['failed', 'purged', 'planned'] as const) {
    for (const result of results) {
      if (shown.length === SUMMARY_ROW_LIMIT) return shown
      if (result.status === status) shown.push(result)
    }
  }
  return shown
}

/** The leading rows that fit in the table's byte budget. */
function withinBudget(rows: string[]): string[] {
  let bytes = 0
  for (const [index, html] of rows.entries()) {
    bytes += Buffer.byteLength(html)
    if (bytes > TABLE_BUDGET_BYTES) return rows.slice(0, index)
  }
  return rows
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
function derivationSection({ report, targets }: Derivation): string[] {
  const byFile = new Map<string, DerivedTarget[]>()
  for (const derived of targets) {
    const list = byFile.get(derived.file) ?? []
    list.push(derived)
    byFile.set(derived.file, list)
  }
  const rows = withinBudget(
    [...byFile].slice(0, SUMMARY_ROW_LIMIT).map(([file, list]) => fileRow(file, list))
  )
  return [
    `<h3>Targets from changed files</h3>`,
    `<p>${counted(report.files.length, 'file')} changed in ${summaryText(report.description)}; ` +
      `${byFile.size} of them produced ${counted(targets.length, 'target')}.</p>`,
    '<table><tr><th>Changed file</th><th>Targets</th></tr>',
    ...rows,
    '</table>',
    ...(rows.length < byFile.size ? [`<p>Showing ${rows.length} of ${byFile.size} files.</p>`] : [])
  ]
}

/** One line on the wait: what the origin showed, after how long and how many checks. */
function waitLine({ text, timeoutMs, outcome }: NonNullable<SummaryFacts['wait']>): string {
  const seconds = Math.round(outcome.elapsedMs / 1000)
  const checks = outcome.urls
    .map(
      ({ url, checks: count }) => `${counted(count, 'check')} of ${code(url, SHOWN_TARGET_CHARS)}`
    )
    .join(', ')
  const shown = text === undefined ? 'answered 2xx' : `showed ${code(text, SHOWN_TEXT_CHARS)}`
  if (outcome.done) return `<p>The origin ${shown} after ${seconds} s (${checks}).</p>`
  if (outcome.cancelled)
    return `<p>Waited ${seconds} s for the origin (${checks}) before the cancel.</p>`
  const awaited = text === undefined ? 'answer 2xx' : `show ${code(text, SHOWN_TEXT_CHARS)}`
  return (
    `<p><b>The origin did not ${awaited} within ${timeoutMs / 1000} s: no purge call was sent.</b> ` +
    `${summaryText(outcome.failure ?? '', SHOWN_ERROR_CHARS)}</p>`
  )
}

function edgeRow(entry: Verification, byText: boolean): string {
  const judged = byText ? 'text' : entry.age === null ? 'no Age' : `Age ${entry.age} s`
  const cells = [
    code(entry.url, SHOWN_TARGET_CHARS),
    entry.fresh ? '✅ fresh' : '❌ stale',
    judged,
    String(entry.checks),
    summaryText(entry.evidence, SHOWN_ERROR_CHARS)
  ]
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
}

/** Whether visitors get fresh copies: counts, then each URL checked, stale first. */
function edgeCheckSection({ entries, textUrls }: EdgeCheck): string[] {
  const byText = new Set(textUrls)
  const stale = entries.filter((entry) => !entry.fresh)
  const ordered = [...stale, ...entries.filter((entry) => entry.fresh)]
  const rows = withinBudget(
    ordered.slice(0, SUMMARY_ROW_LIMIT).map((entry) => edgeRow(entry, byText.has(entry.url)))
  )
  const byAge = entries.filter((entry) => !byText.has(entry.url))
  const blind =
    byAge.length > 0 && byAge.every((entry) => entry.age === null && entry.http_status !== null)
  return [
    '<h3>Edge check</h3>',
    `<p>${entries.length - stale.length} of ${counted(entries.length, 'URL')} fresh` +
      `${stale.length > 0 ? `, <b>${stale.length} stale</b>` : ''}.</p>`,
    '<table><tr><th>URL</th><th>Edge</th><th>Age or text</th><th>Checks</th><th>Evidence</th></tr>',
    ...rows,
    '</table>',
    ...(rows.length < entries.length
      ? [
          `<p>Showing ${rows.length} of ${entries.length} URLs (stale first). The <code>verification-file</code> output holds them all.</p>`
        ]
      : []),
    ...(blind
      ? [
          '<p>No checked response carried an <code>Age</code> header, so the check could not tell whether these copies came after the purge; use <code>verify-text</code> for pages that show the release.</p>'
        ]
      : [])
  ]
}

export function renderSummary(facts: SummaryFacts): string {
  const { results, counts } = facts
  const withService = facts.services.length > 1
  const parts = [`<h2>${heading(facts)}</h2>`]
  if (facts.stopped !== undefined) parts.push(`<p><b>${summaryText(facts.stopped)}</b></p>`)
  const seconds = facts.repeatAfterMs / 1000
  const scope = [
    `${counted(results.length, 'target')} in ${counted(facts.calls, 'call')}`,
    facts.repeatAfterMs > 0
      ? `purged twice, ${seconds} s apart (repeat-after): a target counts as purged only when both passes purged it`
      : undefined,
    facts.dryRun ? 'dry run: no request was sent' : undefined,
    !facts.dryRun && counts.failed > 0 ? `<b>${counts.failed} failed</b>` : undefined
  ].filter((part) => part !== undefined)
  parts.push(`<p>${scope.join(' · ')}</p>`)
  if (facts.context !== undefined) parts.push(`<p>${contextLine(facts.context)}</p>`)
  if (facts.wait !== undefined) parts.push(waitLine(facts.wait))
  for (const line of facts.stagesPlanned)
    parts.push(`<p>${summaryText(line, SHOWN_PLAN_CHARS)}</p>`)

  if (facts.derivation !== undefined) parts.push(...derivationSection(facts.derivation))

  const rows = withinBudget(shownRows(results).map((result) => row(result, withService)))
  const headers = [
    'Target',
    ...(withService ? ['Service'] : []),
    'Type',
    'Purge',
    'Result',
    'Purge id'
  ]
  parts.push(
    `<table><tr>${headers.map((header) => `<th>${header}</th>`).join('')}</tr>`,
    ...rows,
    '</table>'
  )
  if (rows.length < results.length) {
    parts.push(
      `<p>Showing ${rows.length} of ${results.length} targets (failures first). ` +
        `The <code>results-file</code> output (${code(facts.resultsFile)}) holds them all.</p>`
    )
  }
  if (facts.edgeCheck !== undefined) parts.push(...edgeCheckSection(facts.edgeCheck))
  return parts.join('\n')
}
