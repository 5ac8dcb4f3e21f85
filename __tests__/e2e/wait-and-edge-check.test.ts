/**
 * Freshness against a real cache: the bundled action waits until the origin serves the release,
 * purges, then checks at the edge (Varnish) that visitors get fresh copies, run as the runner runs it.
 *
 * Every page is cached before a run from an origin that says its copies are a minute old (`Age: 60`,
 * as a shield that has held them would), then the origin stops saying so: the edge's copies are old
 * by their `Age` at once and exactly, with no sleeping, and anything fetched after the purge is new.
 * Without varnishd the suite is skipped, saying so (see varnish.test.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import {
  resultsOf,
  runAction,
  verificationOf,
  type ActionRun,
  type VerificationEntry as Verification
} from '../../tools/run-like-runner.js'
import { expectExit, useTestBed, whileRunning } from './testbed/action-run.js'
import { findVarnishd, FIRST_RELEASE, SERVICE, VERSION_PATH } from './testbed/index.js'
import { textOf } from '../support/rendered-markdown.js'

const SKIP_MESSAGE = 'varnishd not installed: real-cache freshness tests skipped'
const varnishd = findVarnishd()

const PAGES = ['/blog/1', '/blog/2', '/product/1', '/product/2', '/about']
/** What the edge's copies were said to be aged when cached: far beyond any run's length. */
const CACHED_AGE = 60
/** The release a deploy brings; nothing the origin sends otherwise holds this text. */
const NEXT_RELEASE = 'release-2f9c1e0'
const TEST_MS = 90_000

/** The error annotations the runner would show (`::error ...::message`). */
const errorAnnotations = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith('::error'))

if (varnishd === undefined) {
  console.warn(`${SKIP_MESSAGE}. See varnish.test.ts for how to install varnishd.`)
  describe('freshness at a real edge (Varnish)', () => {
    it.skip(SKIP_MESSAGE, () => undefined)
  })
} else {
  describe('freshness at a real edge (Varnish)', () => {
    // Copies cached before the purge are made old at once: the origin hands them over already aged.
    const { bed, api, contentUrl } = useTestBed(
      varnishd,
      async (started) => {
        started.origin.age(CACHED_AGE)
        await started.warm(PAGES)
        started.origin.age(0)
        for (const path of PAGES)
          expect(await started.copy(path)).toMatchObject({ cache: 'HIT', release: FIRST_RELEASE })
        expect((await started.copy('/blog/1')).age).toBeGreaterThanOrEqual(CACHED_AGE)
      },
      TEST_MS
    )
    const versionUrl = (): string => `${bed().origin.url}${VERSION_PATH}`
    const byUrl = (run: ActionRun, path: string): Verification | undefined =>
      verificationOf(run).find((entry) => entry.url === contentUrl(path))

    it(
      'the origin changes release while the action waits: nothing is purged before, the purge follows, the edge serves the new release',
      async () => {
        const running = runAction({
          ...api(),
          keys: 'blog',
          'wait-for-url': versionUrl(),
          'wait-for-text': NEXT_RELEASE,
          'wait-timeout': '60',
          'verify-urls': contentUrl('/blog/1'),
          'verify-text': NEXT_RELEASE,
          'verify-timeout': '10'
        })
        let sentBeforeRelease: unknown[] | undefined
        try {
          await whileRunning(
            running,
            () => bed().origin.versionChecks.length >= 2,
            'two checks of the version endpoint'
          )
          sentBeforeRelease = [...bed().api.requests]
        } finally {
          // Also on a failure above, so the run ends without waiting out its wait-timeout.
          bed().origin.release(NEXT_RELEASE)
        }
        const run = await running
        expectExit(run, 0)
        expect(sentBeforeRelease).toEqual([])

        // Checked until it showed the release once (wait-passes 1), then not again.
        const checks = bed().origin.versionChecks
        expect(checks.map(({ release }) => release)).toEqual([
          ...checks.slice(0, -1).map(() => FIRST_RELEASE),
          NEXT_RELEASE
        ])
        const lastCheck = checks.at(-1)?.at ?? Infinity
        const calls = bed().api.requests
        expect(calls.map(({ path, status }) => [path, status])).toEqual([
          [`/service/${SERVICE}/purge/blog`, 200]
        ])
        expect(calls[0]?.at).toBeGreaterThanOrEqual(lastCheck)
        // The origin is asked as a visitor's browser would be: never with the API token.
        for (const { headers } of checks) {
          expect(headers['edge-key']).toBeUndefined()
          expect(headers.authorization).toBeUndefined()
          expect(headers['user-agent']).toBe('edge-purge/1')
          expect(headers['accept-encoding']).toBe('gzip, deflate, br')
        }
        expect(Number(run.outputs['wait-seconds'])).toBeGreaterThanOrEqual(2)
        expect(run.summary).toContain(NEXT_RELEASE)

        expect(resultsOf(run)).toMatchObject([{ type: 'key', target: 'blog', status: 'purged' }])
        expect(verificationOf(run)).toEqual([
          {
            url: contentUrl('/blog/1'),
            fresh: true,
            http_status: 200,
            age: 0,
            checks: 1,
            evidence: expect.any(String)
          }
        ])
        expect([run.outputs['fresh-count'], run.outputs['stale-count']]).toEqual(['1', '0'])

        expect(await bed().copy('/blog/2')).toMatchObject({ cache: 'MISS', release: NEXT_RELEASE })
        expect(await bed().copy('/blog/1')).toMatchObject({ cache: 'HIT', release: NEXT_RELEASE })
        expect(await bed().copy('/about')).toMatchObject({ cache: 'HIT', release: FIRST_RELEASE })
      },
      TEST_MS
    )

    it(
      'the origin never changes: no purge call at all, every target not sent, the step fails',
      async () => {
        const run = await runAction({
          ...api(),
          keys: 'blog product-1',
          urls: contentUrl('/about'),
          'wait-for-url': versionUrl(),
          'wait-for-text': NEXT_RELEASE,
          'wait-timeout': '3',
          verify: 'true'
        })
        expectExit(run, 1)
        expect(bed().api.requests).toEqual([])
        const checks = bed().origin.versionChecks
        expect(checks.length).toBeGreaterThanOrEqual(2)
        expect(checks.every(({ release }) => release === FIRST_RELEASE)).toBe(true)

        const results = resultsOf(run)
        expect(results.map(({ type, target, status }) => [type, target, status]).sort()).toEqual([
          ['key', 'blog', 'failed'],
          ['key', 'product-1', 'failed'],
          ['url', contentUrl('/about'), 'failed']
        ])
        for (const { error, id, http_status, attempts } of results) {
          expect([id, http_status, attempts]).toEqual([null, null, 0])
          expect(error).toContain(versionUrl())
          expect(error).toContain(NEXT_RELEASE)
        }
        expect(textOf(run.summary)).toContain(versionUrl())
        expect(Number(run.outputs['wait-seconds'])).toBeGreaterThanOrEqual(2)
        // Nothing purged, so nothing verified.
        expect(run.outputs.verification).toBe('')
        expect([run.outputs['fresh-count'], run.outputs['stale-count']]).toEqual(['0', '0'])

        // The URL target was not purged either: every page is still the cached first release.
        for (const path of PAGES)
          expect(await bed().copy(path)).toMatchObject({ cache: 'HIT', version: 1 })
        expect(bed().origin.requestsFor('/about')).toHaveLength(1)
      },
      TEST_MS
    )

    it(
      'the API answers ok but purges nothing: the edge copy is stale by its Age and the step fails naming the URL',
      async () => {
        bed().api.lie()
        const run = await runAction({
          ...api(),
          keys: 'blog',
          'verify-urls': contentUrl('/blog/1'),
          'verify-timeout': '2'
        })
        expectExit(run, 1)
        // The purge results tell what the API said; the verification what visitors get.
        expect(resultsOf(run)).toMatchObject([
          { type: 'key', target: 'blog', status: 'purged', id: 'lie-1' }
        ])
        expect(run.outputs['purged-count']).toBe('1')
        expect(bed().api.invalidations).toEqual([])

        const [entry, ...others] = verificationOf(run)
        expect(others).toEqual([])
        expect(entry).toMatchObject({ url: contentUrl('/blog/1'), fresh: false, http_status: 200 })
        expect(entry?.age).toBeGreaterThanOrEqual(CACHED_AGE)
        expect(entry?.checks).toBeGreaterThanOrEqual(2)
        expect(entry?.evidence).toContain(String(entry?.age))
        expect([run.outputs['fresh-count'], run.outputs['stale-count']]).toEqual(['0', '1'])
        expect(JSON.parse(await readFile(run.outputs['verification-file'] ?? '', 'utf8'))).toEqual(
          verificationOf(run)
        )
        expect(
          errorAnnotations(run).filter((line) => line.includes(contentUrl('/blog/1')))
        ).not.toEqual([])

        expect(await bed().copy('/blog/1')).toMatchObject({ cache: 'HIT', version: 1 })
      },
      TEST_MS
    )

    it(
      'key purge verified on a tagged and an untagged page: the tagged one fresh, the untagged one stale',
      async () => {
        const run = await runAction({
          ...api(),
          keys: 'blog',
          'verify-urls': `${contentUrl('/blog/1')}\n${contentUrl('/about')}`,
          'verify-timeout': '2'
        })
        expectExit(run, 1)
        expect(resultsOf(run)).toMatchObject([{ type: 'key', target: 'blog', status: 'purged' }])
        expect(bed().api.invalidations.map(({ key, objects }) => [key, objects])).toEqual([
          ['blog', 2]
        ])

        expect(
          verificationOf(run)
            .map(({ url }) => url)
            .sort()
        ).toEqual([contentUrl('/about'), contentUrl('/blog/1')].sort())
        expect(byUrl(run, '/blog/1')).toMatchObject({ fresh: true, http_status: 200, checks: 1 })
        expect(byUrl(run, '/blog/1')?.age).toBeLessThanOrEqual(1)
        const untagged = byUrl(run, '/about')
        expect(untagged).toMatchObject({ fresh: false, http_status: 200 })
        expect(untagged?.age).toBeGreaterThanOrEqual(CACHED_AGE)
        expect([run.outputs['fresh-count'], run.outputs['stale-count']]).toEqual(['1', '1'])
        const annotated = errorAnnotations(run).join('\n')
        expect(annotated).toContain(contentUrl('/about'))
        expect(annotated).not.toContain(contentUrl('/blog/1'))
      },
      TEST_MS
    )

    it(
      'soft purge: the first check gets the stale copy, a later one the fresh copy, the step succeeds',
      async () => {
        const run = await runAction({
          urls: contentUrl('/product/1'),
          soft: 'true',
          verify: 'true',
          'verify-timeout': '10'
        })
        expectExit(run, 0)
        expect(resultsOf(run)).toMatchObject([{ type: 'url', soft: true, status: 'purged' }])

        const [entry, ...others] = verificationOf(run)
        expect(others).toEqual([])
        expect(entry).toMatchObject({
          url: contentUrl('/product/1'),
          fresh: true,
          http_status: 200
        })
        expect(entry?.checks).toBeGreaterThanOrEqual(2)
        expect(entry?.age).toBeLessThanOrEqual(1)
        expect([run.outputs['fresh-count'], run.outputs['stale-count']]).toEqual(['1', '0'])
        // The first check was served the stale copy, which made Varnish revalidate it once.
        expect(
          bed()
            .origin.requestsFor('/product/1')
            .map(({ ifNoneMatch, status, version }) => [ifNoneMatch, status, version])
        ).toEqual([
          [undefined, 200, 1],
          ['"v1"', 200, 2]
        ])
        expect(await bed().copy('/product/1')).toMatchObject({ cache: 'HIT', version: 2 })
      },
      TEST_MS
    )
  })
}
