/**
 * The wait and edge-check stages through dist/index.js run as the runner runs it, against a fake
 * purge API and a fake content host: the rules of the Varnish suite, proven without Varnish.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCertificate } from '../tools/certificate.js'
import { FakeContentServer, VERSION_PATH } from '../tools/fake-content-server.js'
import { FakePurgeServer } from '../tools/fake-purge-api/server.js'
import { textOf } from './support/rendered-markdown.js'
import {
  resultsOf,
  runAction,
  verificationOf,
  type ActionRun,
  type VerificationEntry as Verification
} from '../tools/run-like-runner.js'

const TOKEN = 'test-token'
const GITHUB_TOKEN = 'ghs_distFreshnessToken0123456789'
/** The release a deploy brings; nothing the content host sends holds it unless a test says so. */
const RELEASE = 'release-2f9c1e0'

let api: FakePurgeServer
let content: FakeContentServer

async function startFakes(
  options: Parameters<typeof FakeContentServer.start>[0] = {}
): Promise<void> {
  api = await FakePurgeServer.start()
  content = await FakeContentServer.start(options)
}

afterEach(async () => {
  await api.close()
  await content.close()
})

const purgeApi = (): Record<string, string> => ({
  'api-token': TOKEN,
  'base-url': api.url,
  'service-id': 'svc123',
  'github-token': GITHUB_TOKEN
})

const versionUrl = (): string => content.urlOf(VERSION_PATH)

const entryFor = (run: ActionRun, path: string): Verification | undefined =>
  verificationOf(run).find((entry) => entry.url === content.urlOf(path))

const annotations = (run: ActionRun, kind: 'error' | 'warning' | 'notice'): string[] =>
  run.stdout.split('\n').filter((line) => line.startsWith(`::${kind}`))

/** Every request the action sent anywhere: to the purge API and to the content host. */
const allRequests = (): unknown[] => [...api.requests, ...content.requests]

describe('wait for the origin', () => {
  it('purges once the origin shows wait-for-text, and reports the wait in the outputs and summary', async () => {
    await startFakes()
    content.release('release-1', RELEASE)
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-timeout': '5'
    })
    expect(run.code).toBe(0)
    expect(content.gets(VERSION_PATH)).toHaveLength(2)
    expect(api.requests.map((request) => request.path)).toEqual(['/service/svc123/purge/blog'])
    expect(run.outputs['wait-seconds']).toBe('2')
    expect(resultsOf(run)).toMatchObject([{ target: 'blog', status: 'purged' }])
    const summary = textOf(run.summary)
    expect(summary).toContain(RELEASE)
    expect(summary).toContain(versionUrl())
  })

  it('on timeout sends no purge call at all: every target failed naming the URL and what was awaited', async () => {
    await startFakes()
    content.page('/about', { age: 0 })
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog products',
      urls: content.urlOf('/about'),
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-timeout': '3',
      verify: 'true'
    })
    expect(run.code).toBe(1)
    expect(api.requests).toEqual([])
    expect(content.purges).toEqual([])
    // Nothing purged, so nothing checked at the edge.
    expect(content.gets('/about')).toEqual([])

    const results = resultsOf(run)
    expect(results.map(({ type, target, status }) => [type, target, status])).toEqual([
      ['key', 'blog', 'failed'],
      ['key', 'products', 'failed'],
      ['url', content.urlOf('/about'), 'failed']
    ])
    const reason = `not sent: the origin was not ready after 3 s: ${versionUrl()} did not show "${RELEASE}"`
    for (const result of results) {
      expect(result).toMatchObject({ error: reason, id: null, http_status: null, attempts: 0 })
    }
    expect(run.outputs).toMatchObject({
      'purged-count': '0',
      'failed-count': '3',
      'wait-seconds': '3',
      verification: '',
      'verification-file': '',
      'fresh-count': '0',
      'stale-count': '0'
    })
    expect(JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8'))).toHaveLength(3)
    expect(textOf(run.summary).split('\n')[0]).toBe(
      'Edge purge of svc123: 0 purged, 3 failed, nothing sent: the origin was not ready'
    )
    // The step's error names the URL that did not show the release.
    expect(annotations(run, 'error').join('\n')).toContain(versionUrl())
  })

  it('on timeout with fail-on-error: false warns and passes, still sending nothing', async () => {
    await startFakes()
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-timeout': '1',
      'fail-on-error': 'false'
    })
    expect(run.code).toBe(0)
    expect(api.requests).toEqual([])
    expect(annotations(run, 'error')).toEqual([])
    expect(annotations(run, 'warning').join('\n')).toContain(versionUrl())
    expect(resultsOf(run)).toMatchObject([{ target: 'blog', status: 'failed', attempts: 0 }])
    expect(run.outputs['failed-count']).toBe('1')
  })
})

describe('a certificate the runner does not trust', () => {
  let certDir: string | undefined
  afterEach(async () => {
    if (certDir !== undefined) await rm(certDir, { recursive: true, force: true })
  })

  it('ends the wait at its first check, not at wait-timeout: one handshake, nothing sent, the certificate and NODE_EXTRA_CA_CERTS named', async () => {
    certDir = await mkdtemp(join(tmpdir(), 'edge-purge-cert-'))
    await startFakes({ tls: await makeCertificate(certDir, ['127.0.0.1']) })
    // wait-timeout at its default, 600 s: only the block can end the wait this soon.
    const run = await runAction({ ...purgeApi(), keys: 'blog', 'wait-for-url': versionUrl() })
    expect(run.code).toBe(1)
    expect(run.elapsedMs).toBeLessThan(10_000)
    expect(content.connections).toBe(1)
    expect(allRequests()).toEqual([])
    const block =
      'the certificate of 127.0.0.1 is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): a company CA is given to Node with NODE_EXTRA_CA_CERTS (docs/self-hosted.md)'
    const reason = `not sent: the origin could not be checked because ${block}`
    expect(resultsOf(run)).toMatchObject([{ target: 'blog', status: 'failed', error: reason }])
    expect(annotations(run, 'error')[0]).toBe(`::error::key "blog" not purged: ${reason}`)
    expect(textOf(run.summary).split('\n')[0]).toBe(
      'Edge purge of svc123: 0 purged, 1 failed, nothing sent: the origin could not be checked'
    )
  })
})

describe('edge check', () => {
  it('judges purged URLs by Age: fresh and stale with their evidence, in every output; purge results unchanged', async () => {
    await startFakes()
    content.page('/fresh', { age: 0, headers: { 'X-Cache': 'MISS' } })
    content.page('/stale', { age: 3600, headers: { 'X-Cache': 'HIT' } })
    const run = await runAction({
      ...purgeApi(),
      urls: `${content.urlOf('/stale')} ${content.urlOf('/fresh')}`,
      verify: 'true',
      'verify-timeout': '1'
    })
    expect(run.code).toBe(1)
    expect(content.purges.map((request) => request.path)).toEqual(['/stale', '/fresh'])

    const stale = entryFor(run, '/stale')
    expect(stale).toEqual({
      url: content.urlOf('/stale'),
      fresh: false,
      http_status: 200,
      age: 3600,
      checks: content.gets('/stale').length,
      evidence: expect.stringMatching(/^Age 3600 s, but the purge began \d s ago \(X-Cache: HIT\)$/)
    })
    expect(entryFor(run, '/fresh')).toEqual({
      url: content.urlOf('/fresh'),
      fresh: true,
      http_status: 200,
      age: 0,
      checks: 1,
      evidence: expect.stringMatching(/^Age 0 s, purge began \d s ago \(X-Cache: MISS\)$/)
    })
    expect(content.gets('/fresh')).toHaveLength(1)
    expect(run.outputs).toMatchObject({
      'fresh-count': '1',
      'stale-count': '1',
      'wait-seconds': ''
    })
    const file = await readFile(run.outputs['verification-file'] ?? '', 'utf8')
    expect(JSON.parse(file)).toEqual(verificationOf(run))
    expect(run.outputs['verification-file']).toContain(run.dir)

    // The API did purge: the purge results say so, the edge check says the edge disagrees.
    expect(resultsOf(run).map(({ status, error }) => [status, error])).toEqual([
      ['purged', null],
      ['purged', null]
    ])
    expect(run.outputs).toMatchObject({ 'purged-count': '2', 'failed-count': '0' })

    // One error names the stale URL; the fresh one is named in none.
    const errors = annotations(run, 'error')
    expect(errors.filter((line) => line.includes(content.urlOf('/stale')))).toHaveLength(1)
    expect(errors.join('\n')).not.toContain(content.urlOf('/fresh'))

    // The summary's edge check lists the stale URL before the fresh one.
    const table = run.summary.slice(run.summary.indexOf('<h3>Edge check</h3>'))
    expect(table.indexOf('/stale')).toBeGreaterThan(-1)
    expect(table.indexOf('/stale')).toBeLessThan(table.indexOf('/fresh'))
  })

  it('verify: true with nothing to check is a notice: counts 0 and verification empty', async () => {
    await startFakes()
    const run = await runAction({ ...purgeApi(), keys: 'blog', verify: 'true' })
    expect(run.code).toBe(0)
    expect(content.requests).toEqual([])
    expect(annotations(run, 'notice')).toHaveLength(1)
    expect(annotations(run, 'error')).toEqual([])
    expect(run.outputs).toMatchObject({
      verification: '',
      'verification-file': '',
      'fresh-count': '0',
      'stale-count': '0',
      'purged-count': '1'
    })
    expect(run.summary).not.toContain('Edge check')
  })

  it('starts no check after verify-timeout: URLs not reached are unchecked, the one that timed out unreachable, all counted stale, and the step ends soon after', async () => {
    await startFakes()
    const paths = Array.from({ length: 10 }, (_, index) => `/hangs/${index}`)
    // An edge that never answers: each check ends at its 1 s timeout.
    for (const path of paths) content.fault({ path, action: { kind: 'delay', ms: 60_000 } })
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'verify-urls': paths.map((path) => content.urlOf(path)).join('\n'),
      'verify-timeout': '0.5',
      timeout: '1',
      concurrency: '1'
    })
    expect(run.code).toBe(1)
    // The first check ran to its timeout, past verify-timeout; no other check was started.
    expect(content.requests.filter((request) => request.method === 'GET')).toHaveLength(1)
    const unchecked = 'not checked within verify-timeout: raise verify-timeout or concurrency'
    expect(verificationOf(run)).toEqual([
      {
        url: content.urlOf('/hangs/0'),
        fresh: false,
        http_status: null,
        age: null,
        checks: 1,
        evidence: 'no complete answer within 1 s'
      },
      ...paths.slice(1).map((path) => ({
        url: content.urlOf(path),
        fresh: false,
        http_status: null,
        age: null,
        checks: 0,
        evidence: unchecked
      }))
    ])
    expect(run.outputs).toMatchObject({
      'fresh-count': '0',
      'stale-count': '10',
      'unreachable-count': '1'
    })
    expect(annotations(run, 'error')).not.toEqual([])
    // Within verify-timeout plus one timeout, and the action's start: not one timeout per URL.
    expect(run.elapsedMs).toBeLessThan(8000)
  })
})

describe('rules of both stages', () => {
  it('probes carry no token, even with url-purge-auth: true, and ask as a visitor does', async () => {
    await startFakes()
    content.release(RELEASE)
    content.page('/page', { age: 0 })
    content.page('/listed', { body: RELEASE })
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/page'),
      'url-purge-auth': 'true',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-timeout': '3',
      verify: 'true',
      'verify-urls': content.urlOf('/listed'),
      'verify-text': RELEASE
    })
    expect(run.code).toBe(0)
    // The purge itself carried the token, as url-purge-auth asks.
    expect(content.purges.map((request) => request.headers['edge-key'])).toEqual([TOKEN])
    const probes = content.requests.filter((request) => request.method === 'GET')
    expect(probes.map((request) => request.path).sort()).toEqual(
      [VERSION_PATH, '/listed', '/page'].sort()
    )
    for (const { headers } of probes) {
      expect(headers['edge-key']).toBeUndefined()
      expect(headers.authorization).toBeUndefined()
      const values = Object.values(headers).flat().join('\n')
      expect(values).not.toContain(TOKEN)
      expect(values).not.toContain(GITHUB_TOKEN)
      expect(headers['user-agent']).toBe('edge-purge/1')
      expect(headers['accept-encoding']).toBe('gzip, deflate, br')
    }
  })

  // Each refusal's rule is in parse-settings.test.ts and the capabilities' inputs tests; this is how the runner sees one.
  it('a bad verify-timeout fails the step before any request, naming the input', async () => {
    await startFakes()
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/page'),
      'wait-for-url': versionUrl(),
      verify: 'true',
      'verify-timeout': '3601'
    })
    expect(run.code).toBe(1)
    expect(allRequests()).toEqual([])
    const [error] = annotations(run, 'error')
    expect(error).toMatch(/^::error::verify-timeout\b/)
  })

  it('dry run: no wait and no edge check, and the summary says what would be awaited and checked', async () => {
    await startFakes()
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/page'),
      'dry-run': 'true',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-passes': '2',
      'wait-timeout': '5',
      verify: 'true',
      'verify-urls': content.urlOf('/listed'),
      'verify-text': RELEASE,
      'verify-timeout': '3'
    })
    expect(run.code).toBe(0)
    expect(allRequests()).toEqual([])
    // Each URL it would fetch is listed: the one it would await and the ones it would check.
    const summary = textOf(run.summary)
    for (const url of [versionUrl(), content.urlOf('/page'), content.urlOf('/listed')])
      expect(summary).toContain(url)
    expect(run.outputs).toMatchObject({ 'wait-seconds': '', verification: '', 'stale-count': '0' })
  })
})

describe('cancellation', () => {
  it('SIGINT during the wait: no purge call, every target not sent, outputs and summary written', async () => {
    await startFakes()
    const run = await runAction(
      {
        ...purgeApi(),
        keys: 'blog',
        urls: content.urlOf('/page'),
        'wait-for-url': versionUrl(),
        'wait-for-text': RELEASE,
        'wait-timeout': '30'
      },
      {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (content.gets(VERSION_PATH).length === 0) return
            clearInterval(poll)
            child.kill('SIGINT')
          }, 5)
          child.on('exit', () => clearInterval(poll))
        }
      }
    )
    expect(run.code).toBe(1)
    expect(api.requests).toEqual([])
    expect(content.purges).toEqual([])
    expect(content.gets(VERSION_PATH)).toHaveLength(1)
    const results = resultsOf(run)
    expect(results.map(({ status, error }) => [status, error])).toEqual([
      ['failed', 'not sent: the run was cancelled'],
      ['failed', 'not sent: the run was cancelled']
    ])
    expect(run.outputs).toMatchObject({ 'failed-count': '2', verification: '', 'stale-count': '0' })
    expect(run.outputs['wait-seconds']).toMatch(/^\d+$/)
    expect(JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8'))).toHaveLength(2)
    const summary = textOf(run.summary)
    expect(summary.split('\n')[0]).toBe(
      'Edge purge of svc123: 0 purged, 2 failed, nothing sent: cancelled during the wait'
    )
    // The summary names the URL it waited for (capabilities/wait/summary.test owns its words).
    expect(summary).toContain(versionUrl())
    expect(annotations(run, 'error')).not.toEqual([])
  })

  it('SIGINT during the edge check: URLs judged keep their verdict, the rest say they were not judged', async () => {
    await startFakes()
    content.page('/quick', { age: 0 })
    content.page('/slow', { age: 0 })
    content.fault({ path: '/slow', action: { kind: 'delay', ms: 20_000 } })
    const run = await runAction(
      {
        ...purgeApi(),
        urls: `${content.urlOf('/quick')} ${content.urlOf('/slow')}`,
        verify: 'true',
        // One check at a time: /slow is asked only once /quick has been judged.
        concurrency: '1'
      },
      {
        onStart: (child) => {
          const poll = setInterval(() => {
            if (content.gets('/slow').length === 0) return
            clearInterval(poll)
            child.kill('SIGINT')
          }, 5)
          child.on('exit', () => clearInterval(poll))
        }
      }
    )
    expect(run.code).toBe(1)
    expect(entryFor(run, '/quick')).toMatchObject({ fresh: true, checks: 1 })
    expect(entryFor(run, '/slow')).toEqual({
      url: content.urlOf('/slow'),
      fresh: false,
      http_status: null,
      age: null,
      checks: 0,
      evidence: 'not judged: the run was cancelled'
    })
    expect(run.outputs).toMatchObject({
      'fresh-count': '1',
      'stale-count': '1',
      'purged-count': '2'
    })
    const file = await readFile(run.outputs['verification-file'] ?? '', 'utf8')
    expect(JSON.parse(file)).toHaveLength(2)
    expect(annotations(run, 'error')).not.toEqual([])
  })
})
