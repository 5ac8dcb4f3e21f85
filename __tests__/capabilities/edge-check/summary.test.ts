/**
 * The edge check's section of the job summary: how many URLs stand each way, a row for each URL
 * not fresh or not 2xx with what its verdict rests on, the fresh ones folded, within its bound.
 */
import { describe, expect, it } from '@jest/globals'
import type { EdgeCheckEntry } from '../../../src/capabilities/edge-check/record.js'
import { edgeCheckSection } from '../../../src/capabilities/edge-check/summary.js'
import { Budget, SECTION_BYTES, SUMMARY_MAX_BYTES } from '../../../src/report-kit/budget.js'
import { NO_SECRETS } from '../../support/guard.js'
import { elementCounts, renderMarkdown, textOf } from '../../support/rendered-markdown.js'
import {
  foldsOf,
  notesOf,
  paragraphsOf,
  tablesOf,
  withoutOwnMarkup
} from '../../support/summary-html.js'

const entry = (url: string, overrides: Partial<EdgeCheckEntry> = {}): EdgeCheckEntry => ({
  url,
  fresh: true,
  http_status: 200,
  age: 0,
  checks: 1,
  evidence: 'Age 0 s, purge began 2 s ago (X-Cache: MISS)',
  ...overrides
})

const STALE = {
  fresh: false,
  age: 3600,
  checks: 4,
  evidence: 'Age 3600 s, but the purge began 3 s ago'
}
const UNREACHED = {
  fresh: false,
  http_status: null,
  age: null,
  checks: 3,
  evidence: 'connection failed (ENOTFOUND): getaddrinfo ENOTFOUND www.exmaple.com'
}
const LATE = {
  fresh: false,
  http_status: null,
  age: null,
  checks: 0,
  evidence: 'not checked within verify-timeout: raise verify-timeout or concurrency'
}

/** The section of a check of these entries; `byText` are the verify-urls judged by verify-text. */
function section(
  entries: EdgeCheckEntry[],
  { byText = [] as string[], malformedAge = [] as string[], bytes = SUMMARY_MAX_BYTES } = {}
): string {
  const settings = {
    purgedUrls: true,
    timeoutMs: 60_000,
    assets: false,
    urls: byText,
    text: byText.length === 0 ? undefined : 'abc1234'
  }
  const outcome = { entries, cancelled: false, malformedAge }
  return edgeCheckSection(outcome, settings, new Budget(bytes), NO_SECRETS).join('\n')
}

/** Each row as its URL, where it stands, and what the verdict rests on. */
const verdicts = (html: string): string[][][] =>
  tablesOf(html).map(({ rows }) => rows.map(([url = '', edge = '', by = '']) => [url, edge, by]))

describe('the edge check in the summary', () => {
  it('counts the URLs each way, those not fresh in bold', () => {
    const html = section([
      entry('https://www.example.com/a'),
      entry('https://www.example.com/old', STALE),
      entry('https://www.exmaple.com/', UNREACHED),
      entry('https://www.example.com/late', LATE)
    ])
    expect(paragraphsOf(html)[0]).toBe('1 of 4 URLs fresh, 1 stale, 1 unreachable, 1 not checked.')
    expect(elementCounts(html.split('\n')[1] ?? '').b).toBe(3)
  })

  it('shows each URL not fresh or not 2xx first, with what its verdict rests on; the fresh ones folded', () => {
    const html = section(
      [
        entry('https://www.example.com/blog/1', { evidence: 'showed "abc1234"' }),
        entry('https://www.example.com/old', STALE),
        entry('https://www.exmaple.com/', UNREACHED),
        entry('https://www.example.com/late', LATE),
        entry('https://www.example.com/typo', { http_status: 404 }),
        entry('https://www.example.com/odd', { ...STALE, age: null }),
        entry('https://www.example.com/home')
      ],
      { byText: ['https://www.example.com/blog/1'], malformedAge: ['https://www.example.com/odd'] }
    )
    const [notFresh, fresh] = tablesOf(html)
    expect(notFresh?.head).toEqual(['URL', 'Edge', 'Age or text', 'Checks', 'Evidence'])
    expect(verdicts(html)).toEqual([
      [
        ['https://www.example.com/old', '❌ stale', 'Age 3600 s'],
        ['https://www.exmaple.com/', '❌ unreachable', 'no answer'],
        ['https://www.example.com/late', '❌ not checked', 'not checked'],
        ['https://www.example.com/typo', '✅ fresh (HTTP 404)', 'Age 0 s'],
        ['https://www.example.com/odd', '❌ stale', 'malformed Age']
      ],
      [
        ['https://www.example.com/blog/1', '✅ fresh', 'text'],
        ['https://www.example.com/home', '✅ fresh', 'Age 0 s']
      ]
    ])
    expect(notFresh?.rows[0]?.slice(3)).toEqual(['4', STALE.evidence])
    expect(fresh?.rows.map((row) => row[3])).toEqual(['1', '1'])
    expect(foldsOf(html)).toEqual(['2 URLs fresh'])
    expect(html.indexOf('<details>')).toBeGreaterThan(html.indexOf('example.com/odd'))
  })

  it('says the check could tell nothing when no response judged by Age carried one', () => {
    const blind = section([entry('https://www.example.com/a', { age: null })])
    expect(paragraphsOf(blind)).toHaveLength(2)
    expect(paragraphsOf(blind)[1]).toContain('could not tell')
    // Not when an Age was malformed (the row says so), nor for the pages judged by verify-text.
    const malformed = section([entry('https://www.example.com/a', { ...STALE, age: null })], {
      malformedAge: ['https://www.example.com/a']
    })
    const byText = section([entry('https://www.example.com/a', { age: null })], {
      byText: ['https://www.example.com/a']
    })
    const unreached = section([entry('https://www.exmaple.com/', UNREACHED)])
    for (const html of [malformed, byText, unreached]) expect(paragraphsOf(html)).toHaveLength(1)
  })

  it('keeps URLs and evidence as text: no element made of what a server said', () => {
    const hostile = '<img src=x onerror=alert(1)> **bold** [link](https://evil.example)'
    const html = section([
      entry(`https://www.example.com/${hostile}`, { ...STALE, evidence: hostile }),
      entry(`https://www.example.com/ok${hostile}`, { evidence: hostile })
    ])
    expect(withoutOwnMarkup(html)).not.toMatch(/[<>]/)
    const counts = elementCounts(renderMarkdown(html))
    for (const tag of ['img', 'a', 'strong', 'em']) expect(counts[tag]).toBeUndefined()
    expect(textOf(html).split(hostile)).toHaveLength(5)
  })

  it('shows the rows its bounds allow and counts the rest, fresh and not fresh alike', () => {
    const long = (index: number): string => `https://www.example.com/${index}/${'"'.repeat(400)}`
    const entries = Array.from({ length: 5000 }, (_, index) =>
      entry(long(index), index % 2 === 0 ? { ...STALE, evidence: '"'.repeat(100_000) } : {})
    )
    const html = section(entries)
    const bound = SECTION_BYTES.stale + SECTION_BYTES.fresh + 1024
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(bound)
    const notes = notesOf(html)
    expect(notes.map(({ total }) => total)).toEqual([2500, 2500])
    const [notFresh, fresh] = tablesOf(html)
    expect(notes.map(({ shown }) => shown)).toEqual([notFresh?.rows.length, fresh?.rows.length])
    expect(notFresh?.rows.length).toBeGreaterThan(20)
    // With little budget left, the section still says how many there are.
    const starved = section(entries, { bytes: 0 })
    expect(paragraphsOf(starved)[0]).toBe(paragraphsOf(html)[0])
    expect(notesOf(starved).map(({ shown }) => shown)).toEqual([0, 0])
  })
})
