/** Unit tests of the job summary: escaped, failures first, readable and small at any size. */
import { describe, expect, it } from '@jest/globals'
import type { DerivedTarget } from '../src/changed-files/maps.js'
import type { Derivation } from '../src/changed-files/index.js'
import { oneLine } from '../src/outside-text.js'
import { countResults, type PurgeResult } from '../src/results.js'
import type { RunContext } from '../src/run-context.js'
import { renderSummary, SUMMARY_ROW_LIMIT, type SummaryFacts } from '../src/summary.js'
import type { Verification } from '../src/verify-stage.js'
import type { WaitOutcome } from '../src/wait-stage.js'
import { derivationOf } from './support/derivation.js'
import { elementCounts, renderMarkdown, textOf } from './support/rendered-markdown.js'

const RESULTS_FILE = '/home/runner/work/_temp/edge-purge-results-1.json'

function result(target: string, overrides: Partial<PurgeResult> = {}): PurgeResult {
  return {
    type: 'key',
    target,
    service: 'svc123',
    soft: false,
    status: 'purged',
    id: `id-${target.slice(0, 20)}`,
    http_status: 200,
    attempts: 1,
    error: null,
    ...overrides
  }
}

function failedResult(target: string, error: string): PurgeResult {
  return result(target, { status: 'failed', id: null, http_status: 400, error })
}

function render(results: PurgeResult[], overrides: Partial<SummaryFacts> = {}): string {
  return renderSummary({
    results,
    counts: countResults(results),
    services: ['svc123'],
    dryRun: false,
    repeatAfterMs: 0,
    derivation: undefined,
    calls: 1,
    resultsFile: RESULTS_FILE,
    context: undefined,
    stopped: undefined,
    wait: undefined,
    edgeCheck: undefined,
    plannedStages: [],
    ...overrides
  })
}

const CONTEXT: RunContext = {
  repository: 'octo/site',
  sha: 'abcdef1234567890abcdef1234567890abcdef12',
  event: 'push',
  workflow: 'Deploy',
  runNumber: 42,
  runUrl: 'https://github.com/octo/site/actions/runs/99'
}

/** The rows of the table, header excluded. */
const rowsOf = (html: string): string[] => html.match(/<tr><td>.*?<\/tr>/g) ?? []

/** The markup the summary itself writes; anything else would be injected. */
function withoutOwnMarkup(html: string): string {
  return html
    .replace(/<\/?(h2|p|code|b|table|tr|th|td)>/g, '')
    .replace(/<a href="[^"<>]*">/g, '')
    .replace(/<\/a>/g, '')
}

const HOSTILE = '<img src=x onerror=alert(1)>'

const derivation = (targets: DerivedTarget[], description?: string): Derivation =>
  derivationOf(targets, { description })

/** What GitHub's renderer would make of it: every element, counted by tag. */
const renderedElements = (html: string): Record<string, number> =>
  elementCounts(renderMarkdown(html))

/** Issue 9: a file name that ended the summary's HTML block and rendered as a heading and a link. */
const BREAKING_FILE = 'public/a\n\n# Heading\n\n[link](https://evil.example)'
const MARKDOWN =
  '![x](https://evil.example/i.png) **bold** _em_ `tick` ~~gone~~ a|b www.evil.example'

describe('renderSummary', () => {
  it('heads with the counts and names the service', () => {
    const html = render([result('a'), result('b'), failedResult('c', 'HTTP 400 (Bad Request)')])
    const heading = /<h2>(.*)<\/h2>/.exec(html)?.[1] ?? ''
    expect(heading).toContain('2 purged, 1 failed')
    expect(heading).toContain('svc123')
    expect(html).toContain('3 targets in 1 call')
    expect(html).toContain('<b>1 failed</b>')
  })

  it('shows each target with its type, instant or soft, result and id', () => {
    const html = render([
      result('home', { id: '1-2-3' }),
      result('https://www.example.com/a', { type: 'url', soft: true, id: '4-5-6' })
    ])
    const [first, second] = rowsOf(html)
    expect(first).toContain('<code>home</code>')
    expect(first).toContain('instant')
    expect(first).toContain('purged')
    expect(first).toContain('<code>1-2-3</code>')
    expect(second).toContain('url')
    expect(second).toContain('soft')
    expect(second).toContain('<code>4-5-6</code>')
  })

  it('shows a failure with its reason', () => {
    const html = render([failedResult('k', 'service svc123 not found (404)')])
    const [row] = rowsOf(html)
    expect(row).toContain('failed')
    expect(textOf(row ?? '')).toContain('service svc123 not found (404)')
  })

  it('lists failures first, each group in request order', () => {
    const html = render([
      result('p1'),
      failedResult('f1', 'HTTP 400 (Bad Request)'),
      result('p2'),
      failedResult('f2', 'HTTP 400 (Bad Request)')
    ])
    const order = rowsOf(html).map((row) => /<code>([^<]*)<\/code>/.exec(row)?.[1])
    expect(order).toEqual(['f1', 'f2', 'p1', 'p2'])
  })

  it('escapes markup in targets, errors, ids, service, results-file and context', () => {
    const html = render(
      [
        failedResult(HOSTILE, `HTTP 400: ${HOSTILE} <script>alert(2)</script>`),
        result(`a"b'c&d`, { id: `<b>${HOSTILE}</b>` })
      ],
      {
        services: [`svc${HOSTILE}`],
        resultsFile: `/tmp/${HOSTILE}.json`,
        context: {
          repository: `octo/${HOSTILE}`,
          sha: '<svg/onload=alert(3)>',
          event: `push${HOSTILE}`,
          workflow: `Deploy</b>${HOSTILE}`,
          runNumber: 7,
          runUrl: 'https://github.com/octo/site/actions/runs/1" onmouseover="alert(4)'
        }
      }
    )
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<svg')
    expect(html).not.toContain('" onmouseover')
    expect(html).toContain('&lt;img src=x onerror=alert&#40;1&#41;&gt;')
    expect(html).toContain('a&quot;b&#39;c&amp;d')
    expect(textOf(html)).toContain(HOSTILE)
    const leftover = withoutOwnMarkup(html)
    expect(leftover).not.toMatch(/[<>]/)
  })

  it('keeps the table to SUMMARY_ROW_LIMIT rows and says where the rest are', () => {
    const results = Array.from({ length: 1000 }, (_, index) => result(`key-${index}`))
    const html = render(results)
    expect(rowsOf(html)).toHaveLength(SUMMARY_ROW_LIMIT)
    expect(html).toContain(`Showing ${SUMMARY_ROW_LIMIT} of 1000`)
    expect(html).toContain('results-file')
    expect(textOf(html)).toContain(RESULTS_FILE)
  })

  it('says nothing about hidden rows when every target is shown', () => {
    const results = Array.from({ length: SUMMARY_ROW_LIMIT }, (_, index) => result(`k${index}`))
    const html = render(results)
    expect(rowsOf(html)).toHaveLength(SUMMARY_ROW_LIMIT)
    expect(html).not.toContain('Showing')
  })

  it('shows failures that come last in a long run within the capped table', () => {
    const results = Array.from({ length: 5000 }, (_, index) => result(`key-${index}`))
    results.push(failedResult('late-failure', 'HTTP 400 (Bad Request)'))
    const html = render(results)
    expect(rowsOf(html)[0]).toContain('late-failure')
    expect(html).toContain('Showing')
    expect(html).toContain('<b>1 failed</b>')
  })

  it('renders 20,000 long-keyed results far under 1 MiB', () => {
    const results = Array.from({ length: 20_000 }, (_, index) => {
      const key = `key-${index}-`.padEnd(1024, 'k')
      return index % 10 === 0
        ? failedResult(key, `HTTP 503 (Service Unavailable): ${'upstream overloaded '.repeat(15)}`)
        : result(key, { id: `1740093-1756794994-${index}` })
    })
    const html = render(results, { context: CONTEXT, calls: 79 })
    expect(Buffer.byteLength(html)).toBeLessThan(256 * 1024)
    expect(html).toContain(`Showing ${SUMMARY_ROW_LIMIT} of 20000`)
    expect(html).not.toContain('k'.repeat(1000))
  })

  it('in a dry run, says that nothing was sent', () => {
    const planned = ['a', 'b', 'c'].map((target) =>
      result(target, { status: 'planned', id: null, http_status: null, attempts: 0 })
    )
    const html = render(planned, { dryRun: true })
    const heading = /<h2>(.*)<\/h2>/.exec(html)?.[1] ?? ''
    expect(heading).toContain('(dry run): 3 planned, nothing sent')
    expect(heading).not.toContain('purged')
    expect(html).toContain('no request was sent')
    expect(rowsOf(html).every((row) => row.includes('planned'))).toBe(true)
  })

  it('in a dry run, says what it would have awaited and checked at the edge, as plain text', () => {
    const planned = [result('blog', { status: 'planned', id: null, http_status: null })]
    const wait =
      'Would first wait until https://origin.example/version shows "<b>abc</b>" (1 check in a row, up to 600 s)'
    const check =
      'Would then check at the edge every purged URL, by Age, re-checking stale ones for up to 60 s'
    const html = render(planned, { dryRun: true, plannedStages: [wait, check] })
    const text = textOf(renderMarkdown(html))
    expect(text).toContain(wait)
    expect(text).toContain(check)
    expect(elementCounts(renderMarkdown(html)).b).toBeUndefined()
  })

  it('omits the service for a URL-only run', () => {
    const html = render([result('https://www.example.com/', { type: 'url', service: null })], {
      services: []
    })
    expect(html).not.toContain('svc123')
    expect(/<h2>(.*)<\/h2>/.exec(html)?.[1]).toContain('1 purged, 0 failed')
  })

  it('traces the purge to its run with a context line and a link', () => {
    const html = render([result('a')], { context: CONTEXT })
    expect(html).toContain('push')
    expect(html).toContain('<code>octo/site</code>')
    expect(html).toContain('<code>abcdef1</code>')
    expect(html).toContain('Deploy')
    const link = /<a href="([^"]*)">run 42<\/a>/.exec(html)
    expect(textOf(link?.[1] ?? '')).toBe('https://github.com/octo/site/actions/runs/99')
  })

  it('leaves out the parts of the run context the runner did not set', () => {
    const html = render([result('k1')], {
      context: { ...CONTEXT, workflow: '', sha: '', runNumber: Number.NaN }
    })
    expect(html).toContain('on <code>octo/site</code>')
    expect(html).not.toContain('NaN')
    expect(html).not.toContain('workflow <b></b>')
    expect(html).not.toContain('<a href=')
  })

  it('has no context line without a run context', () => {
    const html = render([result('a')])
    expect(html).not.toContain('<a ')
  })
})

describe('renderSummary with data from outside', () => {
  /** A run of the same shape, holding the given strings wherever outside text can appear. */
  function facts(
    text: (name: string) => string
  ): Partial<SummaryFacts> & { results: PurgeResult[] } {
    return {
      results: [
        failedResult(text('target'), text('error')),
        result(text('key'), { id: text('id'), service: text('service') }),
        result(text('url'), { type: 'url', service: null, id: text('url id') })
      ],
      services: [text('service'), 'svc456'],
      resultsFile: `/tmp/${text('file')}.json`,
      derivation: derivation(
        [
          { file: text('changed'), type: 'url', target: text('derived url') },
          { file: text('changed'), type: 'key', target: text('derived key') },
          { file: 'public/b.html', type: 'key', target: 'b' }
        ],
        text('range')
      ),
      context: {
        repository: text('repository'),
        sha: text('sha'),
        event: text('event'),
        workflow: text('workflow'),
        runNumber: 7,
        runUrl: 'https://github.com/octo/site/actions/runs/1'
      }
    }
  }

  const hostile = facts((name) =>
    name === 'changed' ? BREAKING_FILE : `${name} ${MARKDOWN} ${HOSTILE} https://evil.example`
  )
  const benign = facts((name) => `${name}-plain`)
  const renderFacts = ({ results, ...rest }: ReturnType<typeof facts>): string =>
    render(results, rest)

  it('renders to the same elements as benign data of the same shape', () => {
    const expected = renderedElements(renderFacts(benign))
    expect(expected).toMatchObject({ h2: 1, h3: 1, table: 2, code: expect.any(Number), a: 1 })
    expect(renderedElements(renderFacts(hostile))).toEqual(expected)
  })

  it('makes no link, image, heading, emphasis or strikethrough out of the data', () => {
    const rendered = renderMarkdown(renderFacts(hostile))
    expect(rendered).not.toMatch(/<(img|h1|strong|em|del|script)\b/)
    expect(rendered.match(/<a\b/g)).toHaveLength(1)
    expect(rendered).not.toContain('href="https://evil.example')
  })

  it('shows the data as text, one line each', () => {
    const text = textOf(renderMarkdown(renderFacts(hostile)))
    expect(text).toContain(oneLine(BREAKING_FILE))
    expect(text).toContain(`error ${MARKDOWN} ${HOSTILE} https://evil.example`)
    expect(text).toContain(`range ${MARKDOWN}`)
  })

  it('lists a few targets per changed file and counts the rest', () => {
    const many = Array.from({ length: 40 }, (_, index): DerivedTarget => ({
      file: 'content/shared.md',
      type: 'key',
      target: `key-${index}`
    }))
    const html = render([result('key-0')], { derivation: derivation(many) })
    const [fileRow] = rowsOf(html)
    expect(fileRow).toContain('key-9')
    expect(fileRow).not.toContain('key-10<')
    expect(fileRow).toContain('…and 30 more')
  })

  it('stays far below 1 MiB when every shown string is as long and as wide as it can be', () => {
    // `"` becomes the widest reference (&quot;), and each string is far longer than any cut.
    const wide = (length: number): string => '"'.repeat(length)
    const huge = wide(1_000_000)
    const results = Array.from({ length: 20_000 }, (_, index) =>
      index % 2 === 0
        ? failedResult(wide(1024), huge)
        : result(wide(1024), { id: huge, service: wide(1000) })
    )
    const targets = Array.from({ length: 5000 }, (_, index): DerivedTarget => ({
      file: `${index}${wide(4096)}`,
      type: 'url',
      target: wide(8000)
    })).flatMap((target) => Array.from({ length: 20 }, () => target))
    const html = render(results, {
      services: Array.from({ length: 500 }, () => wide(1000)),
      resultsFile: wide(100_000),
      derivation: derivation(targets, huge),
      context: {
        repository: huge,
        sha: wide(1000),
        event: huge,
        workflow: huge,
        runNumber: 1,
        runUrl: huge
      }
    })
    expect(Buffer.byteLength(html)).toBeLessThan(512 * 1024)
    expect(html).toMatch(/Showing \d+ of 20000 targets/)
    expect(html).toMatch(/Showing \d+ of 5000 files/)
    expect(rowsOf(html).length).toBeGreaterThan(20)
  })
})

describe('the wait and the edge check', () => {
  const entry = (url: string, overrides: Partial<Verification> = {}): Verification => ({
    url,
    fresh: true,
    http_status: 200,
    age: 0,
    checks: 1,
    evidence: 'Age 0 s, purge began 2 s ago (X-Cache: MISS)',
    ...overrides
  })
  const outcome = (overrides: Partial<WaitOutcome>): WaitOutcome => ({
    done: true,
    cancelled: false,
    elapsedMs: 42_000,
    urls: [{ url: 'https://origin.example/version', checks: 21, passedInARow: 1, last: '' }],
    failure: undefined,
    ...overrides
  })
  const wait = (overrides: Partial<WaitOutcome>): SummaryFacts['wait'] => ({
    urls: ['https://origin.example/version'],
    text: 'abc1234',
    passes: 1,
    timeoutMs: 600_000,
    outcome: outcome(overrides)
  })

  it('says what the origin showed, after how long and how many checks', () => {
    const html = render([result('blog')], { wait: wait({}) })
    expect(textOf(renderMarkdown(html))).toContain(
      'The origin showed abc1234 after 42 s (21 checks of https://origin.example/version).'
    )
  })

  it('says no purge call was sent when the wait timed out, with the reason', () => {
    const failure =
      'the origin was not ready within 600 s: https://origin.example/version did not show "abc1234"'
    const html = render([failedResult('blog', `not sent: ${failure}`)], {
      wait: wait({ done: false, failure })
    })
    expect(textOf(renderMarkdown(html))).toContain(`No purge call was sent: ${failure}`)
  })

  it('lists the URLs checked, stale first, with their Age or text and evidence', () => {
    const html = render([result('blog')], {
      edgeCheck: {
        entries: [
          entry('https://www.example.com/blog/1', { evidence: 'showed "abc1234"' }),
          entry('https://www.example.com/about', {
            fresh: false,
            age: 3600,
            checks: 4,
            evidence: 'Age 3600 s, but the purge began 3 s ago (X-Cache: HIT)'
          })
        ],
        textUrls: ['https://www.example.com/blog/1']
      }
    })
    const text = textOf(renderMarkdown(html))
    expect(text).toContain('Edge check')
    expect(text).toContain('1 of 2 URLs fresh, 1 stale.')
    const rows = rowsOf(html).slice(1)
    expect(rows[0]).toContain('❌ stale</td><td>Age 3600 s</td><td>4</td>')
    expect(rows[1]).toContain('✅ fresh</td><td>text</td><td>1</td>')
    expect(text).not.toContain('could not tell')
  })

  it('says the check could not tell when no checked response carried Age', () => {
    const html = render([result('https://www.example.com/a', { type: 'url' })], {
      edgeCheck: {
        entries: [entry('https://www.example.com/a', { age: null, evidence: 'no Age header' })],
        textUrls: []
      }
    })
    expect(textOf(renderMarkdown(html))).toContain('could not tell')
  })
})
