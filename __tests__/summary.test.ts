/**
 * Unit tests of the core's job summary: the first line is the answer, failures come first, every
 * outside string is text, and the whole stays small at any size. The capabilities' sections are
 * tested beside them, under capabilities/.
 */
import { describe, expect, it } from '@jest/globals'
import { readRunContext } from '../src/runner/context.js'
import type { WaitSettings } from '../src/config/settings.js'
import type { PlannedStage, PurgeCall, PurgeResult, RunContext } from '../src/record/index.js'
import type { EdgeCheckEntry } from '../src/capabilities/edge-check/record.js'
import type { WaitOutcome } from '../src/capabilities/wait/record.js'
import type { Derivation, DerivedTarget } from '../src/capabilities/changed-files/record.js'
import { SUMMARY_MAX_BYTES, SUMMARY_ROW_LIMIT } from '../src/report-kit/budget.js'
import { renderSummary } from '../src/report/summary/index.js'
import { settingsWith, TEST_BASE, TEST_SERVICE } from '../tools/defaults.js'
import { derivationOf } from './support/derivation.js'
import { runRecord } from './support/run-record.js'
import { reasonOf, type Failure } from '../src/record/failure.js'
import { elementCounts, renderMarkdown, textOf } from './support/rendered-markdown.js'
import { NO_SECRETS } from './support/guard.js'
import {
  cellsOf,
  foldsOf,
  headlineOf,
  hrefsOf,
  listsOf,
  notesOf,
  paragraphsOf,
  RESULTS_FILE,
  summaryOf,
  tablesOf,
  withoutOwnMarkup
} from './support/summary-html.js'

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
  /** Whether it stays where it was written (the command's), or the runner deletes it (default). */
  resultsFileStays: boolean
  context: RunContext | undefined
  stopped: string | undefined
  derivation: Derivation | undefined
  plannedStages: PlannedStage[]
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
      assets: false,
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
    resultsFileStays: run.resultsFileStays ?? false,
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

/** Where the footer tells a reader how to keep the results file, which the runner deletes. */
const KEEP_RESULTS_DOC =
  'https://github.com/edge-purge/edge-purge/blob/v1/docs/results.md#keep-the-results-file'

/** A planned target, as a dry run records it. */
const planned = (target: string): PurgeResult =>
  result(target, { status: 'planned', id: null, http_status: null, attempts: 0 })

describe('renderSummary', () => {
  it('says the scope under the first line, and each count once', () => {
    const html = render([result('a'), result('b'), failedResult('c', 'HTTP 400 (Bad Request)')])
    expect(headlineOf(html)).toBeDefined()
    expect(paragraphsOf(html)[0]).toBe('3 targets in 1 call')
    expect(textOf(html).match(/1 failed/g)).toHaveLength(1)
  })

  it('shows each target with its type, instant or soft, result and id', () => {
    const html = render([
      result('home', { id: '1-2-3' }),
      result('https://www.example.com/a', { type: 'url', soft: true, id: '4-5-6' })
    ])
    expect(tablesOf(html)).toEqual([
      {
        head: ['Target', 'Type', 'Purge', 'Result', 'Purge id'],
        rows: [
          ['home', 'key', 'instant', '✅ purged', '1-2-3'],
          ['https://www.example.com/a', 'url', 'soft', '✅ purged', '4-5-6']
        ]
      }
    ])
  })

  it('shows a failure by its cause, with how many targets and which', () => {
    const html = render([failedResult('k', 'service svc123 not found (404)')])
    expect(tablesOf(html)).toEqual([
      {
        head: ['Cause', 'Targets', 'First targets'],
        rows: [['❌ service svc123 not found (404)', '1', 'key\u00a0k']]
      }
    ])
  })

  it('lists failures first, each group in request order', () => {
    const html = render([
      result('p1'),
      failedResult('f1', 'HTTP 400 (Bad Request)'),
      result('p2'),
      failedResult('f2', 'HTTP 400 (Bad Request)')
    ])
    const [failures, purged] = tablesOf(html)
    expect(failures?.rows.map((row) => row[2])).toEqual(['key\u00a0f1, key\u00a0f2'])
    expect(purged?.rows.map((row) => row[0])).toEqual(['p1', 'p2'])
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
    // Every element left is one the summary writes; an attribute added to its link would stay.
    expect(withoutOwnMarkup(html)).not.toMatch(/[<>]/)
    const text = textOf(html)
    expect(text).toContain(HOSTILE)
    expect(text).toContain(`a"b'c&d`)
    expect(hrefsOf(html)).toHaveLength(1)
  })

  it('keeps the table to SUMMARY_ROW_LIMIT rows and says how many it shows of how many', () => {
    const results = Array.from({ length: 1000 }, (_, index) => result(`key-${index}`))
    const html = render(results)
    expect(cellsOf(html)).toHaveLength(SUMMARY_ROW_LIMIT)
    expect(notesOf(html)).toEqual([
      { shown: SUMMARY_ROW_LIMIT, total: 1000, what: 'purged targets' }
    ])
  })

  it('says nothing about hidden rows when every target is shown', () => {
    const results = Array.from({ length: SUMMARY_ROW_LIMIT }, (_, index) => result(`k${index}`))
    const html = render(results)
    expect(cellsOf(html)).toHaveLength(SUMMARY_ROW_LIMIT)
    expect(notesOf(html)).toEqual([])
  })

  it('shows failures that come last in a long run within the capped table', () => {
    const results = Array.from({ length: 5000 }, (_, index) => result(`key-${index}`))
    results.push(failedResult('late-failure', 'HTTP 400 (Bad Request)'))
    const html = render(results)
    expect(cellsOf(html)[0]?.[2]).toBe('key\u00a0late-failure')
    expect(notesOf(html).map(({ total }) => total)).toEqual([5000])
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
    // One cause, its first targets named, the other 1995 counted.
    const [cause] = cellsOf(html)
    expect(cause?.[1]).toBe('2000')
    expect(cause?.[2]?.split(', ')).toHaveLength(6)
    expect(cause?.[2]?.split(', ').at(-1)).toBe('…and 1995 more')
    expect(notesOf(html).map(({ total, what }) => [total, what])).toEqual([
      [18000, 'purged targets']
    ])
    expect(html).not.toContain('k'.repeat(1000))
  })

  it('in a dry run, says in the first line that nothing was sent, and shows each target planned', () => {
    const html = render(['a', 'b', 'c'].map(planned), { dryRun: true })
    expect(headlineOf(html)).toBe('Edge purge of svc123 (dry run): 3 planned, nothing sent')
    const targets = tablesOf(html).find(({ head }) => head[0] === 'Target')
    expect(targets?.rows.map((row) => [row[0], row[3]])).toEqual([
      ['a', '📝 planned'],
      ['b', '📝 planned'],
      ['c', '📝 planned']
    ])
  })

  it('in a dry run, shows the planned targets open and each call with its endpoint and size', () => {
    const targets = Array.from({ length: 300 }, (_, index) => planned(`k${index}`))
    const calls = [
      { ...CALL, targets: targets.slice(0, 256).map(({ target }) => target) },
      { ...CALL, targets: targets.slice(256).map(({ target }) => target) }
    ]
    const html = render(targets, { dryRun: true, calls })
    const [callTable, plannedTable] = tablesOf(html)
    expect(callTable?.head).toEqual(['Call'])
    expect(callTable?.rows.map(([call = '']) => call.includes(CALL.url))).toEqual([true, true])
    expect(callTable?.rows.map(([call = '']) => /\((\d+) keys\)/.exec(call)?.[1])).toEqual([
      '256',
      '44'
    ])
    expect(foldsOf(html)).toEqual([])
    expect(plannedTable?.rows).toHaveLength(SUMMARY_ROW_LIMIT)
  })

  it('in a dry run, says what it would have awaited and checked at the edge, as plain text', () => {
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
    const html = render([planned('blog')], { dryRun: true, plannedStages: [wait, check] })
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
    const html = render([planned('k')], {
      dryRun: true,
      plannedStages: [{ sentence: 'Would then check 1000 URLs at the edge:', urls, when: 'after' }]
    })
    const [list] = listsOf(html)
    expect(list?.items).toEqual(urls.slice(0, list?.items.length))
    expect(list?.items.length).toBeLessThan(1000)
    expect((list?.items.length ?? 0) + (list?.more ?? 0)).toBe(1000)
    // Asserted nowhere else: where a dry run's list says the rest are.
    expect(textOf(html)).toMatch(/… and \d+ more: the step log lists every one/)
  })

  it('omits the service for a URL-only run', () => {
    const html = render([result('https://www.example.com/', { type: 'url', service: null })], {
      services: []
    })
    expect(headlineOf(html)).toBe('Edge purge: 1 purged, 0 failed')
  })

  it('traces the purge to its run with a context line and a link', () => {
    const html = render([result('a')], { context: CONTEXT })
    expect(paragraphsOf(html)[1]).toBe('push on octo/site at abcdef1, workflow Deploy, run 42')
    expect(hrefsOf(html)).toEqual(['https://github.com/octo/site/actions/runs/99'])
  })

  it('leaves out the parts of the run context the runner did not set', () => {
    const html = render([result('k1')], {
      context: { ...CONTEXT, workflow: '', sha: '', runNumber: Number.NaN }
    })
    expect(paragraphsOf(html)[1]).toBe('push on octo/site')
    expect(hrefsOf(html)).toEqual([])
  })

  it('has no context line without a run context', () => {
    const html = render([result('a')])
    expect(paragraphsOf(html)).toHaveLength(1)
    expect(hrefsOf(html)).toEqual([])
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
    expect(hrefsOf(html)).toEqual(['https://github.com/octo/site/actions/runs/99'])
    expect(html.toLowerCase()).not.toContain('javascript')
    expect(html).not.toContain('alert')
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
      // The same words as with a link, and no link.
      expect(paragraphsOf(html)[1]).toBe(paragraphsOf(renderWith({}))[1])
      expect(hrefsOf(html)).toEqual([])
      expect(html).not.toContain('NaN')
    }
  )
})

describe('renderSummary with data from outside', () => {
  /** The outside text of each kind, in a hostile run. */
  const hostileText = (name: string): string =>
    name === 'changed' ? BREAKING_FILE : `${name} ${MARKDOWN} ${HOSTILE} https://evil.example`

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

  const hostile = facts(hostileText)
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
    const counts = elementCounts(rendered)
    for (const tag of ['img', 'h1', 'strong', 'em', 'del', 'script']) {
      expect(counts[tag]).toBeUndefined()
    }
    expect(hrefsOf(rendered)).toEqual(['https://github.com/octo/site/actions/runs/1'])
  })

  it('shows the data as text, one line each', () => {
    const text = textOf(renderMarkdown(renderRun(hostile)))
    expect(text).toContain(NO_SECRETS.oneLine(BREAKING_FILE))
    // Each whole where it is not cut: a range, an error, a target, the context.
    const whole = [
      'range',
      'error',
      'key',
      'url',
      'derived url',
      'derived key',
      'workflow',
      'event'
    ]
    for (const name of whole) expect(text).toContain(hostileText(name))
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
    expect(notesOf(html).map(({ total, what }) => [total, what])).toContainEqual([5000, 'files'])
    expect(cellsOf(html).length).toBeGreaterThan(20)
  })
})

describe('when the wait held the purge', () => {
  it('says in the first line that nothing was sent and why, once, and folds the targets not sent', () => {
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
    expect(headlineOf(html)).toBe(
      'Edge purge of svc123: 0 purged, 3 failed, nothing sent: the origin was not ready'
    )
    expect(paragraphsOf(html)[0]).toBe('3 targets in 1 call planned, none sent')
    expect(textOf(html).split(reasonOf(failure))).toHaveLength(2)
    // No table by cause: the three are folded, each not sent.
    expect(foldsOf(html)).toEqual(['3 targets not sent'])
    expect(tablesOf(html)).toHaveLength(1)
    expect(cellsOf(html).map((row) => row[3])).toEqual([
      '❌ not sent',
      '❌ not sent',
      '❌ not sent'
    ])
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
    const foldedAt = html.indexOf('<details>')
    expect(failedAt).toBeGreaterThan(0)
    expect(foldedAt).toBeGreaterThan(failedAt)
    expect(foldsOf(html)).toEqual(['300 targets purged'])
    expect(html.indexOf('broken')).toBeLessThan(foldedAt)
    expect(html.indexOf('ok-0')).toBeGreaterThan(foldedAt)
    const rendered = renderMarkdown(html)
    expect(elementCounts(rendered)).toMatchObject({ details: 1, summary: 1 })
  })

  it('links how to keep the results file instead of naming a path the job deletes', () => {
    const html = render(
      Array.from({ length: SUMMARY_ROW_LIMIT + 1 }, (_, index) => result(`k${index}`))
    )
    expect(textOf(html)).not.toContain(RESULTS_FILE)
    expect(hrefsOf(html)).toEqual([KEEP_RESULTS_DOC])
  })

  it('shows up to 20 purged targets open, and no pointer to the file that holds no more', () => {
    const html = render(Array.from({ length: 20 }, (_, index) => result(`k${index}`)))
    expect(foldsOf(html)).toEqual([])
    expect(cellsOf(html)).toHaveLength(20)
    expect(paragraphsOf(html)).toHaveLength(1)
    expect(hrefsOf(html)).toEqual([])
  })

  it('says when the results file could not be written', () => {
    const html = render([result('a')], { resultsFile: '' })
    expect(textOf(html)).toContain('The results file could not be written')
    expect(hrefsOf(html)).toEqual([])
  })

  it('names the path of a results file that stays (the command’s), with no advice to keep it', () => {
    const many = Array.from({ length: SUMMARY_ROW_LIMIT + 1 }, (_, index) => result(`k${index}`))
    const stays = render(many, { resultsFileStays: true, resultsFile: '/tmp/my results.json' })
    expect(textOf(stays)).toContain('/tmp/my results.json')
    expect(textOf(stays)).not.toContain('artifact')
    expect(hrefsOf(stays)).toEqual([])
    const unwritten = render([result('a')], { resultsFileStays: true, resultsFile: '' })
    expect(textOf(unwritten)).toContain('The results file could not be written')
    expect(textOf(unwritten)).not.toContain('step log')
  })
})

describe('one byte budget for the whole summary', () => {
  const longUrl = (index: number): string => `https://origin.example/${index}/${'"<'.repeat(400)}`

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
    // Every section still shows its first rows, and says how many there are.
    const totals = notesOf(html).map(({ total, what }) => [total, what])
    expect(totals).toContainEqual([2500, 'URLs not fresh or not 2xx'])
    expect(totals).toContainEqual([5000, 'files'])
    expect(listsOf(html)[0]?.more).toBeGreaterThan(0)
  })
})

describe('the first three seconds: a summary of a RunRecord names what happened', () => {
  const UNAUTHORIZED: Failure = {
    what: 'the API token was rejected (401)',
    detail: 'check the secret behind api-token'
  }

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
    expect(headlineOf(html)).toBe(
      'Edge purge of svc123: 0 purged, 600 failed: the API token was rejected (401)'
    )
    const rows = cellsOf(html)
    expect(rows).toHaveLength(1)
    const [cause, targets, first] = rows[0] ?? []
    expect(cause).toBe(`❌ ${reasonOf(UNAUTHORIZED)}`)
    // All 600, then how many were refused and how many not sent after that.
    expect(targets?.match(/\d+/g)).toEqual(['600', '256', '344'])
    expect(first?.split(', ')).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => `key\u00a0k${index}`),
      '…and 595 more'
    ])
    expect(hrefsOf(html)).toEqual([KEEP_RESULTS_DOC])
  })

  it('3 of 1,000 failing for 3 reasons: a row each, no single cause in the headline', () => {
    const reasons = ['HTTP 400 (Bad Request)', 'timed out: no answer within 30 s', 'HTTP 422']
    const results = Array.from({ length: 1000 }, (_, index) =>
      [7, 307, 607].includes(index)
        ? failedResult(`k${index}`, reasons[(index - 7) / 300] ?? '')
        : result(`k${index}`)
    )
    const html = summaryOf({ results })
    expect(headlineOf(html)).toBe('Edge purge of svc123: 997 purged, 3 failed')
    const [causes] = tablesOf(html)
    expect(causes?.rows).toEqual([
      [`❌ ${reasons[0]}`, '1', 'key\u00a0k7'],
      [`❌ ${reasons[1]}`, '1', 'key\u00a0k307'],
      [`❌ ${reasons[2]}`, '1', 'key\u00a0k607']
    ])
    expect(foldsOf(html)).toEqual(['997 targets purged'])
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
    expect(headlineOf(html)).toBe(
      'Edge purge of svc123, svc456: everything in svc123, svc456 purged'
    )
    expect(paragraphsOf(html)[0]).toBe('purge-all of 2 services in 0 calls')
  })
})
