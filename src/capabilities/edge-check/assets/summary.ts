/**
 * What the summary and the step's end say of the files the checked pages load: the broken ones
 * first, with the page that loads them and what the action did, then the healed ones, then counts.
 */
import type { Verdict } from '../../capability.js'
import { counted } from '../../../text/counted.js'
import type { Guard } from '../../../text/guard.js'
import { shorten } from '../../../text/shown.js'
import {
  code,
  folded,
  SECTION_BYTES,
  SHOWN_ERROR_CHARS,
  SHOWN_TARGET_CHARS,
  table,
  type Budget
} from '../../../report-kit/budget.js'
import type { AssetEntry, EdgeCheckEntry, PageAssetCounts } from '../record.js'

/** A server's words are cut to 300 characters; this leaves room for what surrounds them. */
const SHOWN_REASON_CHARS = 400

/** The files with this verdict. */
const withVerdict = (files: AssetEntry[], verdict: AssetEntry['verdict']): AssetEntry[] =>
  files.filter((file) => file.verdict === verdict)

/** The first page that loads a file, and how many others do. */
function loadedBy({ page, pages }: AssetEntry, show: (url: string) => string): string {
  return pages > 1 ? `${show(page)} and ${counted(pages - 1, 'other page')}` : show(page)
}

/** Missing files fail the step, as stale pages do; a run with one is not complete. */
export function assetsVerdict(
  files: AssetEntry[],
  entries: EdgeCheckEntry[],
  guard: Guard
): Verdict {
  const broken = withVerdict(files, 'broken')
  if (broken.length === 0) return {}
  const pages = entries.filter((entry) => (entry.assets?.broken ?? 0) > 0).length
  const show = (url: string): string => shorten(guard, url)
  return {
    headline: [`${counted(pages, 'page')} load${pages === 1 ? 's' : ''} a missing file`],
    problems: [
      `${broken.length} of ${counted(files.length, 'file')} the checked pages load ${broken.length === 1 ? 'is' : 'are'} missing at the edge; the job summary and the assets-file output name each`
    ],
    annotations: broken.map(
      (file) =>
        `${show(file.url)} is missing at the edge, loaded by ${loadedBy(file, show)}: ${guard.oneLine(file.evidence, SHOWN_REASON_CHARS)}`
    ),
    incomplete: `${counted(broken.length, 'file')} missing at the edge`
  }
}

/** The pages that load more files than are checked, and how many each left unchecked. */
function overLimit(entries: EdgeCheckEntry[], guard: Guard): string | undefined {
  const over = entries.filter((entry) => (entry.assets?.over_limit ?? 0) > 0)
  if (over.length === 0) return undefined
  const named = over.map(
    (entry) => `${code(guard, entry.url, SHOWN_TARGET_CHARS)} (${entry.assets?.over_limit ?? 0})`
  )
  return `<p>Not checked, over the limit of 100 files a page and 1,000 a run: ${named.join(', ')}.</p>`
}

/** The files' counts in one line, the broken in bold. */
function countsLine(files: AssetEntry[], entries: EdgeCheckEntry[]): string {
  const total = (key: keyof PageAssetCounts): number =>
    entries.reduce((sum, entry) => sum + (entry.assets?.[key] ?? 0), 0)
  const broken = withVerdict(files, 'broken').length
  return (
    `<p>${counted(files.length, 'file')} the pages load checked: ` +
    `${withVerdict(files, 'whole').length} whole, ${withVerdict(files, 'healed').length} healed, ` +
    `${broken > 0 ? `<b>${broken} broken</b>` : '0 broken'}, ` +
    `${withVerdict(files, 'not_judged').length} not judged; ` +
    `${total('other_host')} on another host, not checked.</p>`
  )
}

/** The Assets part of the edge check: broken files, then healed ones, then the counts. */
export function assetsSection(
  files: AssetEntry[],
  entries: EdgeCheckEntry[],
  budget: Budget,
  guard: Guard
): string[] {
  const show = (url: string): string => code(guard, url, SHOWN_TARGET_CHARS)
  const row = (file: AssetEntry): string[] => [
    show(file.url),
    loadedBy(file, show),
    file.http_status === null ? 'no answer' : String(file.http_status),
    guard.summaryText(file.evidence, SHOWN_ERROR_CHARS),
    file.purged ? 'purged, checked again' : 'not purged'
  ]
  const headers = ['File', 'Loaded by', 'Status', 'Evidence', 'Action']
  const more =
    (what: string) =>
    (shown: number): string =>
      `Showing ${shown} ${what}; the <code>assets-file</code> output holds them all.`
  const broken = withVerdict(files, 'broken')
  const healed = withVerdict(files, 'healed')
  return [
    '<h4>Assets</h4>',
    ...(broken.length > 0
      ? table(headers, broken, row, budget, SECTION_BYTES.assets, more('broken files')).lines
      : []),
    ...(healed.length > 0
      ? folded(
          `${counted(healed.length, 'file')} healed: a cached error, purged`,
          table(headers, healed, row, budget, SECTION_BYTES.assets, more('healed files')).lines
        )
      : []),
    countsLine(files, entries),
    ...[overLimit(entries, guard)].filter((line) => line !== undefined)
  ]
}
