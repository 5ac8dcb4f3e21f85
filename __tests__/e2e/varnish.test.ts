/**
 * Real-cache end-to-end tests: the bundled dist/index.js, run as the runner runs it, purges a real
 * Varnish (vmods xkey and purge) through the spec's management API and per-URL PURGE; every effect
 * is checked by requesting the content through Varnish (`X-Cache` and the origin's version).
 *
 * Each test gets a fresh test bed (origin, Varnish, API; see ./testbed), so the cache starts empty,
 * every page starts at version 1 and the object counts Varnish reports are exact.
 * Without varnishd (PATH, /usr/sbin, or $VARNISHD) the suite is skipped, saying so.
 */
import { describe, expect, it } from '@jest/globals'
import { FakeGitHubApi } from '../../tools/fake-github-api/server.js'
import { resultsOf, runAction, type ActionRun } from '../../tools/run-like-runner.js'
import { expectExit, useTestBed, whileRunning } from './testbed/action-run.js'
import { pollUntil } from './testbed/http.js'
import { findVarnishd, SERVICE, TOKENS } from './testbed/index.js'

const SKIP_MESSAGE = 'varnishd not installed: real-cache tests skipped'
const varnishd = findVarnishd()

/** Every page of the test site (see SITE): blog pages tagged `blog`, product pages tagged
 * `product-<n>` and `products`, `/about` untagged. */
const PAGES = ['/blog/1', '/blog/2', '/product/1', '/product/2', '/about']
const ID = /^\d+-\d+-\d+$/
const TEST_MS = 90_000
const GH_TOKEN = 'gh-test-token'

const servedAs = (paths: readonly string[], served: string): Record<string, string> =>
  Object.fromEntries(paths.map((path) => [path, served]))

if (varnishd === undefined) {
  console.warn(
    `${SKIP_MESSAGE}. Install the Debian packages varnish and varnish-modules (.ci/run does), or set VARNISHD to varnishd's path.`
  )
  describe('real cache (Varnish)', () => {
    it.skip(SKIP_MESSAGE, () => undefined)
  })
} else {
  describe('real cache (Varnish)', () => {
    const { bed, api, contentUrl } = useTestBed(
      varnishd,
      async (started) => {
        expect(await started.warm(PAGES)).toEqual(servedAs(PAGES, 'HIT v1'))
      },
      TEST_MS
    )
    /** After a purge of `blog`: both blog pages are fetched anew, then cached; the rest stays v1. */
    const expectOnlyBlogRefreshed = async (): Promise<void> => {
      expect(await bed().look(PAGES)).toEqual({
        '/blog/1': 'MISS v2',
        '/blog/2': 'MISS v2',
        '/product/1': 'HIT v1',
        '/product/2': 'HIT v1',
        '/about': 'HIT v1'
      })
      expect(await bed().look(['/blog/1', '/blog/2'])).toEqual(
        servedAs(['/blog/1', '/blog/2'], 'HIT v2')
      )
    }

    it(
      'one key: its objects come back fresh (MISS, new version), other-tagged and untagged objects stay HITs',
      async () => {
        const run = await runAction({ ...api(), keys: 'blog' })
        expectExit(run, 0)
        const [result] = resultsOf(run)
        expect(result).toMatchObject({ type: 'key', target: 'blog', soft: false, status: 'purged' })
        expect(result?.id).toMatch(ID)
        expect(run.outputs['purge-id']).toBe(result?.id)
        expect(bed().api.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
          `POST /service/${SERVICE}/purge/blog`
        ])
        expect(bed().api.invalidations).toEqual([
          { service: SERVICE, operation: 'key', key: 'blog', objects: 2, id: result?.id }
        ])

        await expectOnlyBlogRefreshed()
      },
      TEST_MS
    )

    it(
      'batch in JSON form: several keys in one call, each refreshed, the rest still cached',
      async () => {
        const run = await runAction({ ...api(), keys: 'blog product-1' })
        expectExit(run, 0)
        expect(run.outputs['purged-count']).toBe('2')
        const [request, ...more] = bed().api.requests
        expect(more).toEqual([])
        expect(request?.path).toBe(`/service/${SERVICE}/purge`)
        expect(request?.headers['content-type']).toBe('application/json')
        expect(JSON.parse(request?.body ?? '')).toEqual({ surrogate_keys: ['blog', 'product-1'] })
        const ids = JSON.parse(run.outputs['purge-ids'] ?? '') as Record<string, string>
        expect(bed().api.invalidations).toEqual([
          { service: SERVICE, operation: 'key', key: 'blog', objects: 2, id: ids.blog },
          { service: SERVICE, operation: 'key', key: 'product-1', objects: 1, id: ids['product-1'] }
        ])

        expect(await bed().look(PAGES)).toEqual({
          '/blog/1': 'MISS v2',
          '/blog/2': 'MISS v2',
          '/product/1': 'MISS v2',
          '/product/2': 'HIT v1',
          '/about': 'HIT v1'
        })
      },
      TEST_MS
    )

    it(
      'batch in header form: Surrogate-Key header; tagged objects refreshed, an unused key purges nothing',
      async () => {
        const run = await runAction({
          ...api(),
          keys: 'product-1 product-2 product-99',
          'batch-format': 'header'
        })
        expectExit(run, 0)
        expect(run.outputs['purged-count']).toBe('3')
        const [request, ...more] = bed().api.requests
        expect(more).toEqual([])
        expect(request?.path).toBe(`/service/${SERVICE}/purge`)
        expect(request?.headers['surrogate-key']).toBe('product-1 product-2 product-99')
        expect(request?.body).toBe('')
        expect(bed().api.invalidations.map(({ key, objects }) => [key, objects])).toEqual([
          ['product-1', 1],
          ['product-2', 1],
          ['product-99', 0]
        ])

        expect(await bed().look(PAGES)).toEqual({
          '/blog/1': 'HIT v1',
          '/blog/2': 'HIT v1',
          '/product/1': 'MISS v2',
          '/product/2': 'MISS v2',
          '/about': 'HIT v1'
        })
      },
      TEST_MS
    )

    it(
      'soft key purge: stale served (grace) while Varnish revalidates in the background, then the fresh version as a HIT',
      async () => {
        const run = await runAction({ ...api(TOKENS.billing), keys: 'blog', soft: 'true' })
        expectExit(run, 0)
        expect(resultsOf(run)[0]).toMatchObject({ target: 'blog', soft: true, status: 'purged' })
        expect(bed().api.requests[0]?.headers['edge-soft-purge']).toBe('1')
        expect(bed().api.invalidations).toEqual([
          {
            service: SERVICE,
            operation: 'soft-key',
            key: 'blog',
            objects: 2,
            id: run.outputs['purge-id']
          }
        ])

        for (const path of ['/blog/1', '/blog/2']) {
          // The first request after a soft purge gets the old copy at once...
          expect(await bed().get(path)).toBe('HIT-STALE v1')
          // ...and triggers one background fetch; until it lands, stale is served, then the new copy.
          const seen = await pollUntil(
            () => bed().get(path),
            (served) => served !== 'HIT-STALE v1',
            { what: `${path} refreshed after the soft purge` }
          )
          expect(seen.at(-1)).toBe('HIT v2')
          // That fetch was a revalidation of the stale copy (If-None-Match), answered with new content.
          expect(
            bed()
              .origin.requestsFor(path)
              .map(({ ifNoneMatch, status, version }) => [ifNoneMatch, status, version])
          ).toEqual([
            [undefined, 200, 1],
            ['"v1"', 200, 2]
          ])
        }
        expect(await bed().look(['/product/1', '/product/2', '/about'])).toEqual(
          servedAs(['/product/1', '/product/2', '/about'], 'HIT v1')
        )
      },
      TEST_MS
    )

    it(
      'permissions: soft key purge needs Billing, purge-all Engineer, a bad token nothing; refused purges invalidate nothing',
      async () => {
        const soft = await runAction({ ...api(TOKENS.purge), keys: 'blog', soft: 'true' })
        expectExit(soft, 1)
        expect(resultsOf(soft)[0]).toMatchObject({ status: 'failed', http_status: 403 })
        expect(resultsOf(soft)[0]?.error).toContain('Billing')

        const all = await runAction({ ...api(TOKENS.billing), mode: 'all' })
        expectExit(all, 1)
        expect(resultsOf(all)[0]).toMatchObject({ type: 'all', status: 'failed', http_status: 403 })
        expect(resultsOf(all)[0]?.error).toContain('Engineer')

        const unknown = await runAction({ ...api('not-a-token'), keys: 'blog product-1' })
        expectExit(unknown, 1)
        expect(resultsOf(unknown).map((result) => result.http_status)).toEqual([401, 401])

        expect(bed().api.requests.map((request) => request.status)).toEqual([403, 403, 401])
        expect(bed().api.invalidations).toEqual([])
        expect(await bed().look(PAGES)).toEqual(servedAs(PAGES, 'HIT v1'))

        // The lowest role may still purge keys instantly.
        const hard = await runAction({ ...api(TOKENS.purge), keys: 'product-2' })
        expectExit(hard, 0)
        expect(await bed().look(PAGES)).toEqual({
          ...servedAs(PAGES, 'HIT v1'),
          '/product/2': 'MISS v2'
        })
      },
      TEST_MS
    )

    it(
      'hard URL purge: PURGE to the Varnish address removes exactly those URLs, and fetches nothing',
      async () => {
        const urls = [contentUrl('/product/1'), contentUrl('/blog/1'), contentUrl('/never-cached')]
        const run = await runAction({ urls: urls.join('\n') })
        expectExit(run, 0)
        const results = resultsOf(run)
        expect(results.map(({ type, soft, status }) => [type, soft, status])).toEqual([
          ['url', false, 'purged'],
          ['url', false, 'purged'],
          ['url', false, 'purged']
        ])
        // Varnish's id ends with the number of objects its purge.hard() removed.
        expect(results.map((result) => result.id?.replace(/^\d+-\d+-/, ''))).toEqual([
          '1',
          '1',
          '0'
        ])
        for (const result of results) expect(result.id).toMatch(ID)
        expect(bed().origin.requestsFor('/never-cached')).toEqual([])

        expect(await bed().look(PAGES)).toEqual({
          '/blog/1': 'MISS v2',
          '/blog/2': 'HIT v1',
          '/product/1': 'MISS v2',
          '/product/2': 'HIT v1',
          '/about': 'HIT v1'
        })
      },
      TEST_MS
    )

    it(
      'soft URL purge: stale once then fresh for changed content; unchanged content is revalidated (304) and kept',
      async () => {
        bed().origin.freeze('/about')
        const run = await runAction({
          urls: `${contentUrl('/product/1')} ${contentUrl('/about')}`,
          soft: 'true'
        })
        expectExit(run, 0)
        const results = resultsOf(run)
        expect(results.map(({ soft, status }) => [soft, status])).toEqual([
          [true, 'purged'],
          [true, 'purged']
        ])
        expect(results.map((result) => result.id?.replace(/^\d+-\d+-/, ''))).toEqual(['1', '1'])

        const refreshed = (path: string): Promise<string[]> =>
          pollUntil(
            () => bed().get(path),
            (served) => served !== 'HIT-STALE v1',
            { what: `${path} refreshed after the soft purge` }
          )
        expect(await bed().get('/product/1')).toBe('HIT-STALE v1')
        expect((await refreshed('/product/1')).at(-1)).toBe('HIT v2')

        expect(await bed().get('/about')).toBe('HIT-STALE v1')
        // Revalidated: fresh again (HIT, not stale) with the same content, the origin sent 304.
        expect((await refreshed('/about')).at(-1)).toBe('HIT v1')
        expect(
          bed()
            .origin.requestsFor('/about')
            .map(({ ifNoneMatch, status }) => [ifNoneMatch, status])
        ).toEqual([
          [undefined, 200],
          ['"v1"', 304]
        ])

        expect(await bed().look(['/blog/1', '/blog/2', '/product/2'])).toEqual(
          servedAs(['/blog/1', '/blog/2', '/product/2'], 'HIT v1')
        )
      },
      TEST_MS
    )

    it(
      'changed-files: the page a multi-commit push changed and its key are refreshed, the rest stay cached',
      async () => {
        const pages = ['/product/1.html', '/product/2.html']
        expect(await bed().warm(pages)).toEqual(servedAs(pages, 'HIT v1'))
        const github = await FakeGitHubApi.start({ tokens: { [GH_TOKEN]: 'read' } })
        try {
          const before = github.commit(null, [
            { write: 'public/product/1.html' },
            { write: 'public/product/2.html' },
            { write: 'content/blog/1.md' },
            { write: 'content/blog/2.md' },
            { write: 'README.md' }
          ])
          // Two commits: the page changed in the first, so diffing only the last would miss it.
          const [, after = ''] = github.chain(before, [
            [{ write: 'public/product/1.html' }],
            [{ write: 'content/blog/2.md' }, { write: 'README.md' }]
          ])
          const run = await runAction(
            {
              ...api(),
              'changed-files': 'true',
              'github-token': GH_TOKEN,
              'url-map': `public/ => ${contentUrl('/')}`,
              'key-map': 'content/blog/** => blog'
            },
            {
              files: {
                'event.json': JSON.stringify({
                  ref: 'refs/heads/main',
                  before,
                  after,
                  forced: false
                })
              },
              env: {
                GITHUB_EVENT_NAME: 'push',
                GITHUB_EVENT_PATH: 'event.json',
                GITHUB_REPOSITORY: `${github.owner}/${github.repo}`,
                GITHUB_SHA: after,
                GITHUB_API_URL: github.url
              }
            }
          )
          expectExit(run, 0)
          expect(github.requestsTo(/\/compare\//).map((request) => request.path)).toEqual([
            `/repos/${github.owner}/${github.repo}/compare/${before}...${after}`
          ])
          const results = resultsOf(run)
          expect(
            results
              .map(({ type, target, status, source, file }) => [type, target, status, source, file])
              .sort()
          ).toEqual([
            ['key', 'blog', 'purged', 'changed-files', 'content/blog/2.md'],
            [
              'url',
              contentUrl('/product/1.html'),
              'purged',
              'changed-files',
              'public/product/1.html'
            ]
          ])
          // Varnish's id for the URL purge ends with the number of objects purge.hard() removed.
          const urlResult = results.find((result) => result.type === 'url')
          expect(urlResult?.id?.split('-').at(-1)).toBe('1')
          expect(bed().api.invalidations).toEqual([
            {
              service: SERVICE,
              operation: 'key',
              key: 'blog',
              objects: 2,
              id: results.find((result) => result.type === 'key')?.id
            }
          ])

          expect(await bed().look([...pages, ...PAGES])).toEqual({
            '/product/1.html': 'MISS v2',
            '/product/2.html': 'HIT v1',
            '/blog/1': 'MISS v2',
            '/blog/2': 'MISS v2',
            '/product/1': 'HIT v1',
            '/product/2': 'HIT v1',
            '/about': 'HIT v1'
          })
          expect(await bed().look(['/product/1.html'])).toEqual({ '/product/1.html': 'HIT v2' })
          expect(bed().origin.requestsFor('/product/2.html')).toHaveLength(1)
        } finally {
          await github.close()
        }
      },
      TEST_MS
    )

    it(
      'repeat-after: a stale copy cached between the two passes (shield refill) is removed by the second pass',
      async () => {
        // The origin plays the shield: until the shield is purged too, it still hands out v1.
        bed().origin.freeze('/blog/1')
        // The second pass's call waits at the API until the test has refilled the edge, so the refill
        // lands between the passes however slow the machine is.
        const second = bed().api.hold((_request, index) => index === 1)
        const running = runAction({ ...api(), keys: 'blog', 'repeat-after': '1' })
        const between: string[] = []
        let run: ActionRun | undefined
        try {
          await whileRunning(
            running,
            () => bed().api.invalidations.length >= 1,
            'the first pass purged blog'
          )
          // The edge is empty for /blog/1 now; a request refills it from the shield's stale copy.
          between.push(await bed().get('/blog/1'), await bed().get('/blog/1'))
          bed().origin.thaw('/blog/1')
          await whileRunning(running, () => bed().api.requests.length >= 2, 'the second pass')
        } finally {
          second.release()
          run = await running
        }
        expectExit(run, 0)
        expect(between).toEqual(['MISS v1', 'HIT v1'])

        const calls = bed().api.requests
        expect(
          calls.map((request) => `${request.method} ${request.path} ${request.status}`)
        ).toEqual([
          `POST /service/${SERVICE}/purge/blog 200`,
          `POST /service/${SERVICE}/purge/blog 200`
        ])
        // The same call twice: same headers that matter, same (empty) body.
        const [firstCall, secondCall] = calls.map(({ headers, body }) => ({
          key: headers['edge-key'],
          accept: headers.accept,
          soft: headers['edge-soft-purge'],
          body
        }))
        expect(secondCall).toEqual(firstCall)
        // First pass: both blog pages; second pass: exactly the copy cached between the passes.
        const [first, again] = bed().api.invalidations
        expect(bed().api.invalidations.map(({ key, objects }) => [key, objects])).toEqual([
          ['blog', 2],
          ['blog', 1]
        ])
        const [result, ...others] = resultsOf(run)
        expect(others).toEqual([])
        expect(result).toMatchObject({
          type: 'key',
          target: 'blog',
          status: 'purged',
          id: first?.id,
          attempts: 1,
          repeat: { status: 'purged', id: again?.id, attempts: 1 }
        })

        await expectOnlyBlogRefreshed()
      },
      TEST_MS
    )

    it(
      'purge-all: every object, tagged or not, comes back fresh',
      async () => {
        const run = await runAction({ ...api(), mode: 'all' })
        expectExit(run, 0)
        expect(resultsOf(run)).toEqual([
          {
            type: 'all',
            target: SERVICE,
            service: SERVICE,
            soft: false,
            status: 'purged',
            id: null,
            http_status: 200,
            attempts: 1,
            error: null
          }
        ])
        expect(bed().api.invalidations.map(({ operation }) => operation)).toEqual(['purge-all'])

        expect(await bed().look(PAGES)).toEqual(servedAs(PAGES, 'MISS v2'))
        expect(await bed().look(PAGES)).toEqual(servedAs(PAGES, 'HIT v2'))
      },
      TEST_MS
    )
  })
}
