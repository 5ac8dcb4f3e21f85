/**
 * What the edge check says of a finished run: the bold counts of the summary's first line, the
 * step's failure sentences, an annotation per kind of problem, and why the run is not complete.
 */
import { describe, expect, it } from '@jest/globals'
import type { EdgeCheckEntry } from '../../../src/capabilities/edge-check/record.js'
import { edgeCheckVerdict } from '../../../src/capabilities/edge-check/verdict.js'
import { guardAgainst } from '../../../src/text/guard.js'
import { staleEntry } from '../../support/edge-entries.js'
import { NO_SECRETS } from '../../support/guard.js'
import { elementCounts } from '../../support/rendered-markdown.js'
import { purgeResult } from '../../support/run-record.js'
import { headlineOf, summaryOf } from '../../support/summary-html.js'

const stale = staleEntry
const fresh = (url: string): EdgeCheckEntry => ({
  ...stale(url, 'Age 0 s, purge began 2 s ago'),
  fresh: true,
  age: 0
})
const late = (url: string): EdgeCheckEntry => ({
  ...stale(url, 'not checked within verify-timeout: raise verify-timeout or concurrency'),
  http_status: null,
  age: null,
  checks: 0
})
const unreached = (url: string, evidence: string): EdgeCheckEntry => ({
  ...stale(url, evidence),
  http_status: null,
  age: null
})

describe('the edge check’s verdict', () => {
  it('has nothing to say when every page is fresh', () => {
    expect(edgeCheckVerdict([fresh('https://www.example.com/a')], NO_SECRETS)).toEqual({
      headline: [],
      problems: [],
      annotations: [],
      incomplete: undefined
    })
  })

  it('a page still stale: its count, the step’s failure, an annotation naming it and its evidence', () => {
    const entries = [
      stale(
        'https://www.example.com/about',
        'Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
      ),
      fresh('https://www.example.com/blog/1')
    ]
    expect(edgeCheckVerdict(entries, NO_SECRETS)).toEqual({
      headline: ['1 page still stale'],
      problems: [
        '1 of 2 URLs checked at the edge is still stale after the purge; the job summary and the verification output give the evidence'
      ],
      annotations: [
        '"https://www.example.com/about" is still stale at the edge after the purge: Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
      ],
      incomplete: '1 page not fresh at the edge'
    })
  })

  it('pages never checked are not known to be fresh, counted apart from stale ones', () => {
    const entries = [late('https://www.example.com/a'), late('https://www.example.com/b')]
    expect(edgeCheckVerdict(entries, NO_SECRETS)).toEqual({
      headline: ['2 pages not checked'],
      problems: [
        '2 of 2 URLs to check at the edge were not checked, so they are not known to be fresh; the verification output says why'
      ],
      annotations: [
        '2 URLs are not known to be fresh: not checked within verify-timeout: raise verify-timeout or concurrency'
      ],
      incomplete: '2 pages not fresh at the edge'
    })
  })

  it('a page that could not be reached is unreachable, not stale', () => {
    const refused = 'connection failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9'
    expect(edgeCheckVerdict([unreached('https://www.exmaple.com/', refused)], NO_SECRETS)).toEqual({
      headline: ['1 page unreachable'],
      problems: [
        '1 of 1 URL to check at the edge could not be reached, so it is not known to be fresh; the verification output says why'
      ],
      annotations: [
        `"https://www.exmaple.com/" could not be reached at the edge, so not known to be fresh: ${refused}`
      ],
      incomplete: '1 page not fresh at the edge'
    })
  })

  it('makes one annotation per kind and evidence, the most URLs first, each ending with its evidence', () => {
    const other = 'Age 90 s, but the purge began 3 s ago'
    const refused = 'connection failed (ECONNREFUSED)'
    const entries = [
      stale('https://www.example.com/other', other),
      unreached('https://www.exmaple.com/', refused),
      late('https://www.example.com/late-1'),
      ...['a', 'b', 'c'].map((path) => stale(`https://www.example.com/${path}`)),
      late('https://www.example.com/late-2'),
      fresh('https://www.example.com/fresh')
    ]
    const { annotations = [], headline } = edgeCheckVerdict(entries, NO_SECRETS)
    // A group of one names its URL; a larger group, how many URLs.
    expect(annotations.map((line) => line.split(' ')[0])).toEqual([
      '3',
      '2',
      '"https://www.example.com/other"',
      '"https://www.exmaple.com/"'
    ])
    // Each ends with the evidence its URLs share, after the first `: `.
    expect(annotations.map((line) => line.slice(line.indexOf(': ') + 2))).toEqual([
      stale('').evidence,
      late('').evidence,
      other,
      refused
    ])
    expect(headline).toEqual(['4 pages still stale', '1 page unreachable', '2 pages not checked'])
  })

  it('keeps each annotation on one line, the run’s secrets hidden', () => {
    const token = 'tok-9fQ2xL7vR4m'
    const entries = [
      stale(`https://www.example.com/?t=${token}`, `HTTP 200\n::error::${token}`),
      stale('https://www.example.com/b', `Age 1 s\r\nsaid ${token}`)
    ]
    const { annotations = [] } = edgeCheckVerdict(entries, guardAgainst([token]))
    expect(annotations).toHaveLength(2)
    for (const line of annotations) {
      expect(line.split(/[\r\n]/)).toHaveLength(1)
      expect(line).not.toContain(token)
    }
  })

  it('shows its counts in bold in the summary’s first line, after the targets’', () => {
    const html = summaryOf({
      results: [purgeResult({ target: 'a' })],
      edgeCheck: {
        entries: [
          stale('https://www.example.com/old'),
          late('https://www.example.com/b'),
          late('https://www.example.com/c')
        ],
        cancelled: false,
        malformedAge: []
      }
    })
    expect(headlineOf(html)).toBe(
      'Edge purge of svc123: 1 purged, 0 failed, 1 page still stale, 2 pages not checked'
    )
    expect(elementCounts(html.split('\n')[0] ?? '').b).toBe(2)
  })
})
