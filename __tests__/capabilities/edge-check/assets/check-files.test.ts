/**
 * The check of the files each page loads (issue 39, steps 2 to 4), in-process on the virtual
 * clock: verdicts, the heal of a cached error, redirects, shared files, other hosts, the bounds,
 * the deadline and the cancel.
 */
import { describe, expect, it } from '@jest/globals'
import { setMaxListeners } from 'node:events'
import type { IncomingHttpHeaders } from 'node:http'
import type { Answer } from '../../../../src/http/agents.js'
import type { PageReading } from '../../../../src/http/probe.js'
import { checkAssets } from '../../../../src/capabilities/edge-check/assets/check-files.js'
import {
  NOT_CHECKED_IN_TIME,
  NOT_JUDGED_CANCELLED
} from '../../../../src/capabilities/edge-check/record.js'
import { FakeClock } from '../../../../tools/fake-clock.js'
import { page, ScriptedProber, type Script } from '../../../../tools/scripted-prober.js'
import { recordedLog } from '../../../support/recorded-log.js'
import { NO_SECRETS } from '../../../support/guard.js'
import { filesOf } from '../../../../src/capabilities/edge-check/assets/extract.js'

// Named through checkAssets, so that the test imports nothing of src/ the wiring does not.
type AssetPage = Parameters<typeof checkAssets>[0]['pages'][number]
type AssetsOutcome = Awaited<ReturnType<typeof checkAssets>>

const HOME = 'https://www.example.com/'
const own = (path: string): string => `https://www.example.com${path}`
const APP = own('/assets/app.3f9c1.js')
const CSS = own('/assets/site.77ab0.css')
const ORIGIN_LACKS_404 = 'the origin answers 404: the page loads a file the deploy did not upload'

/** A page that loads `files` (paths or URLs) as scripts. */
const pageLoading = (url: string, ...files: string[]): AssetPage =>
  pageOf(
    url,
    `<!doctype html><html><head>${files.map((file) => `<script src="${file}"></script>`).join('')}</head><body></body></html>`
  )

/** A page as the edge check hands it on: its files found in its HTML. */
const pageOf = (url: string, html: string): AssetPage => ({ url, found: filesOf(html, url) })

const hit = (status: number, age = '120'): Answer<PageReading> =>
  page(status, '', { age, 'x-cache': 'HIT' })
const miss = (status: number, headers: IncomingHttpHeaders = {}): Answer<PageReading> =>
  page(status, '', { age: '0', 'x-cache': 'MISS', ...headers })
const refused: Answer<PageReading> = {
  kind: 'network',
  code: 'ECONNREFUSED',
  message: 'connect ECONNREFUSED'
}

/** Each URL's answers in turn, the last one repeated; a URL not named answers 200. */
const answers =
  (byUrl: Record<string, Answer<PageReading>[]>, takesMs?: (url: string) => number): Script =>
  (url, check) => {
    const list = byUrl[url] ?? [miss(200)]
    const answer = list[Math.min(check, list.length) - 1] as Answer<PageReading>
    return { answer, takesMs: takesMs?.(url) ?? 100 }
  }

interface Options {
  pages?: AssetPage[]
  windowMs?: number
  requestTimeoutMs?: number
  concurrency?: number
  /** What the purge of a URL resolves to; undefined: purged. */
  purge?: (url: string) => string | undefined
  signal?: AbortSignal
}

interface Run extends AssetsOutcome {
  prober: ScriptedProber
  purges: string[]
  lines: string[]
  started: number
  ended: number
}

async function run(options: Options, script: Script): Promise<Run> {
  const clock = new FakeClock()
  const started = clock.now()
  const prober = new ScriptedProber(clock, script)
  const log = recordedLog()
  const purges: string[] = []
  const signal = options.signal ?? new AbortController().signal
  // The run's signal has no bound on its listeners (runner/signals.ts): a check in flight holds one.
  setMaxListeners(0, signal)
  const outcome = await checkAssets(
    {
      pages: options.pages ?? [pageLoading(HOME, APP)],
      deadline: started + (options.windowMs ?? 10_000)
    },
    {
      prober,
      clock,
      signal,
      log,
      guard: NO_SECRETS,
      limits: {
        requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
        concurrency: options.concurrency ?? 4
      },
      purgeUrl: async (url) => {
        purges.push(url)
        // A purge takes a moment, as the API's answer does.
        await clock.sleep(50, signal)
        return options.purge?.(url)
      }
    }
  )
  return { ...outcome, prober, purges, lines: log.lines, started, ended: clock.now() }
}

const urlsAsked = ({ prober }: Run): string[] => prober.calls.map(({ url }) => url)
const counts = (overrides: Partial<Record<string, number>> = {}): Record<string, number> => ({
  whole: 0,
  broken: 0,
  healed: 0,
  not_judged: 0,
  other_host: 0,
  over_limit: 0,
  ...overrides
})

describe('a cached error is purged once and checked again', () => {
  it('a cached 404 that the purge heals', async () => {
    const result = await run({}, answers({ [APP]: [hit(404), miss(200)] }))
    expect(result.files).toEqual([
      {
        url: APP,
        page: HOME,
        pages: 1,
        http_status: 200,
        age: 0,
        verdict: 'healed',
        purged: true,
        evidence:
          'a cached HTTP 404 (Age 120 s, X-Cache: HIT), purged: now HTTP 200 (Age 0 s, X-Cache: MISS)'
      }
    ])
    expect(result.purges).toEqual([APP])
    // The check after the purge is made at once, when the purge answers.
    expect(result.prober.startsOf(APP, result.started)).toEqual([0, 150])
    expect(result.prober.calls.every(({ lookFor }) => lookFor === undefined)).toBe(true)
    expect(result.pages).toEqual(new Map([[HOME, counts({ healed: 1 })]]))
    expect(result.cancelled).toBe(false)
    expect(result.lines).toContain(
      `✓ healed ${APP}: a cached HTTP 404 (Age 120 s, X-Cache: HIT), purged: now HTTP 200 (Age 0 s, X-Cache: MISS)`
    )
  })

  it('a file the origin still lacks is broken, with the origin’s status; purged, never twice', async () => {
    const result = await run(
      { pages: [pageLoading(HOME, APP, CSS)] },
      answers({ [APP]: [hit(404), miss(404)], [CSS]: [hit(410, '5'), miss(410)] })
    )
    expect(
      result.files.map(({ verdict, purged, http_status, evidence }) => ({
        verdict,
        purged,
        http_status,
        evidence
      }))
    ).toEqual([
      { verdict: 'broken', purged: true, http_status: 404, evidence: ORIGIN_LACKS_404 },
      {
        verdict: 'broken',
        purged: true,
        http_status: 410,
        evidence: 'the origin answers 410: the page loads a file the deploy did not upload'
      }
    ])
    expect(result.purges).toEqual([APP, CSS])
    expect(urlsAsked(result)).toEqual([APP, CSS, APP, CSS])
    expect(result.pages.get(HOME)).toEqual(counts({ broken: 2 }))
    expect(result.lines).toContain(`✗ broken ${APP}: ${ORIGIN_LACKS_404}`)
  })

  it('a 404 not from the cache is broken and never purged', async () => {
    const result = await run({}, answers({ [APP]: [miss(404)] }))
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      purged: false,
      http_status: 404,
      age: 0,
      evidence: ORIGIN_LACKS_404
    })
    expect(result.purges).toEqual([])
    expect(urlsAsked(result)).toEqual([APP])
  })

  it.each<[string, IncomingHttpHeaders, boolean]>([
    ['Age above 0', { age: '1' }, true],
    ['Age 0', { age: '0' }, false],
    ['X-Cache naming a hit, any case', { 'x-cache': 'Hit from cloudfront' }, true],
    ['X-Cache: MISS', { 'x-cache': 'MISS' }, false],
    ['Cache-Status with hit', { 'cache-status': 'ExampleCDN; HIT; ttl=300' }, true],
    ['Cache-Status with a miss', { 'cache-status': 'ExampleCDN; fwd=uri-miss' }, false],
    ['no cache header', {}, false]
  ])('from the cache by %s: %s', async (_, headers, fromCache) => {
    const result = await run({}, answers({ [APP]: [page(404, '', headers), miss(404)] }))
    expect(result.purges).toEqual(fromCache ? [APP] : [])
    expect(result.files[0]).toMatchObject({ verdict: 'broken', purged: fromCache })
  })

  it('a 404 still cached after the purge is checked again, as a stale page is', async () => {
    const result = await run({}, answers({ [APP]: [hit(404), hit(404, '3'), miss(200)] }))
    expect(result.files[0]).toMatchObject({ verdict: 'healed', purged: true, http_status: 200 })
    expect(result.purges).toEqual([APP])
    expect(result.prober.startsOf(APP, result.started)).toEqual([0, 150, 1250])
  })

  it('a 404 still cached at the end of the window is broken, purged once', async () => {
    const result = await run({ windowMs: 2000 }, answers({ [APP]: [hit(404)] }))
    expect(result.purges).toEqual([APP])
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      purged: true,
      evidence:
        'a cached HTTP 404 (Age 120 s, X-Cache: HIT), purged: now HTTP 404 (Age 120 s, X-Cache: HIT), still at the end of verify-timeout'
    })
  })

  it('a failed purge leaves the file broken, saying why; nothing is checked again', async () => {
    const result = await run(
      { purge: () => 'HTTP 403 from the purge API:\n::error::forbidden' },
      answers({ [APP]: [hit(404), miss(200)] })
    )
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      purged: false,
      http_status: 404,
      evidence:
        'a cached HTTP 404 (Age 120 s, X-Cache: HIT); the purge failed: HTTP 403 from the purge API:\\n::error::forbidden'
    })
    expect(urlsAsked(result)).toEqual([APP])
    expect(result.lines.every((line) => !line.includes('\n') && !line.startsWith('::'))).toBe(true)
  })

  it('a purge that throws is a failed purge', async () => {
    const result = await run(
      {
        purge: () => {
          throw new Error('boom')
        }
      },
      answers({ [APP]: [hit(404)] })
    )
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      purged: false,
      evidence:
        'a cached HTTP 404 (Age 120 s, X-Cache: HIT); the purge failed: edge-purge could not purge it: boom'
    })
  })

  it('a cached 404 a redirect led to on another host is not purged', async () => {
    const cdn = 'https://cdn.example.net/app.js'
    const result = await run(
      {},
      answers({ [APP]: [page(302, '', { location: cdn })], [cdn]: [hit(404)] })
    )
    expect(result.purges).toEqual([])
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      purged: false,
      evidence: `a cached HTTP 404 at ${cdn} after 1 redirect (Age 120 s, X-Cache: HIT); not purged: it is on another host than the page`
    })
  })
})

describe('5xx is checked again until the end of the window', () => {
  it('a 503 that recovers is whole', async () => {
    const result = await run({}, answers({ [APP]: [miss(503), miss(503), miss(200)] }))
    expect(result.files[0]).toMatchObject({ verdict: 'whole', http_status: 200, purged: false })
    expect(result.prober.startsOf(APP, result.started)).toEqual([0, 600, 1700])
  })

  it('a 503 to the end is broken, re-checked with back-off, each timeout cut to the time left', async () => {
    const result = await run(
      { windowMs: 4000, requestTimeoutMs: 3000 },
      answers({ [APP]: [miss(503)] })
    )
    expect(result.prober.startsOf(APP, result.started)).toEqual([0, 600, 1700, 3800])
    expect(result.prober.calls.map(({ timeoutMs }) => timeoutMs)).toEqual([3000, 3000, 2300, 1000])
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      http_status: 503,
      evidence: 'HTTP 503 (Age 0 s, X-Cache: MISS), still at the end of verify-timeout'
    })
    expect(result.lines.filter((line) => line.startsWith('✗'))).toHaveLength(1)
  })
})

describe('what proves nothing is not judged, never broken', () => {
  it.each([401, 403, 429, 400, 300, 304])('HTTP %i', async (status) => {
    const result = await run({}, answers({ [APP]: [miss(status)] }))
    expect(result.files[0]).toMatchObject({
      verdict: 'not_judged',
      http_status: status,
      evidence: `HTTP ${status} (Age 0 s, X-Cache: MISS)`
    })
    expect(urlsAsked(result)).toEqual([APP])
    expect(result.pages.get(HOME)).toEqual(counts({ not_judged: 1 }))
  })

  it('no answer', async () => {
    const result = await run({}, answers({ [APP]: [refused] }))
    expect(result.files[0]).toMatchObject({
      verdict: 'not_judged',
      http_status: null,
      age: null,
      evidence: 'no answer: network error: connect ECONNREFUSED'
    })
    expect(result.lines).toContain(
      `? not judged ${APP}: no answer: network error: connect ECONNREFUSED`
    )
  })

  it('no answer within the request timeout', async () => {
    const result = await run(
      { requestTimeoutMs: 2000 },
      answers({ [APP]: [miss(200)] }, () => 5000)
    )
    expect(result.files[0]).toMatchObject({
      verdict: 'not_judged',
      evidence: 'no answer: no complete answer within 2 s'
    })
  })
})

describe('redirects', () => {
  const hops = Array.from({ length: 7 }, (_, index) => own(`/r/${index}`))
  const chain = (length: number): Record<string, Answer<PageReading>[]> =>
    Object.fromEntries(
      hops.map((url, index) => [
        url,
        [index < length ? page(301, '', { location: `/r/${index + 1}` }) : miss(200)]
      ])
    )

  it('are followed to any host, and the final answer judged', async () => {
    const cdn = 'https://cdn.example.net/app.js'
    const result = await run(
      {},
      answers({
        [APP]: [page(301, '', { location: '/assets/app.js#top' })],
        [own('/assets/app.js')]: [page(307, '', { location: cdn })],
        [cdn]: [miss(200)]
      })
    )
    expect(urlsAsked(result)).toEqual([APP, own('/assets/app.js'), cdn])
    expect(result.files[0]).toMatchObject({
      verdict: 'whole',
      http_status: 200,
      evidence: `HTTP 200 at ${cdn} after 2 redirects (Age 0 s, X-Cache: MISS)`
    })
  })

  it('up to 5', async () => {
    const result = await run({ pages: [pageLoading(HOME, hops[0] as string)] }, answers(chain(5)))
    expect(urlsAsked(result)).toEqual(hops.slice(0, 6))
    expect(result.files[0]).toMatchObject({ verdict: 'whole', http_status: 200 })
  })

  // A chain this long proves neither that the file loads nor that it is missing.
  it('a 6th is not followed: not judged', async () => {
    const result = await run({ pages: [pageLoading(HOME, hops[0] as string)] }, answers(chain(6)))
    expect(urlsAsked(result)).toEqual(hops.slice(0, 6))
    expect(result.files[0]).toMatchObject({
      verdict: 'not_judged',
      http_status: 301,
      evidence: `HTTP 301 at ${hops[5]} after 5 redirects, redirected to ${hops[6]}: more than 5 redirects, not followed`
    })
  })
})

describe('pages and files', () => {
  const ABOUT = own('/about/')

  it('a file two pages load is checked once and counted on both, with its one verdict', async () => {
    const result = await run(
      { pages: [pageLoading(HOME, APP, CSS), pageLoading(ABOUT, CSS, '/about.js')] },
      answers({ [CSS]: [miss(404)] })
    )
    expect(urlsAsked(result).sort()).toEqual([APP, CSS, own('/about.js')].sort())
    expect(
      result.files.map(({ url, page, pages, verdict }) => ({ url, page, pages, verdict }))
    ).toEqual([
      { url: APP, page: HOME, pages: 1, verdict: 'whole' },
      { url: CSS, page: HOME, pages: 2, verdict: 'broken' },
      { url: own('/about.js'), page: ABOUT, pages: 1, verdict: 'whole' }
    ])
    expect(result.pages).toEqual(
      new Map([
        [HOME, counts({ whole: 1, broken: 1 })],
        [ABOUT, counts({ whole: 1, broken: 1 })]
      ])
    )
    expect(result.lines.filter((line) => line.includes(CSS))).toHaveLength(1)
  })

  it('files on another host are counted and never requested', async () => {
    const html = `<script src="https://cdn.example.net/lib.js"></script>
      <link rel="stylesheet" href="//fonts.example.org/f.css">
      <img src="http://www.example.com/logo.png"><script src="/app.js"></script>`
    const result = await run({ pages: [pageOf(HOME, html)] }, answers({}))
    expect(urlsAsked(result)).toEqual([own('/app.js')])
    expect(result.files.map(({ url }) => url)).toEqual([own('/app.js')])
    expect(result.pages.get(HOME)).toEqual(counts({ whole: 1, other_host: 3 }))
  })

  it('a reference to the page itself is no file: neither checked nor counted', async () => {
    const html = '<img src="#"><script src="/#main"></script><img src="/logo.png">'
    const result = await run({ pages: [pageOf(`${HOME}#top`, html)] }, answers({}))
    expect(urlsAsked(result)).toEqual([own('/logo.png')])
    expect(result.pages.get(`${HOME}#top`)).toEqual(counts({ whole: 1 }))
  })

  it('a page with no file counts zeros and asks for nothing', async () => {
    const result = await run({ pages: [pageOf(HOME, '<p>text only</p>')] }, answers({}))
    expect(result.files).toEqual([])
    expect(result.pages).toEqual(new Map([[HOME, counts()]]))
    expect(result.prober.calls).toEqual([])
  })
})

describe('bounds', () => {
  const files = (prefix: string, count: number): string[] =>
    Array.from({ length: count }, (_, index) => `/${prefix}/${index}.js`)

  it('at most 100 files a page: the rest are over its limit, even those another page checks', async () => {
    const [first, second] = [own('/first/'), own('/second/')]
    const result = await run(
      {
        concurrency: 50,
        pages: [
          pageLoading(first, ...files('a', 150)),
          pageLoading(second, ...files('b', 100), '/a/0.js')
        ]
      },
      answers({})
    )
    expect(result.prober.calls).toHaveLength(200)
    expect(result.pages).toEqual(
      new Map([
        [first, counts({ whole: 100, over_limit: 50 })],
        [second, counts({ whole: 100, over_limit: 1 })]
      ])
    )
    expect(result.files.find(({ url }) => url === own('/a/0.js'))).toMatchObject({ pages: 1 })
  })

  it('at most 1,000 files a run: new files past it are over the limit, files already checked still count', async () => {
    const pages = Array.from({ length: 11 }, (_, index) =>
      pageLoading(own(`/p/${index}/`), ...files(`f${index}`, 100))
    )
    const last = pageLoading(own('/p/last/'), '/f0/0.js', '/new.js')
    const result = await run({ concurrency: 100, pages: [...pages, last] }, answers({}))
    expect(result.prober.calls).toHaveLength(1000)
    expect(result.files).toHaveLength(1000)
    expect(result.pages.get(own('/p/9/'))).toEqual(counts({ whole: 100 }))
    expect(result.pages.get(own('/p/10/'))).toEqual(counts({ over_limit: 100 }))
    expect(result.pages.get(own('/p/last/'))).toEqual(counts({ whole: 1, over_limit: 1 }))
    expect(result.files[0]).toMatchObject({ pages: 2 })
  })
})

describe('the window and the cancel', () => {
  const many = Array.from({ length: 10 }, (_, index) => own(`/f/${index}.js`))

  it('no check starts after the deadline: the files not reached are not judged, saying why', async () => {
    const result = await run(
      { pages: [pageLoading(HOME, ...many)], concurrency: 1, windowMs: 300 },
      answers({})
    )
    expect(result.prober.calls.map(({ at }) => at - result.started)).toEqual([0, 100, 200, 300])
    expect(result.files.map(({ verdict }) => verdict)).toEqual([
      ...Array<string>(4).fill('whole'),
      ...Array<string>(6).fill('not_judged')
    ])
    expect(
      result.files
        .slice(4)
        .every(
          ({ evidence, http_status }) => evidence === NOT_CHECKED_IN_TIME && http_status === null
        )
    ).toBe(true)
    expect(result.pages.get(HOME)).toEqual(counts({ whole: 4, not_judged: 6 }))
    expect(result.lines.slice(-3)).toEqual([
      '6 files not checked within verify-timeout: raise verify-timeout or concurrency',
      '4 whole, 0 healed, 0 broken, 6 not judged; not checked, counted by page: 0 on another host, 0 over the limit',
      '[end]'
    ])
  })

  it('a window already spent: nothing is asked for', async () => {
    const result = await run({ pages: [pageLoading(HOME, ...many)], windowMs: -1 }, answers({}))
    expect(result.prober.calls).toEqual([])
    expect(result.files.every(({ evidence }) => evidence === NOT_CHECKED_IN_TIME)).toBe(true)
  })

  it('no purge starts after the deadline: a cached 404 found late stays broken', async () => {
    const result = await run(
      { windowMs: 800 },
      answers({ [APP]: [hit(404)] }, () => 900)
    )
    expect(result.purges).toEqual([])
    expect(result.files[0]).toMatchObject({
      verdict: 'broken',
      evidence:
        'a cached HTTP 404 (Age 120 s, X-Cache: HIT); not purged: no time left within verify-timeout'
    })
  })

  it('the stage ends within the window plus one request timeout', async () => {
    const result = await run(
      { pages: [pageLoading(HOME, ...many)], windowMs: 60_000, requestTimeoutMs: 30_000 },
      answers({}, () => Infinity)
    )
    expect(result.ended - result.started).toBeLessThanOrEqual(60_000 + 30_000)
    expect(result.prober.maxInFlight).toBe(4)
  })

  it('a cancel returns at once: verdicts made stay, the rest are not judged', async () => {
    const controller = new AbortController()
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => own(`/${name}.js`)) as [
      string,
      string,
      string,
      string
    ]
    const result = await run(
      { pages: [pageLoading(HOME, a, b, c, d, APP)], concurrency: 2, signal: controller.signal },
      (url, check) => {
        if (url === d) controller.abort()
        const answer = url === b && check === 1 ? miss(503) : url === c ? hit(404) : miss(200)
        return { answer, takesMs: url === b ? 50 : url === c ? 20 : 100 }
      }
    )
    expect(result.cancelled).toBe(true)
    expect(result.ended - result.started).toBeLessThan(1000)
    expect(result.files.map(({ url, verdict, evidence }) => ({ url, verdict, evidence }))).toEqual([
      { url: a, verdict: 'whole', evidence: 'HTTP 200 (Age 0 s, X-Cache: MISS)' },
      {
        url: b,
        verdict: 'not_judged',
        evidence: 'HTTP 503 (Age 0 s, X-Cache: MISS); not checked again: the run was cancelled'
      },
      {
        url: c,
        verdict: 'not_judged',
        evidence:
          'a cached HTTP 404 (Age 120 s, X-Cache: HIT); the run was cancelled while it was being purged'
      },
      { url: d, verdict: 'not_judged', evidence: NOT_JUDGED_CANCELLED },
      { url: APP, verdict: 'not_judged', evidence: NOT_JUDGED_CANCELLED }
    ])
    expect(result.pages.get(HOME)).toEqual(counts({ whole: 1, not_judged: 4 }))
    expect(result.lines.slice(-3)).toEqual([
      '2 files not checked: the run was cancelled',
      '1 whole, 0 healed, 0 broken, 4 not judged (the run was cancelled); not checked, counted by page: 0 on another host, 0 over the limit',
      '[end]'
    ])
  })
})
