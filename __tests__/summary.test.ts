/** Unit tests of the job summary: escaped, failures first, readable and small at any size. */
import { describe, expect, it } from '@jest/globals'
import { readRunContext } from '../src/runner/context.js'
import type { WaitSettings } from '../src/config/settings.js'
import type { PlannedStage, PurgeCall, PurgeResult, RunContext } from '../src/record/index.js'
import type { EdgeCheckEntry } from '../src/capabilities/edge-check/record.js'
import type { WaitOutcome } from '../src/capabilities/wait/record.js'
import type {
  DerivedTarget,
  Derivation,
  OpenMark
} from '../src/capabilities/changed-files/record.js'
import { SUMMARY_MAX_BYTES, SUMMARY_ROW_LIMIT } from '../src/report-kit/budget.js'
import { renderSummary } from '../src/report/summary/index.js'
import { settingsWith, TEST_BASE, TEST_SERVICE } from '../tools/defaults.js'
import { derivationOf } from './support/derivation.js'
import { runRecord } from './support/run-record.js'
import { reasonOf, type Failure } from '../src/record/failure.js'
import { elementCounts, renderMarkdown, textOf } from './support/rendered-markdown.js'
import { NO_SECRETS } from './support/guard.js'

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
    failure: null,
    ...overrides
  }
}

/** A failed result, its failure given as data or, when only its words matter here, as them. */
function failedResult(target: string, why: string | Failure): PurgeResult {
  const failure = typeof why === 'string' ? { what: why } : why
  const error = reasonOf(failure)
  return result(target, { status: 'failed', id: null, http_status: 400, error, failure })
}

const CALL: PurgeCall = {
  operation: 'batch',
  method: 'POST',
  url: 'https://api.example-cdn.com/service/svc123/purge',
  headers: {},
  body: undefined,
  authenticated: true,
  permission: 'purge',
  service: 'svc123',
  soft: false,
  targetType: 'key',
  targets: ['home']
}

/** What a test sets of a run, in the words the summary shows it; the rest is a plain run's. */
interface Run {
  services: string[]
  dryRun: boolean
  calls: PurgeCall[]
  /** The results file's path; empty when it could not be written. */
  resultsFile: string
  context: RunContext | undefined
  stopped: string | undefined
  derivation: Derivation | undefined
  plannedStages: PlannedStage[]
  marks: OpenMark[]
  /** The wait as it was asked for, and how it ended. */
  wait: (WaitSettings & { outcome: WaitOutcome }) | undefined
  /** The edge check, and which of its URLs were judged by `verify-text`. */
  edgeCheck: { entries: EdgeCheckEntry[]; textUrls: string[]; malformedAge: string[] } | undefined
}

/** The summary `renderSummary` writes of the record of such a run, as main.ts calls it. */
function render(results: PurgeResult[], run: Partial<Run> = {}): string {
  const { services = [TEST_SERVICE], dryRun = false, calls = [CALL], wait, edgeCheck } = run
  const settings = settingsWith({
    services: services.map((id) => ({ id, baseUrl: TEST_BASE })),
    dryRun,
    wait: wait && {
      urls: wait.urls,
      text: wait.text,
      passes: wait.passes,
      timeoutMs: wait.timeoutMs
    },
    edgeCheck: {
      purgedUrls: false,
      timeoutMs: 60_000,
      // With verify-text set, verify-urls are the URLs judged by the text; without, none is.
      urls: edgeCheck?.textUrls ?? [],
      text: edgeCheck === undefined || edgeCheck.textUrls.length === 0 ? undefined : 'abc1234'
    }
  })
  const record = runRecord({
    settings,
    results,
    calls,
    derivation: run.derivation,
    plannedStages: run.plannedStages ?? [],
    marks: run.marks ?? [],
    stopped: run.stopped,
    // What the pipeline records of a wait that held the purge.
    notSent:
      wait === undefined || wait.outcome.done
        ? undefined
        : wait.outcome.cancelled
          ? 'cancelled during the wait'
          : wait.outcome.blocked
            ? 'the origin could not be checked'
            : 'the origin was not ready',
    wait: wait?.outcome,
    edgeCheck: edgeCheck && {
      entries: edgeCheck.entries,
      cancelled: false,
      malformedAge: edgeCheck.malformedAge
    }
  })
  return renderSummary(record, {
    guard: NO_SECRETS,
    resultsFile: run.resultsFile ?? RESULTS_FILE,
    context: run.context
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
    .replace(/<\/?(h2|h3|p|code|b|table|tr|th|td|details|summary|ul|li)>/g, '')
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
    expect(textOf(html).match(/1 failed/g)).toHaveLength(1)
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
    expect(row).toContain('❌')
    expect(textOf(row ?? '')).toContain('service svc123 not found (404)')
  })

  it('lists failures first, each group in request order', () => {
    const html = render([
      result('p1'),
      failedResult('f1', 'HTTP 400 (Bad Request)'),
      result('p2'),
      failedResult('f2', 'HTTP 400 (Bad Request)')
    ])
    const order = rowsOf(html).flatMap((row) =>
      [...row.matchAll(/<code>([^<]*)<\/code>/g)].map((match) => match[1])
    )
    expect(order.filter((target) => !target?.startsWith('id-'))).toEqual(['f1', 'f2', 'p1', 'p2'])
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

  it('says what each service’s purge mark will say, GitHub’s words as text', () => {
    const sha = 'def5678'.padEnd(40, '0')
    const html = render([result('a', { service: 'one' }), failedResult('b', 'refused')], {
      marks: [
        { service: 'one', sha, deploymentId: 1, refusal: undefined },
        { service: 'svc123', sha, deploymentId: 2, refusal: undefined },
        { service: 'three', sha, deploymentId: undefined, refusal: `403: ${HOSTILE}` }
      ]
    })
    const text = textOf(html)
    expect(text).toContain(
      'To be recorded as the last complete purge of one, at def5678: the next run with changed-since: last-purge compares from it.'
    )
    expect(text).toContain(
      'To be recorded as an incomplete purge of svc123 (1 target not purged): the next run compares from the last complete purge again.'
    )
    expect(text).toContain(`Not recorded for three: GitHub did not take it (403: ${HOSTILE})`)
    expect(withoutOwnMarkup(html)).not.toMatch(/[<>]/)
  })

  it('keeps the table to SUMMARY_ROW_LIMIT rows and says where the rest are', () => {
    const results = Array.from({ length: 1000 }, (_, index) => result(`key-${index}`))
    const html = render(results)
    expect(rowsOf(html)).toHaveLength(SUMMARY_ROW_LIMIT)
    expect(textOf(html)).toContain(
      `Showing ${SUMMARY_ROW_LIMIT} of 1000 purged targets; the results-file holds them all.`
    )
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
  })

  it('renders 20,000 long-keyed results far under 1 MiB', () => {
    const results = Array.from({ length: 20_000 }, (_, index) => {
      const key = `key-${index}-`.padEnd(1024, 'k')
      return index % 10 === 0
        ? failedResult(key, `HTTP 503 (Service Unavailable): ${'upstream overloaded '.repeat(15)}`)
        : result(key, { id: `1740093-1756794994-${index}` })
    })
    const html = render(results, { context: CONTEXT, calls: Array<PurgeCall>(79).fill(CALL) })
    expect(Buffer.byteLength(html)).toBeLessThan(256 * 1024)
    expect(textOf(html)).toContain('…and 1995 more')
    expect(html).toMatch(/Showing \d+ of 18000 purged targets/)
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
    expect(html).toContain('3 targets in 1 call planned, none sent')
    const targetRows = rowsOf(html).filter((row) => row.includes('<td>key</td>'))
    expect(targetRows).toHaveLength(3)
    expect(targetRows.every((row) => row.includes('planned'))).toBe(true)
  })

  it('in a dry run, shows the planned targets open and each call with its method and endpoint', () => {
    const planned = Array.from({ length: 300 }, (_, index) =>
      result(`k${index}`, { status: 'planned', id: null, http_status: null, attempts: 0 })
    )
    const calls = [
      { ...CALL, targets: planned.slice(0, 256).map(({ target }) => target) },
      { ...CALL, targets: planned.slice(256).map(({ target }) => target) }
    ]
    const text = textOf(renderMarkdown(render(planned, { dryRun: true, calls })))
    expect(text).toContain('POST https://api.example-cdn.com/service/svc123/purge (256 keys)')
    expect(text).toContain('POST https://api.example-cdn.com/service/svc123/purge (44 keys)')
    const html = render(planned, { dryRun: true, calls })
    expect(html).not.toContain('<details>')
    expect(rowsOf(html).filter((row) => row.includes('planned'))).toHaveLength(SUMMARY_ROW_LIMIT)
  })

  it('in a dry run, says what it would have awaited and checked at the edge, as plain text', () => {
    const planned = [result('blog', { status: 'planned', id: null, http_status: null })]
    const wait = {
      sentence: 'Would first wait until each of 1 URL shows "<b>abc</b>" (1 check in a row):',
      urls: ['https://origin.example/version?<b>x</b>'],
      when: 'before' as const
    }
    const check = {
      sentence: 'Would then check 2 URLs at the edge, each purged URL by Age:',
      urls: ['https://www.example.com/a', 'https://www.example.com/b'],
      when: 'after' as const
    }
    const html = render(planned, { dryRun: true, plannedStages: [wait, check] })
    const rendered = renderMarkdown(html)
    const text = textOf(rendered)
    for (const line of [wait.sentence, check.sentence, ...wait.urls, ...check.urls]) {
      expect(text).toContain(line)
    }
    expect(elementCounts(rendered)).toMatchObject({ ul: 2, li: 3 })
    expect(elementCounts(rendered).b).toBeUndefined()
  })

  it('in a dry run, lists the URLs it would check up to a bound, then counts the rest', () => {
    const urls = Array.from({ length: 1000 }, (_, index) => `https://www.example.com/p${index}`)
    const html = render([result('k', { status: 'planned', id: null })], {
      dryRun: true,
      plannedStages: [{ sentence: 'Would then check 1000 URLs at the edge:', urls, when: 'after' }]
    })
    const text = textOf(html)
    expect(text).toContain('https://www.example.com/p0')
    expect(text).toMatch(/… and \d+ more: the step log lists every one/)
    expect(text).not.toContain('https://www.example.com/p999')
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
    expect(html).not.toContain('actions/runs')
  })

  it('has no context line without a run context', () => {
    const html = render([result('a')])
    expect(html).not.toContain('run 42')
    expect(html).not.toContain('actions/runs')
  })
})

describe('the run link, from the runner’s variables', () => {
  const RUNNER_ENV: NodeJS.ProcessEnv = {
    GITHUB_REPOSITORY: 'octo/site',
    GITHUB_SHA: CONTEXT.sha,
    GITHUB_EVENT_NAME: 'push',
    GITHUB_WORKFLOW: 'Deploy',
    GITHUB_RUN_NUMBER: '42',
    GITHUB_RUN_ID: '99',
    GITHUB_SERVER_URL: 'https://github.com'
  }
  const renderWith = (env: NodeJS.ProcessEnv): string =>
    render([result('a')], { context: readRunContext({ ...RUNNER_ENV, ...env }) })
  /** Where the summary's `run 42` links, as a reader's browser would follow it. */
  const runHref = (html: string): string | undefined => {
    const href = /<a href="([^"]*)">run 42<\/a>/.exec(html)?.[1]
    return href === undefined ? undefined : textOf(href)
  }

  it.each([
    'javascript:alert(1)//',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://github.example',
    'github.example',
    ''
  ])('links github.com when GITHUB_SERVER_URL is not a web address: %s', (server) => {
    const html = renderWith({ GITHUB_SERVER_URL: server })
    expect(runHref(html)).toBe('https://github.com/octo/site/actions/runs/99')
    expect(html.toLowerCase()).not.toMatch(/javascript|data&#58;|alert/)
  })

  it.each([
    ['https://github.example/', 'https://github.example'],
    ['https://github.example//', 'https://github.example'],
    ['http://ghes.internal:8080', 'http://ghes.internal:8080'],
    ['https://user:secret@github.example/?q=1#top', 'https://github.example']
  ])('links a GitHub server at %s under %s', (server, base) => {
    expect(runHref(renderWith({ GITHUB_SERVER_URL: server }))).toBe(
      `${base}/octo/site/actions/runs/99`
    )
  })

  it.each([[''], ['12a'], ['-1'], [' 99'], [undefined]])(
    'names the run without a link when GITHUB_RUN_ID is %p',
    (runId) => {
      expect(readRunContext({ ...RUNNER_ENV, GITHUB_RUN_ID: runId })?.runUrl).toBe('')
      const html = renderWith({ GITHUB_RUN_ID: runId })
      expect(html).toContain('workflow <b>Deploy</b>, run 42</p>')
      expect(runHref(html)).toBeUndefined()
      expect(html).not.toContain('NaN')
      expect(html).not.toContain('actions/runs')
    }
  )
})

describe('renderSummary with data from outside', () => {
  /** A run of the same shape, holding the given strings wherever outside text can appear. */
  function facts(text: (name: string) => string): Partial<Run> & { results: PurgeResult[] } {
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
  const renderRun = ({ results, ...rest }: ReturnType<typeof facts>): string =>
    render(results, rest)

  it('renders to the same elements as benign data of the same shape', () => {
    const expected = renderedElements(renderRun(benign))
    expect(expected).toMatchObject({ h2: 1, h3: 3, table: 3, code: expect.any(Number), a: 1 })
    expect(renderedElements(renderRun(hostile))).toEqual(expected)
  })

  it('makes no link, image, heading, emphasis or strikethrough out of the data', () => {
    const rendered = renderMarkdown(renderRun(hostile))
    expect(rendered).not.toMatch(/<(img|h1|strong|em|del|script)\b/)
    expect(rendered.match(/<a\b/g)).toHaveLength(1)
    expect(rendered).not.toContain('href="https://evil.example')
  })

  it('shows the data as text, one line each', () => {
    const text = textOf(renderMarkdown(renderRun(hostile)))
    expect(text).toContain(NO_SECRETS.oneLine(BREAKING_FILE))
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
    const fileRow = rowsOf(html).find((row) => row.includes('content/shared.md'))
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
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    expect(html).toMatch(/…and \d+ more/)
    expect(html).toMatch(/Showing \d+ of 5000 files/)
    expect(rowsOf(html).length).toBeGreaterThan(20)
  })
})

describe('the wait and the edge check', () => {
  const entry = (url: string, overrides: Partial<EdgeCheckEntry> = {}): EdgeCheckEntry => ({
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
    blocked: false,
    elapsedMs: 42_000,
    urls: [{ url: 'https://origin.example/version', checks: 21, passedInARow: 1, last: '' }],
    failure: undefined,
    ...overrides
  })
  const wait = (overrides: Partial<WaitOutcome>): Run['wait'] => ({
    urls: ['https://origin.example/version'],
    text: 'abc1234',
    passes: 1,
    timeoutMs: 600_000,
    outcome: outcome(overrides)
  })

  it('says what the origin showed, after how long and how many checks', () => {
    const html = render([result('blog')], { wait: wait({}) })
    const text = textOf(renderMarkdown(html))
    expect(text).toContain('The origin showed abc1234 after 42 s:')
    expect(text).toContain('21 checks of https://origin.example/version')
  })

  it('says no purge call was sent when the wait timed out, with the reason', () => {
    const failure = {
      what: 'the origin was not ready within 600 s',
      detail: 'https://origin.example/version did not show "abc1234"'
    }
    const html = render([failedResult('blog', { ...failure, notSent: true })], {
      wait: wait({ done: false, failure })
    })
    expect(textOf(renderMarkdown(html))).toContain(
      `No purge call was sent: ${failure.what}: ${failure.detail}`
    )
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
        textUrls: ['https://www.example.com/blog/1'],
        malformedAge: []
      }
    })
    const text = textOf(renderMarkdown(html))
    expect(text).toContain('Edge check')
    expect(text).toContain('1 of 2 URLs fresh, 1 stale.')
    const rows = rowsOf(html)
    expect(rows[0]).toContain('❌ stale</td><td>Age 3600 s</td><td>4</td>')
    expect(rows[1]).toContain('✅ fresh</td><td>text</td><td>1</td>')
    expect(text).not.toContain('could not tell')
  })

  it('says the check could not tell when no checked response carried Age', () => {
    const html = render([result('https://www.example.com/a', { type: 'url' })], {
      edgeCheck: {
        entries: [entry('https://www.example.com/a', { age: null, evidence: 'no Age header' })],
        textUrls: [],
        malformedAge: []
      }
    })
    expect(textOf(renderMarkdown(html))).toContain('could not tell')
  })
})

describe('the first line is the answer', () => {
  const stale = (url: string): EdgeCheckEntry => ({
    url,
    fresh: false,
    http_status: 200,
    age: 3600,
    checks: 3,
    evidence: 'Age 3600 s, but the purge began 3 s ago'
  })
  const firstLine = (html: string): string => textOf(html.split('\n')[0] ?? '')

  it('counts the pages still stale at the edge beside the purged and failed targets', () => {
    const html = render([result('a'), result('b'), result('c')], {
      edgeCheck: {
        entries: [stale('https://www.example.com/a'), stale('https://www.example.com/b')],
        textUrls: [],
        malformedAge: []
      }
    })
    expect(html.split('\n')[0]).toMatch(/^<h2>.*<\/h2>$/)
    expect(firstLine(html)).toBe('Edge purge of svc123: 3 purged, 0 failed, 2 pages still stale')
    expect(html.split('\n')[0]).toContain('<b>2 pages still stale</b>')
  })

  it('says nothing is stale when the edge check found every page fresh', () => {
    const html = render([result('a')], {
      edgeCheck: {
        entries: [{ ...stale('https://www.example.com/a'), fresh: true }],
        textUrls: [],
        malformedAge: []
      }
    })
    expect(firstLine(html)).toBe('Edge purge of svc123: 1 purged, 0 failed')
  })

  it('says nothing was sent when the wait timed out, and gives the reason once', () => {
    const failure = {
      what: 'the origin was not ready within 60 s',
      detail: '2 of 2 wait-for-urls did not show "abc1234"'
    }
    const results = ['a', 'b', 'c'].map((key) => failedResult(key, { ...failure, notSent: true }))
    const html = render(results, {
      wait: {
        urls: ['https://origin.example/v1', 'https://origin.example/v2'],
        text: 'abc1234',
        passes: 1,
        timeoutMs: 60_000,
        outcome: {
          done: false,
          cancelled: false,
          blocked: false,
          elapsedMs: 60_000,
          failure,
          urls: ['v1', 'v2'].map((path) => ({
            url: `https://origin.example/${path}`,
            checks: 30,
            passedInARow: 0,
            last: 'HTTP 200, did not show "abc1234"'
          }))
        }
      }
    })
    const text = textOf(renderMarkdown(html))
    expect(firstLine(html)).toBe(
      'Edge purge of svc123: 0 purged, 3 failed, nothing sent: the origin was not ready'
    )
    expect(text).toContain('3 targets in 1 call planned, none sent')
    expect(text).not.toContain('3 targets in 1 call ·')
    expect(text.split(reasonOf(failure))).toHaveLength(2)
    expect(text).toContain(
      'https://origin.example/v2 did not show "abc1234" (last answer: HTTP 200, did not show "abc1234", after 30 checks)'
    )
    expect(html).toContain('<details><summary>3 targets not sent</summary>')
    expect(rowsOf(html).every((row) => row.includes('❌ not sent'))).toBe(true)
  })
})

describe('a big run reads failures first', () => {
  it('shows the failures open, then counts and folds the successes', () => {
    const results = [
      ...Array.from({ length: 300 }, (_, index) => result(`ok-${index}`)),
      failedResult('broken', 'HTTP 400 (Bad Request)')
    ]
    const html = render(results)
    const failedAt = html.indexOf('<h3>Failed, by cause</h3>')
    const foldedAt = html.indexOf('<details><summary>300 targets purged</summary>')
    expect(failedAt).toBeGreaterThan(0)
    expect(foldedAt).toBeGreaterThan(failedAt)
    expect(html.indexOf('broken')).toBeLessThan(foldedAt)
    expect(html.indexOf('ok-0')).toBeGreaterThan(foldedAt)
    const rendered = renderMarkdown(html)
    expect(elementCounts(rendered)).toMatchObject({ details: 1, summary: 1 })
  })

  it('says how to keep the results file instead of naming a path the job deletes', () => {
    const html = render(
      Array.from({ length: SUMMARY_ROW_LIMIT + 1 }, (_, index) => result(`k${index}`))
    )
    const text = textOf(html)
    expect(text).not.toContain(RESULTS_FILE)
    expect(text).toContain('The runner deletes it when the job ends')
    expect(html).toContain(
      'href="https://github.com/edge-purge/edge-purge/blob/v1/docs/results.md#keep-the-results-file"'
    )
  })

  it('shows up to 20 purged targets open, and no pointer to the file that holds no more', () => {
    const html = render(Array.from({ length: 20 }, (_, index) => result(`k${index}`)))
    expect(html).not.toContain('<details>')
    expect(rowsOf(html)).toHaveLength(20)
    expect(html).not.toContain('results-file')
  })

  it('says when the results file could not be written', () => {
    const text = textOf(render([result('a')], { resultsFile: '' }))
    expect(text).toContain('The results file could not be written')
    expect(text).not.toContain('upload it')
  })
})

describe('one byte budget for the whole summary', () => {
  const longUrl = (index: number): string => `https://origin.example/${index}/${'"<'.repeat(400)}`

  it('lists 810 long wait-for-url entries within 512 KiB, then counts the rest', () => {
    const urls = Array.from({ length: 810 }, (_, index) => longUrl(index))
    const notReady = { what: 'the origin was not ready within 60 s', notSent: true }
    const html = render([failedResult('a', notReady)], {
      wait: {
        urls,
        text: '"'.repeat(1000),
        passes: 3,
        timeoutMs: 60_000,
        outcome: {
          done: false,
          cancelled: false,
          blocked: false,
          elapsedMs: 60_000,
          failure: {
            what: 'the origin was not ready within 60 s',
            detail: '810 of 810 wait-for-urls did not show it'
          },
          urls: urls.map((url) => ({ url, checks: 30, passedInARow: 0, last: '"'.repeat(1000) }))
        }
      }
    })
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    expect(textOf(html)).toMatch(/… and \d+ more: the step log has each/)
  })

  it('stays within 512 KiB with every section at its largest and widest', () => {
    const wide = (length: number): string => '"'.repeat(length)
    const urls = Array.from({ length: 5000 }, (_, index) => longUrl(index))
    const results = Array.from({ length: 20_000 }, (_, index) =>
      index % 2 === 0
        ? failedResult(wide(1024), wide(100_000))
        : result(wide(1024), { id: wide(100_000), service: wide(1000) })
    )
    const entries = urls.map((url, index): EdgeCheckEntry => ({
      url,
      fresh: index % 2 === 0,
      http_status: 200,
      age: 1,
      checks: 1,
      evidence: wide(100_000)
    }))
    const html = render(results, {
      services: Array.from({ length: 500 }, () => wide(1000)),
      stopped: wide(100_000),
      wait: {
        urls,
        text: wide(1000),
        passes: 1,
        timeoutMs: 60_000,
        outcome: {
          done: true,
          cancelled: false,
          blocked: false,
          elapsedMs: 1,
          failure: undefined,
          urls: urls.map((url) => ({ url, checks: 1, passedInARow: 1, last: '' }))
        }
      },
      edgeCheck: { entries, textUrls: [], malformedAge: [] },
      derivation: derivation(
        urls.map((url, index) => ({ file: `${index}${wide(4096)}`, type: 'url', target: url })),
        wide(100_000)
      ),
      context: {
        repository: wide(100_000),
        sha: wide(1000),
        event: wide(100_000),
        workflow: wide(100_000),
        runNumber: 1,
        runUrl: wide(100_000)
      }
    })
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES)
    expect(html).toMatch(/Showing \d+ of 2500 URLs not fresh or not 2xx/)
    expect(html).toMatch(/Showing \d+ of 5000 files/)
  })
})

describe('what each edge verdict rests on', () => {
  const checked = (url: string, overrides: Partial<EdgeCheckEntry>): EdgeCheckEntry => ({
    url,
    fresh: false,
    http_status: 200,
    age: null,
    checks: 2,
    evidence: 'evidence',
    ...overrides
  })

  it('names a malformed Age, and does not call the check blind for it', () => {
    const url = 'https://www.example.com/a'
    const html = render([result('a')], {
      edgeCheck: {
        entries: [checked(url, { evidence: 'malformed Age header "7200.5"' })],
        textUrls: [],
        malformedAge: [url]
      }
    })
    expect(rowsOf(html)[0]).toContain('<td>❌ stale</td><td>malformed Age</td>')
    expect(textOf(html)).not.toContain('could not tell')
  })

  it('counts pages not checked in time apart from the stale ones, in the first line and the rows', () => {
    const html = render([result('a')], {
      edgeCheck: {
        entries: [
          checked('https://www.example.com/old', { age: 7200 }),
          ...['b', 'c'].map((path) =>
            checked(`https://www.example.com/${path}`, {
              http_status: null,
              checks: 0,
              evidence: 'not checked within verify-timeout: raise verify-timeout or concurrency'
            })
          )
        ],
        textUrls: [],
        malformedAge: []
      }
    })
    expect(textOf(html.split('\n')[0] ?? '')).toBe(
      'Edge purge of svc123: 1 purged, 0 failed, 1 page still stale, 2 pages not checked'
    )
    expect(
      rowsOf(html)
        .slice(0, 3)
        .map((row) => /<td>❌ (?:stale|not checked)<\/td><td>([^<]*)</.exec(row)?.[1])
    ).toEqual(['Age 7200 s', 'not checked', 'not checked'])
  })
})

describe('the first three seconds: a summary of a RunRecord names what happened', () => {
  const UNAUTHORIZED: Failure = {
    what: 'the API token was rejected (401)',
    detail: 'check the secret behind api-token'
  }
  const summaryOf = (overrides: Parameters<typeof runRecord>[0]): string =>
    renderSummary(runRecord(overrides), {
      guard: NO_SECRETS,
      resultsFile: RESULTS_FILE,
      context: undefined
    })
  const headline = (html: string): string => textOf(html.split('\n')[0] ?? '')

  it('a rejected token with 600 keys: the cause in the headline, one row, both counts', () => {
    const results = [
      ...Array.from({ length: 256 }, (_, index) => failedResult(`k${index}`, UNAUTHORIZED)),
      ...Array.from({ length: 344 }, (_, index) =>
        failedResult(`k${256 + index}`, {
          ...UNAUTHORIZED,
          stopped: { by: { scope: 'unauthorized' }, attempts: 0 }
        })
      )
    ]
    const html = summaryOf({ results })
    expect(headline(html)).toBe(
      'Edge purge of svc123: 0 purged, 600 failed: the API token was rejected (401)'
    )
    const rows = rowsOf(html)
    expect(rows).toHaveLength(1)
    const row = textOf(rows[0] ?? '')
    expect(row).toContain(reasonOf(UNAUTHORIZED))
    expect(row).toContain('600256 refused, 344 not sent after that')
    expect(row).toContain('key\u00a0k0')
    expect(row).toContain('…and 595 more')
    expect(textOf(html)).toContain('The runner deletes it when the job ends')
  })

  it('3 of 1,000 failing for 3 reasons: a row each, no single cause in the headline', () => {
    const reasons = ['HTTP 400 (Bad Request)', 'timed out: no answer within 30 s', 'HTTP 422']
    const results = Array.from({ length: 1000 }, (_, index) =>
      [7, 307, 607].includes(index)
        ? failedResult(`k${index}`, reasons[(index - 7) / 300] ?? '')
        : result(`k${index}`)
    )
    const html = summaryOf({ results })
    expect(headline(html)).toBe('Edge purge of svc123: 997 purged, 3 failed')
    const causeRows = rowsOf(html).filter((row) => row.includes('❌'))
    expect(causeRows.map((row) => textOf(row))).toEqual([
      `❌ ${reasons[0]}1key\u00a0k7`,
      `❌ ${reasons[1]}1key\u00a0k307`,
      `❌ ${reasons[2]}1key\u00a0k607`
    ])
    expect(html).toContain('<details><summary>997 targets purged</summary>')
  })

  it('mode: all says the whole service was purged', () => {
    const results = [
      result('svc123', { type: 'all', id: null }),
      result('svc456', { type: 'all', id: null, service: 'svc456' })
    ]
    const settings = settingsWith({
      purgeAll: true,
      services: [
        { id: 'svc123', baseUrl: 'https://api.example-cdn.com' },
        { id: 'svc456', baseUrl: 'https://api.example-cdn.com' }
      ]
    })
    const html = summaryOf({ results, settings })
    expect(headline(html)).toBe('Edge purge of svc123, svc456: everything in svc123, svc456 purged')
    expect(textOf(html)).toContain('purge-all of 2 services in 0 calls')
  })

  it('a verify URL that could not be reached is unreachable, not stale; a 404 shows beside it', () => {
    const unreached: EdgeCheckEntry = {
      url: 'https://www.exmaple.com/',
      fresh: false,
      http_status: null,
      age: null,
      checks: 3,
      evidence: 'connection failed (ENOTFOUND): getaddrinfo ENOTFOUND www.exmaple.com'
    }
    const missing: EdgeCheckEntry = {
      url: 'https://www.example.com/typo',
      fresh: true,
      http_status: 404,
      age: 0,
      checks: 1,
      evidence: 'HTTP 404, Age 0 s, purge began 2 s ago'
    }
    const html = summaryOf({
      results: [result('home')],
      edgeCheck: { entries: [unreached, missing], cancelled: false, malformedAge: [] }
    })
    expect(headline(html)).toBe('Edge purge of svc123: 1 purged, 0 failed, 1 page unreachable')
    expect(html).not.toContain('stale')
    const rows = rowsOf(html)
    expect(rows.find((row) => row.includes('exmaple'))).toContain('<td>❌ unreachable</td>')
    expect(rows.find((row) => row.includes('typo'))).toContain('<td>✅ fresh (HTTP 404)</td>')
  })

  it('nothing changed: says so, distinct from files that matched no map, with no empty table', () => {
    const settings = settingsWith({})
    const none = summaryOf({ settings, derivation: derivationOf([]) })
    expect(headline(none)).toBe(
      'Edge purge of svc123: nothing to purge: no files changed between abc1234 and def5678'
    )
    expect(none).not.toContain('<table>')
    const unmatched = summaryOf({
      settings,
      derivation: derivationOf([], { unmatched: ['README.md', 'docs/a.md'] })
    })
    expect(headline(unmatched)).toBe(
      'Edge purge of svc123: nothing to purge: 2 files changed in push abc1234...def5678, none matched url-map or key-map'
    )
    expect(unmatched).not.toContain('<table>')
  })
})
