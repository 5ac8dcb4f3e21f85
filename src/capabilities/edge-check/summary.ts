/** The edge check: whether visitors get fresh copies, URL by URL, and what each verdict rests on. */
import {
  edgeCounts,
  notChecked,
  unreachable,
  type EdgeCheckEntry,
  type EdgeCheckOutcome
} from './record.js'
import { counted } from '../../text/counted.js'
import type { Guard } from '../../text/guard.js'
import {
  code,
  folded,
  SECTION_BYTES,
  SHOWN_ERROR_CHARS,
  SHOWN_TARGET_CHARS,
  table,
  type Budget
} from '../../report-kit/budget.js'
import type { EdgeCheckSettings } from '../../config/settings.js'

/** What the verdict rests on: the text, the `Age`, or why neither could tell. */
function judgedBy(entry: EdgeCheckEntry, byText: boolean, malformedAge: boolean): string {
  if (notChecked(entry)) return 'not checked'
  if (entry.http_status === null) return 'no answer'
  if (byText) return 'text'
  if (entry.age !== null) return `Age ${entry.age} s`
  return malformedAge ? 'malformed Age' : 'no Age'
}

/** Where a URL stands, with its status when it is not 2xx: a typo in verify-urls shows as a 404. */
function edgeCell(entry: EdgeCheckEntry): string {
  const status = entry.http_status
  const beside = status !== null && (status < 200 || status >= 300) ? ` (HTTP ${status})` : ''
  if (entry.fresh) return `✅ fresh${beside}`
  if (notChecked(entry)) return '❌ not checked'
  if (unreachable(entry)) return '❌ unreachable'
  return `❌ stale${beside}`
}

function edgeCells(entry: EdgeCheckEntry, judged: string, guard: Guard): string[] {
  return [
    code(guard, entry.url, SHOWN_TARGET_CHARS),
    edgeCell(entry),
    judged,
    String(entry.checks),
    guard.summaryText(entry.evidence, SHOWN_ERROR_CHARS)
  ]
}

/** How many URLs are fresh, and in bold how many are stale, unreachable or not checked. */
function countsLine(entries: EdgeCheckEntry[]): string {
  const counts = edgeCounts(entries)
  const bold = (count: number, what: string): string =>
    count > 0 ? `, <b>${count} ${what}</b>` : ''
  return (
    `<p>${counts.fresh} of ${counted(entries.length, 'URL')} fresh` +
    bold(counts.stale, 'stale') +
    bold(counts.unreachable, 'unreachable') +
    bold(counts.unchecked, 'not checked') +
    '.</p>'
  )
}

/** Whether every URL judged by `Age` answered without one: the check could tell nothing of them. */
function blindByAge(
  entries: EdgeCheckEntry[],
  byText: Set<string>,
  malformed: Set<string>
): boolean {
  const byAge = entries.filter((entry) => !byText.has(entry.url))
  return (
    byAge.length > 0 &&
    byAge.every(
      (entry) => entry.age === null && entry.http_status !== null && !malformed.has(entry.url)
    )
  )
}

/** Whether visitors get fresh copies: counts, each URL not known to be fresh, then the fresh ones folded. */
export function edgeCheckSection(
  { entries, malformedAge }: EdgeCheckOutcome,
  settings: EdgeCheckSettings | undefined,
  budget: Budget,
  guard: Guard
): string[] {
  // The URLs of verify-urls are judged by verify-text when given; the rest by `Age`.
  const byText = new Set(settings?.text === undefined ? [] : settings.urls)
  const malformed = new Set(malformedAge)
  // A fresh page that answered 3xx or 4xx is worth a look (a typo in verify-urls answers 404).
  const plain = (entry: EdgeCheckEntry): boolean =>
    entry.fresh && entry.http_status !== null && entry.http_status >= 200 && entry.http_status < 300
  const notFresh = entries.filter((entry) => !plain(entry))
  const fresh = entries.filter(plain)
  const headers = ['URL', 'Edge', 'Age or text', 'Checks', 'Evidence']
  const row = (entry: EdgeCheckEntry): string[] =>
    edgeCells(entry, judgedBy(entry, byText.has(entry.url), malformed.has(entry.url)), guard)
  const more =
    (total: number, what: string) =>
    (shown: number): string =>
      `Showing ${shown} of ${total} ${what}; the <code>verification-file</code> output holds them all.`
  return [
    '<h3>Edge check</h3>',
    countsLine(entries),
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
    ...(blindByAge(entries, byText, malformed)
      ? [
          '<p>No checked response carried an <code>Age</code> header, so the check could not tell whether these copies came after the purge; use <code>verify-text</code> for pages that show the release.</p>'
        ]
      : [])
  ]
}
