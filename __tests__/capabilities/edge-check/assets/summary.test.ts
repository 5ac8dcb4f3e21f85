/**
 * What the run's report says of the files the checked pages load: the summary's first line and its
 * Assets part, the step's end, and whether the run is complete.
 */
import { describe, expect, it } from '@jest/globals'
import type { AssetEntry, EdgeCheckEntry } from '../../../../src/capabilities/edge-check/record.js'
import { assetsVerdict } from '../../../../src/capabilities/edge-check/assets/summary.js'
import { conclude } from '../../../../src/report/conclusion.js'
import { settingsWith } from '../../../../tools/defaults.js'
import { NO_SECRETS } from '../../../support/guard.js'
import { recordedLog } from '../../../support/recorded-log.js'
import { runRecord } from '../../../support/run-record.js'
import {
  cellsOf,
  foldsOf,
  headlineOf,
  paragraphsOf,
  summaryOf,
  withoutOwnMarkup
} from '../../../support/summary-html.js'

const PAGE = 'https://www.example.com/'
const OTHER_PAGE = 'https://www.example.com/blog/'

const file = (url: string, overrides: Partial<AssetEntry> = {}): AssetEntry => ({
  url,
  page: PAGE,
  pages: 1,
  http_status: 200,
  age: 0,
  verdict: 'whole',
  purged: false,
  evidence: 'HTTP 200',
  ...overrides
})
const missing = (url: string, pages = 1): AssetEntry =>
  file(url, {
    pages,
    http_status: 404,
    verdict: 'broken',
    evidence: 'the origin answers 404: the page loads a file the deploy did not upload'
  })
const healed = (url: string): AssetEntry =>
  file(url, { verdict: 'healed', purged: true, evidence: 'HTTP 200 after the purge' })

const page = (url: string, counts: Partial<NonNullable<EdgeCheckEntry['assets']>>) => ({
  url,
  fresh: true,
  http_status: 200,
  age: 0,
  checks: 1,
  evidence: 'Age 0 s, purge began 2 s ago',
  assets: { whole: 0, broken: 0, healed: 0, not_judged: 0, other_host: 0, over_limit: 0, ...counts }
})

/** A run whose pages are fresh and whose files are these, with verify-assets on. */
function checked(files: AssetEntry[], entries: EdgeCheckEntry[]) {
  const edgeCheck = { purgedUrls: true, urls: [], text: undefined, timeoutMs: 60_000, assets: true }
  return {
    settings: settingsWith({ edgeCheck }),
    edgeCheck: { entries, cancelled: false, malformedAge: [], assets: files }
  }
}

const APP = 'https://www.example.com/assets/app.3f9c1.js'
const CSS = 'https://www.example.com/assets/site.77a0e.css'

describe('files the pages load, in the report', () => {
  it('says nothing when every file is whole or healed, and the run stays complete', () => {
    const entries = [page(PAGE, { whole: 1, healed: 1 })]
    expect(assetsVerdict([file(CSS), healed(APP)], entries, NO_SECRETS)).toEqual({})
  })

  it('names the pages that load a missing file first in the headline, and fails the step', () => {
    const entries = [page(PAGE, { broken: 1, whole: 1 }), page(OTHER_PAGE, { broken: 1 })]
    const run = checked([missing(APP, 2), file(CSS)], entries)
    expect(headlineOf(summaryOf(run))).toBe(
      'Edge purge of svc123: 0 purged, 0 failed, 2 pages load a missing file'
    )
    const log = recordedLog()
    const failed: string[] = []
    conclude(runRecord(run), { log, fail: (message) => failed.push(message), guard: NO_SECRETS })
    expect(failed).toHaveLength(1)
    const errors = log.lines.filter((line) => line.startsWith('error: '))
    expect(errors).toHaveLength(1)
    // The annotation names the file, the first page that loads it, and the evidence.
    expect(errors[0]).toContain(APP)
    expect(errors[0]).toContain(PAGE)
    expect(errors[0]).toContain('did not upload')
    expect(assetsVerdict([missing(APP)], entries, NO_SECRETS).incomplete).toBe(
      '1 file missing at the edge'
    )
  })

  it('lists the broken files open, the healed ones folded, then the counts', () => {
    const entries = [page(PAGE, { broken: 1, healed: 1, whole: 1, other_host: 2 })]
    const html = summaryOf(
      checked([missing(APP, 3), healed(CSS), file(`${PAGE}logo.png`)], entries)
    )
    const rows = cellsOf(html)
    const brokenRow = rows.find((row) => row[0]?.includes('app.3f9c1.js'))
    expect(brokenRow?.slice(1)).toEqual([
      `${PAGE} and 2 other pages`,
      '404',
      'the origin answers 404: the page loads a file the deploy did not upload',
      'not purged'
    ])
    expect(rows.find((row) => row[0]?.includes('site.77a0e.css'))?.[4]).toBe(
      'purged, checked again'
    )
    expect(foldsOf(html)).toContain('1 file healed: a cached error, purged')
    expect(paragraphsOf(html)).toContain(
      '3 files the pages load checked: 1 whole, 1 healed, 1 broken, 0 not judged; 2 on another host, not checked.'
    )
    expect(withoutOwnMarkup(html)).not.toMatch(/[<>]/)
  })

  it('names the pages that went over the limit, and by how many', () => {
    const entries = [page(PAGE, { whole: 100, over_limit: 7 })]
    const html = summaryOf(checked([file(APP)], entries))
    expect(paragraphsOf(html).at(-1)).toBe(
      `Not checked, over the limit of 100 files a page and 1,000 a run: ${PAGE} (7).`
    )
  })

  it('shows no Assets part without verify-assets', () => {
    const html = summaryOf({ edgeCheck: { entries: [], cancelled: false, malformedAge: [] } })
    expect(html).not.toContain('<h4>Assets</h4>')
  })
})
