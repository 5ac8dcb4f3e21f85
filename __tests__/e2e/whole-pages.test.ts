/**
 * Whole pages at a real edge (issue 39): with `verify-assets`, the bundled action, run as the runner
 * runs it, reads each HTML page the edge check fetches through Varnish and checks the files it
 * loads: a 404 Varnish cached before the deploy uploaded the file is purged and checked again
 * (healed), a file the deploy never uploaded fails the step, a file on another host is counted and
 * never requested.
 *
 * The origin is a static site (see testbed/origin.ts): `/index.html` loads hashed files under
 * `/assets/`, which exist only once `upload()`ed, and the VCL caches a 404 for an hour. Each test
 * gets a fresh test bed. Without varnishd the suite is skipped, saying so (see varnish.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import {
  assetsFileOf,
  runAction,
  verificationOf,
  type ActionRun
} from '../../tools/run-like-runner.js'
import { FakeContentServer } from '../../tools/fake-content-server.js'
import { expectExit, useTestBed } from './testbed/action-run.js'
import { request } from './testbed/http.js'
import { findVarnishd, SERVICE } from './testbed/index.js'
import type { VarnishRequest } from './testbed/varnish.js'

const SKIP_MESSAGE = 'varnishd not installed: real-cache whole-page tests skipped'
const varnishd = findVarnishd()

const TEST_MS = 90_000
const PAGE = '/index.html'
const APP = '/assets/app.3f9c1e0a.js'
const STYLES = '/assets/site.8b2d47c1.css'
/** The page's surrogate key: a deploy purges the HTML by it. */
const PAGE_KEY = 'home'

const SCRIPT = { contentType: 'text/javascript', body: 'document.body.dataset.ready = "1"\n' }
const STYLESHEET = { contentType: 'text/css', body: 'body { margin: 0 }\n' }

/** The deploy's index.html: its hashed stylesheet and script, and any further tags given. */
const indexHtml = (more = ''): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Site</title>
    <link rel="stylesheet" href="${STYLES}">
    <script type="module" src="${APP}"></script>
    ${more}
  </head>
  <body><h1>Site</h1></body>
</html>
`

const NO_FILES = { whole: 0, broken: 0, healed: 0, not_judged: 0, other_host: 0, over_limit: 0 }

/** The error annotations the runner would show (`::error ...::message`). */
const errorAnnotations = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith('::error'))

/** The requests of one method (GET, PURGE) for one path that reached Varnish, with its answers. */
const sent = (requests: VarnishRequest[], method: string, path: string): number[] =>
  requests
    .filter((request) => request.method === method && request.url === path)
    .map(({ status }) => status)

if (varnishd === undefined) {
  console.warn(`${SKIP_MESSAGE}. See varnish.test.ts for how to install varnishd.`)
  describe('whole pages at a real edge (Varnish)', () => {
    it.skip(SKIP_MESSAGE, () => undefined)
  })
} else {
  describe('whole pages at a real edge (Varnish)', () => {
    const { bed, api, contentUrl } = useTestBed(varnishd, () => Promise.resolve(), TEST_MS)

    /** A visitor's request through Varnish: its status and how Varnish served it (`404 HIT`). */
    const visit = async (path: string): Promise<string> => {
      const answer = await request(contentUrl(path))
      return `${answer.status} ${String(answer.headers['x-cache'])}`
    }
    const uploadPage = (more?: string): void =>
      bed().origin.upload(PAGE, {
        contentType: 'text/html',
        body: indexHtml(more),
        keys: [PAGE_KEY]
      })

    it(
      'a 404 cached before the file was uploaded: the HTML key purged, the file purged and checked again, healed, the step passes',
      async () => {
        uploadPage()
        bed().origin.upload(STYLES, STYLESHEET)
        // A visitor gets the new page a moment before the upload of its script ends: Varnish
        // caches the origin's 404 and serves it from then on.
        expect([await visit(PAGE), await visit(APP), await visit(APP)]).toEqual([
          '200 MISS',
          '404 MISS',
          '404 HIT'
        ])
        bed().origin.upload(APP, SCRIPT)
        expect(await visit(APP)).toBe('404 HIT')

        const run = await runAction({
          ...api(),
          keys: PAGE_KEY,
          'verify-urls': contentUrl(PAGE),
          'verify-assets': 'true',
          'verify-timeout': '20'
        })
        expectExit(run, 0)
        expect(
          bed().api.invalidations.map(({ service, key, objects }) => [service, key, objects])
        ).toEqual([[SERVICE, PAGE_KEY, 1]])
        expect([run.outputs['healed-count'], run.outputs['broken-count']]).toEqual(['1', '0'])
        expect(verificationOf(run)).toMatchObject([
          { url: contentUrl(PAGE), fresh: true, assets: { ...NO_FILES, whole: 1, healed: 1 } }
        ])

        expect(run.outputs['assets-file']?.startsWith(run.dir)).toBe(true)
        const files = await assetsFileOf(run)
        expect(files.map(({ url }) => url).sort()).toEqual([contentUrl(APP), contentUrl(STYLES)])
        expect(files.find(({ url }) => url === contentUrl(APP))).toMatchObject({
          page: contentUrl(PAGE),
          pages: 1,
          http_status: 200,
          verdict: 'healed',
          purged: true
        })
        expect(files.find(({ url }) => url === contentUrl(STYLES))).toMatchObject({
          http_status: 200,
          verdict: 'whole',
          purged: false
        })

        // Varnish got one PURGE, of the script's URL (without the API token: url-purge-auth is
        // off), after a check it served the cached 404 and before one it served from the origin;
        // the stylesheet was only fetched.
        const requests = await bed().varnish.clientRequests()
        expect(requests.filter(({ method }) => method === 'PURGE')).toEqual([
          { method: 'PURGE', url: APP, status: 200, edgeKey: undefined }
        ])
        const script = requests.filter(({ url }) => url === APP)
        expect(script.map(({ method, status }) => `${method} ${status}`)).toEqual([
          ...['GET 404', 'GET 404', 'GET 404'], // the visitor's, before the run
          'GET 404',
          'PURGE 200',
          'GET 200'
        ])
        expect(sent(requests, 'GET', STYLES)).toEqual([200])
        // The origin was asked for the script twice: the cached 404, and the file after the purge.
        expect(
          bed()
            .origin.requestsFor(APP)
            .map(({ status }) => status)
        ).toEqual([404, 200])
        expect(await visit(APP)).toBe('200 HIT')
      },
      TEST_MS
    )

    it(
      'a file the deploy never uploaded: not purged (the origin lacks it), the step fails naming the file and the page',
      async () => {
        uploadPage()
        bed().origin.upload(APP, SCRIPT)

        const run = await runAction({
          urls: contentUrl(PAGE),
          verify: 'true',
          'verify-assets': 'true',
          'verify-timeout': '20'
        })
        expectExit(run, 1)
        expect([run.outputs['broken-count'], run.outputs['healed-count']]).toEqual(['1', '0'])
        expect(verificationOf(run)).toMatchObject([
          { url: contentUrl(PAGE), fresh: true, assets: { ...NO_FILES, whole: 1, broken: 1 } }
        ])
        const files = await assetsFileOf(run)
        expect(files.find(({ url }) => url === contentUrl(STYLES))).toMatchObject({
          page: contentUrl(PAGE),
          pages: 1,
          http_status: 404,
          verdict: 'broken',
          purged: false
        })
        expect(files.find(({ url }) => url === contentUrl(APP))).toMatchObject({
          verdict: 'whole',
          purged: false
        })

        const named = errorAnnotations(run).filter(
          (line) => line.includes(contentUrl(STYLES)) && line.includes(contentUrl(PAGE))
        )
        expect(named).toHaveLength(1)
        expect(errorAnnotations(run).join('\n')).not.toContain(contentUrl(APP))

        // The page's URL was the purge target; the 404 came from the origin, so no purge of it.
        const requests = await bed().varnish.clientRequests()
        expect(requests.filter(({ method }) => method === 'PURGE')).toEqual([
          { method: 'PURGE', url: PAGE, status: 200, edgeKey: undefined }
        ])
        expect(sent(requests, 'GET', STYLES)).toEqual([404])
        expect(
          bed()
            .origin.requestsFor(STYLES)
            .map(({ status }) => status)
        ).toEqual([404])
      },
      TEST_MS
    )

    it(
      'a file on another host: counted for the page, never requested',
      async () => {
        const other = await FakeContentServer.start()
        try {
          other.page('/vendor/analytics.js', {
            headers: { 'Content-Type': SCRIPT.contentType },
            body: SCRIPT.body
          })
          const elsewhere = other.urlOf('/vendor/analytics.js')
          uploadPage(`<script async src="${elsewhere}"></script>`)
          bed().origin.upload(APP, SCRIPT)
          bed().origin.upload(STYLES, STYLESHEET)

          const run = await runAction({
            urls: contentUrl(PAGE),
            verify: 'true',
            'verify-assets': 'true',
            'verify-timeout': '20'
          })
          expectExit(run, 0)
          expect(verificationOf(run)).toMatchObject([
            { url: contentUrl(PAGE), fresh: true, assets: { ...NO_FILES, whole: 2, other_host: 1 } }
          ])
          expect([run.outputs['broken-count'], run.outputs['healed-count']]).toEqual(['0', '0'])
          expect((await assetsFileOf(run)).map(({ url }) => url).sort()).toEqual([
            contentUrl(APP),
            contentUrl(STYLES)
          ])
          expect(other.requests).toEqual([])
          expect(other.connections).toBe(0)
        } finally {
          await other.close()
        }
      },
      TEST_MS
    )
  })
}
