/** The job summary: counts, the run behind the purge, and a table of targets, failures first. Pure. */
import type { Derivation } from './derivation.js'
import type { RunContext } from './run-context.js'
import type { Counts, PurgeResult } from './results.js'
import { cut } from './server-message.js'
import { counted } from './counted.js'

/** Keeps the summary readable and far below GitHub's 1 MiB limit even for 1024-byte keys. */
export const SUMMARY_ROW_LIMIT = 250
const SHOWN_TARGET_CHARS = 160

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
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;'
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
}

const STATUS_CELL = { purged: '✅ purged', failed: '❌ failed', planned: '📝 planned' } as const

function heading(facts: SummaryFacts): string {
  const { counts, dryRun, services } = facts
  const title = services.length === 0 ? 'Edge purge' : `Edge purge of ${services.join(', ')}`
  if (dryRun) return `${title} (dry run): ${counts.planned} planned, nothing sent`
  return `${title}: ${counts.purged} purged, ${counts.failed} failed`
}

/** Event, repository, commit, workflow and run: whichever the runner set (all of them, in a real run). */
function contextLine(context: RunContext): string {
  const where = context.sha === '' ? '' : ` at <code>${escapeHtml(context.sha.slice(0, 7))}</code>`
  const parts = [
    `${escapeHtml(context.event || 'run')} on <code>${escapeHtml(context.repository)}</code>${where}`,
    context.workflow === '' ? undefined : `workflow <b>${escapeHtml(context.workflow)}</b>`,
    Number.isInteger(context.runNumber) && context.runNumber > 0
      ? `<a href="${escapeHtml(context.runUrl)}">run ${context.runNumber}</a>`
      : undefined
  ]
  return parts.filter((part) => part !== undefined).join(', ')
}

function row(result: PurgeResult, withService: boolean): string {
  const outcome =
    result.status === 'failed' && result.error !== null
      ? `${STATUS_CELL.failed}: ${escapeHtml(result.error)}`
      : STATUS_CELL[result.status]
  const cells = [
    `<code>${escapeHtml(cut(result.target, SHOWN_TARGET_CHARS))}</code>`,
    ...(withService
      ? [result.service === null ? '' : `<code>${escapeHtml(result.service)}</code>`]
      : []),
    result.type,
    result.soft ? 'soft' : 'instant',
    outcome,
    result.id === null ? '' : `<code>${escapeHtml(result.id)}</code>`
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

/** Which changed files produced which targets, so users can tune url-map and key-map. */
function derivationSection({ report, targets }: Derivation): string[] {
  const byFile = new Map<string, string[]>()
  for (const { file, type, target } of targets) {
    const list = byFile.get(file) ?? []
    list.push(`${type} <code>${escapeHtml(cut(target, SHOWN_TARGET_CHARS))}</code>`)
    byFile.set(file, list)
  }
  const shown = [...byFile].slice(0, SUMMARY_ROW_LIMIT)
  return [
    `<h3>Targets from changed files</h3>`,
    `<p>${counted(report.files.length, 'file')} changed in ${escapeHtml(report.description)}; ` +
      `${byFile.size} of them produced ${counted(targets.length, 'target')}.</p>`,
    '<table><tr><th>Changed file</th><th>Targets</th></tr>',
    ...shown.map(
      ([file, list]) =>
        `<tr><td><code>${escapeHtml(file)}</code></td><td>${list.join('<br>')}</td></tr>`
    ),
    '</table>',
    ...(shown.length < byFile.size
      ? [`<p>Showing ${shown.length} of ${byFile.size} files.</p>`]
      : [])
  ]
}

export function renderSummary(facts: SummaryFacts): string {
  const { results, counts } = facts
  const withService = facts.services.length > 1
  const parts = [`<h2>${escapeHtml(heading(facts))}</h2>`]
  if (facts.stopped !== undefined) parts.push(`<p><b>${escapeHtml(facts.stopped)}</b></p>`)
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

  if (facts.derivation !== undefined) parts.push(...derivationSection(facts.derivation))

  const rows = shownRows(results)
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
    ...rows.map((result) => row(result, withService)),
    '</table>'
  )
  if (rows.length < results.length) {
    parts.push(
      `<p>Showing ${rows.length} of ${results.length} targets (failures first). ` +
        `The <code>results-file</code> output (<code>${escapeHtml(facts.resultsFile)}</code>) holds them all.</p>`
    )
  }
  return parts.join('\n')
}
