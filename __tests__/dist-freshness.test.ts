/**
 * The wait and edge-check stages through dist/index.js run as the runner runs it, against a fake
 * purge API and a fake content host: the rules of the Varnish suite, proven without Varnish.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { FakeContentServer, VERSION_PATH } from './support/fake-content-server.js'
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

async function startFakes(): Promise<void> {
  api = await FakePurgeServer.start()
  content = await FakeContentServer.start()
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
  it('sends the purge only after the origin shows wait-for-text, then reports the wait', async () => {
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
    const checks = content.gets(VERSION_PATH)
    expect(checks).toHaveLength(2)
    expect(api.requests.map((request) => request.path)).toEqual(['/service/svc123/purge/blog'])
    expect(api.requests[0]?.receivedAt).toBeGreaterThanOrEqual(checks[1]?.at ?? Infinity)
    // Checks of one URL start 2 s apart.
    expect((checks[1]?.at ?? 0) - (checks[0]?.at ?? 0)).toBeGreaterThanOrEqual(1900)

    expect(run.outputs['wait-seconds']).toBe('2')
    expect(resultsOf(run)).toMatchObject([{ target: 'blog', status: 'purged' }])
    expect(textOf(run.summary)).toContain(`The origin showed ${RELEASE} after 2 s:`)
    expect(textOf(run.summary)).toContain(`2 checks of ${versionUrl()}`)
    expect(run.stdout).toContain('::group::Waiting for the origin: 1 URL to show')
    expect(run.stdout).toContain(`✗ ${versionUrl()}: HTTP 200, did not show "${RELEASE}" (check 1)`)
    expect(run.stdout).toContain(`✓ ${versionUrl()}: HTTP 200, showed "${RELEASE}" (check 2)`)
  })

  it('checks each wait-for-url until it shows the text, then not again; the purge waits for the last', async () => {
    await startFakes()
    const other = await FakeContentServer.start()
    try {
      content.release(RELEASE)
      other.release('release-1', RELEASE)
      const run = await runAction({
        ...purgeApi(),
        keys: 'blog',
        'wait-for-url': `${versionUrl()}\n${other.urlOf(VERSION_PATH)}`,
        'wait-for-text': RELEASE,
        'wait-timeout': '5'
      })
      expect(run.code).toBe(0)
      expect(content.gets(VERSION_PATH)).toHaveLength(1)
      const checks = other.gets(VERSION_PATH)
      expect(checks).toHaveLength(2)
      expect(api.requests).toHaveLength(1)
      expect(api.requests[0]?.receivedAt).toBeGreaterThanOrEqual(checks[1]?.at ?? Infinity)
      expect(textOf(run.summary).replace(/\s+/g, ' ')).toContain(
        `1 check of ${versionUrl()} 2 checks of ${other.urlOf(VERSION_PATH)}`
      )
    } finally {
      await other.close()
    }
  })

  it('wait-passes 2 waits for two passing checks in a row', async () => {
    await startFakes()
    content.release('release-1', RELEASE, RELEASE)
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-passes': '2',
      'wait-timeout': '5'
    })
    expect(run.code).toBe(0)
    const checks = content.gets(VERSION_PATH)
    expect(checks).toHaveLength(3)
    expect(api.requests).toHaveLength(1)
    expect(api.requests[0]?.receivedAt).toBeGreaterThanOrEqual(checks[2]?.at ?? Infinity)
    expect(run.stdout).toContain('(check 2; 1 of 2 in a row)')
    expect(run.stdout).toContain('(check 3; 2 of 2 in a row)')
  })

  it('with wait-passes 2, a check that flips back to the old release starts the count again', async () => {
    await startFakes()
    content.release(RELEASE, 'release-1', RELEASE)
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'wait-for-url': versionUrl(),
      'wait-for-text': RELEASE,
      'wait-passes': '2',
      'wait-timeout': '5'
    })
    expect(run.code).toBe(1)
    // Two of three checks showed the release, never two in a row: nothing may be purged.
    expect(content.gets(VERSION_PATH)).toHaveLength(3)
    expect(api.requests).toEqual([])
    expect(resultsOf(run)[0]?.error).toBe(
      `not sent: the origin was not ready within 5 s: ${versionUrl()} did not show "${RELEASE}" 2 times in a row`
    )
    expect(textOf(run.summary)).toContain(
      `(last answer: HTTP 200, showed "${RELEASE}", after 3 checks)`
    )
    expect(run.stdout).toContain('(check 2; 0 of 2 in a row)')
  })

  it('on timeout sends no purge call at all: every target failed naming the URL and what was awaited, the summary its last answer', async () => {
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
    const reason = `not sent: the origin was not ready within 3 s: ${versionUrl()} did not show "${RELEASE}"`
    for (const result of results) {
      expect(result).toMatchObject({ error: reason, id: null, http_status: null, attempts: 0 })
    }
    expect(run.outputs).toMatchObject({
      'purged-count': '0',
      'failed-count': '3',
      'wait-seconds': '2',
      verification: '',
      'verification-file': '',
      'fresh-count': '0',
      'stale-count': '0'
    })
    expect(JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8'))).toHaveLength(3)
    const summary = textOf(run.summary)
    expect(summary.split('\n')[0]).toBe(
      'Edge purge of svc123: 0 purged, 3 failed, nothing sent: the origin was not ready'
    )
    expect(summary).toContain(`No purge call was sent: ${reason.slice('not sent: '.length)}.`)
    expect(summary).toContain(`(last answer: HTTP 200, did not show "${RELEASE}", after 2 checks)`)
    expect(annotations(run, 'error').join('\n')).toContain(`3 targets failed: ${reason}`)
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
    const warnings = annotations(run, 'warning').join('\n')
    expect(warnings).toContain(`key "blog" failed: not sent: the origin was not ready within 1 s`)
    expect(warnings).toContain('fail-on-error is false, so the step passes')
    expect(run.outputs['failed-count']).toBe('1')
  })

  it('without wait-for-text a 2xx answer ends the wait; a redirect is not followed and does not count', async () => {
    await startFakes()
    content.page('/moved', { status: 301, headers: { Location: VERSION_PATH } })
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'wait-for-url': `${content.urlOf('/moved')} ${versionUrl()}`,
      'wait-timeout': '1'
    })
    expect(run.code).toBe(1)
    expect(api.requests).toEqual([])
    expect(content.gets('/moved')).toHaveLength(1)
    // The version endpoint was checked once as a wait-for-url of its own, never as a redirect target.
    expect(content.gets(VERSION_PATH)).toHaveLength(1)
    expect(resultsOf(run)[0]?.error).toBe(
      'not sent: the origin was not ready within 1 s: 1 of 2 wait-for-urls did not answer 2xx'
    )
    expect(textOf(run.summary)).toContain(
      `${content.urlOf('/moved')} did not answer 2xx (last answer: HTTP 301, after 1 check)`
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
    // Checked only after both purges were sent.
    const firstCheck = Math.min(...content.gets('/stale').map((request) => request.at))
    expect(firstCheck).toBeGreaterThanOrEqual(Math.max(...content.purges.map((r) => r.at)))

    const stale = entryFor(run, '/stale')
    expect(stale).toEqual({
      url: content.urlOf('/stale'),
      fresh: false,
      http_status: 200,
      age: 3600,
      checks: content.gets('/stale').length,
      evidence: expect.stringMatching(/^Age 3600 s, but the purge began \d s ago \(X-Cache: HIT\)$/)
    })
    // Re-checked while time was left: a CDN needs a moment to reach every location.
    expect(stale?.checks).toBeGreaterThanOrEqual(2)
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

    const errors = annotations(run, 'error')
    expect(errors[0]).toContain(
      `::error::"${content.urlOf('/stale')}" is still stale at the edge after the purge: ${stale?.evidence}`
    )
    expect(errors.at(-1)).toContain(
      '1 of 2 URLs checked at the edge is still stale after the purge'
    )
    expect(run.stdout).toContain('::group::Edge check: 2 URLs')

    expect(run.summary).toContain('<h3>Edge check</h3>')
    expect(run.summary).toContain('1 of 2 URLs fresh, <b>1 stale</b>')
    const table = run.summary.slice(run.summary.indexOf('<h3>Edge check</h3>'))
    expect(table.indexOf('/stale')).toBeLessThan(table.indexOf('/fresh'))
    expect(table).toContain('❌ stale</td><td>Age 3600 s</td>')
    expect(run.summary).toContain('2 purged, 0 failed')
  })

  it('judges verify-urls by verify-text: in the body, only in a header value, or in a gzip-compressed body', async () => {
    await startFakes()
    const page = `<html><body><footer>build ${RELEASE}</footer></body></html>`
    // The compressed bytes do not hold the text: only a decoded body can show it.
    expect(gzipSync(page).includes(RELEASE)).toBe(false)
    // The text decides, whatever the Age: these pages are not judged by it.
    content.page('/body', { age: 3600, body: page })
    content.page('/header', {
      age: 3600,
      body: '<html>build release-1</html>',
      headers: { 'X-Release': RELEASE }
    })
    content.page('/gzip', { age: 3600, body: page, gzip: true })
    content.page('/old', {
      age: 0,
      body: '<html>build release-1</html>',
      headers: { 'X-Cache': 'HIT' }
    })
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'verify-urls': ['/body', '/header', '/gzip', '/old']
        .map((path) => content.urlOf(path))
        .join('\n'),
      'verify-text': RELEASE,
      'verify-timeout': '1'
    })
    expect(run.code).toBe(1)
    const shown = `showed "${RELEASE}"`
    expect(entryFor(run, '/body')).toMatchObject({
      fresh: true,
      age: 3600,
      checks: 1,
      evidence: shown
    })
    expect(entryFor(run, '/header')).toMatchObject({ fresh: true, checks: 1, evidence: shown })
    expect(entryFor(run, '/gzip')).toMatchObject({ fresh: true, checks: 1, evidence: shown })
    expect(entryFor(run, '/old')).toMatchObject({
      fresh: false,
      age: 0,
      evidence: `did not show "${RELEASE}" (X-Cache: HIT)`
    })
    expect(run.outputs).toMatchObject({ 'fresh-count': '3', 'stale-count': '1' })
    expect(resultsOf(run)).toMatchObject([{ target: 'blog', status: 'purged' }])
    expect(run.summary).toContain('❌ stale</td><td>text</td>')
  })

  it('re-checks a 5xx or a slow answer until fresh; one that stays 5xx ends stale with its reason', async () => {
    await startFakes()
    content.page('/flaky', { age: 0 })
    content.fault({ path: '/flaky', action: { kind: 'status', status: 503 } })
    content.page('/slow', { age: 0 })
    content.fault({ path: '/slow', action: { kind: 'delay', ms: 1500 } })
    content.page('/down', { age: 0 })
    content.fault({ path: '/down', times: 100, action: { kind: 'status', status: 502 } })
    const run = await runAction({
      ...purgeApi(),
      urls: ['/flaky', '/slow', '/down'].map((path) => content.urlOf(path)).join(' '),
      verify: 'true',
      'verify-timeout': '2',
      timeout: '1'
    })
    expect(run.code).toBe(1)
    expect(entryFor(run, '/flaky')).toMatchObject({ fresh: true, http_status: 200, checks: 2 })
    expect(entryFor(run, '/slow')).toMatchObject({ fresh: true, http_status: 200, checks: 2 })
    expect(run.stdout).toContain(
      `✗ stale ${content.urlOf('/flaky')}: HTTP 503 (check 1; checking again in 0.5 s)`
    )
    expect(run.stdout).toContain(
      `✗ stale ${content.urlOf('/slow')}: no complete answer within 1 s (check 1; checking again in 0.5 s)`
    )
    const down = entryFor(run, '/down')
    expect(down).toMatchObject({ fresh: false, http_status: 502, age: null, evidence: 'HTTP 502' })
    expect(down?.checks).toBeGreaterThanOrEqual(2)
    expect(run.outputs).toMatchObject({ 'fresh-count': '2', 'stale-count': '1' })
    expect(annotations(run, 'error')[0]).toContain(
      `"${content.urlOf('/down')}" is still stale at the edge after the purge: HTTP 502`
    )
  })

  it('fails the step on a malformed Age, naming it with no age, and judges repeated Age lines by the largest', async () => {
    await startFakes()
    content.page('/fraction', { headers: { Age: '7200.5', 'X-Cache': 'HIT' } })
    content.page('/two-tiers', { headers: { Age: ['0', '7200'] } })
    const run = await runAction({
      ...purgeApi(),
      urls: `${content.urlOf('/fraction')} ${content.urlOf('/two-tiers')}`,
      verify: 'true',
      'verify-timeout': '0.5'
    })
    expect(run.code).toBe(1)
    const evidence = 'malformed Age header "7200.5": not a whole number of seconds (X-Cache: HIT)'
    expect(entryFor(run, '/fraction')).toMatchObject({
      fresh: false,
      http_status: 200,
      age: null,
      evidence
    })
    expect(entryFor(run, '/two-tiers')).toMatchObject({
      fresh: false,
      age: 7200,
      evidence: expect.stringMatching(/^Age 7200 s, but the purge began \d s ago$/)
    })
    expect(run.outputs).toMatchObject({ 'fresh-count': '0', 'stale-count': '2' })
    expect(annotations(run, 'error').join('\n')).toContain(
      `"${content.urlOf('/fraction')}" is still stale at the edge after the purge: ${evidence}`
    )
  })

  it('passes a response without Age, saying so, and the summary says the check could not tell', async () => {
    await startFakes()
    content.page('/plain', { body: 'hello' })
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/plain'),
      verify: 'true',
      'verify-timeout': '1'
    })
    expect(run.code).toBe(0)
    expect(verificationOf(run)).toEqual([
      {
        url: content.urlOf('/plain'),
        fresh: true,
        http_status: 200,
        age: null,
        checks: 1,
        evidence: 'no Age header'
      }
    ])
    expect(run.summary).toContain('<td>no Age</td>')
    expect(run.summary).toContain(
      'so the check could not tell whether these copies came after the purge'
    )
  })

  it('verify: true with nothing to check is a notice: counts 0 and verification empty', async () => {
    await startFakes()
    const run = await runAction({ ...purgeApi(), keys: 'blog', verify: 'true' })
    expect(run.code).toBe(0)
    expect(content.requests).toEqual([])
    expect(annotations(run, 'notice').join('\n')).toContain(
      'verify: true, but there is nothing to check at the edge'
    )
    expect(run.outputs).toMatchObject({
      verification: '',
      'verification-file': '',
      'fresh-count': '0',
      'stale-count': '0',
      'purged-count': '1'
    })
    expect(run.summary).not.toContain('Edge check')
  })

  it('checks the URL targets whose purge succeeded, then verify-urls, each URL once', async () => {
    await startFakes()
    for (const path of ['/a', '/b', '/c', '/d']) content.page(path, { age: 0 })
    content.fault({ path: '/b', method: 'PURGE', action: { kind: 'status', status: 500 } })
    const run = await runAction({
      ...purgeApi(),
      urls: ['/a', '/b', '/c'].map((path) => content.urlOf(path)).join(' '),
      'max-attempts': '1',
      verify: 'true',
      'verify-urls': ['/d', '/a'].map((path) => content.urlOf(path)).join(' ')
    })
    expect(run.code).toBe(1)
    expect(resultsOf(run).map(({ status }) => status)).toEqual(['purged', 'failed', 'purged'])
    expect(verificationOf(run).map(({ url }) => url)).toEqual(
      ['/a', '/c', '/d'].map((path) => content.urlOf(path))
    )
    expect(content.gets('/a')).toHaveLength(1)
    expect(content.gets('/b')).toEqual([])
    expect(run.outputs).toMatchObject({
      'fresh-count': '3',
      'stale-count': '0',
      'failed-count': '1'
    })
  })

  it('checks no more URLs at once than concurrency allows', async () => {
    await startFakes()
    const paths = Array.from({ length: 6 }, (_, index) => `/page/${index}`)
    for (const path of paths) {
      content.page(path, { age: 0 })
      content.fault({ path, action: { kind: 'delay', ms: 200 } })
    }
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      concurrency: '2',
      'verify-urls': paths.map((path) => content.urlOf(path)).join('\n')
    })
    expect(run.code).toBe(0)
    expect(run.outputs['fresh-count']).toBe('6')
    expect(content.maxInFlight).toBe(2)
  })

  it('groups stale URLs with the same evidence into one error annotation', async () => {
    await startFakes()
    const paths = Array.from({ length: 12 }, (_, index) => `/missing/${index}`)
    const run = await runAction({
      ...purgeApi(),
      keys: 'blog',
      'verify-urls': paths.map((path) => content.urlOf(path)).join('\n'),
      'verify-text': RELEASE,
      'verify-timeout': '0.5'
    })
    expect(run.code).toBe(1)
    expect(run.outputs['stale-count']).toBe('12')
    expect(annotations(run, 'error')).toEqual([
      `::error::12 URLs are still stale at the edge after the purge: HTTP 404, did not show "${RELEASE}"`,
      '::error::12 of 12 URLs checked at the edge are still stale after the purge; the job summary and the verification output give the evidence'
    ])
  })

  it('starts no check after verify-timeout: URLs not reached are unchecked, counted stale, and the step ends soon after', async () => {
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
    expect(run.outputs).toMatchObject({ 'fresh-count': '0', 'stale-count': '10' })
    expect(run.stdout).toContain(
      '9 URLs not checked within verify-timeout (0.5 s): raise verify-timeout or concurrency'
    )
    expect(run.stdout).toContain('0 fresh, 1 stale, 9 not checked')
    expect(annotations(run, 'error').join('\n')).toContain(
      `9 URLs are not known to be fresh: ${unchecked}`
    )
    expect(run.summary).toContain('0 of 10 URLs fresh, <b>1 stale</b>, <b>9 not checked</b>')
    // Within verify-timeout plus one timeout, and the action's start: not one timeout per URL.
    expect(run.elapsedMs).toBeLessThan(8000)
  })

  it('judges the answer to the URL itself: a 301 is not followed', async () => {
    await startFakes()
    content.page('/moved', { status: 301, age: 0, headers: { Location: '/new' } })
    content.page('/moved-page', { status: 301, headers: { Location: '/new' } })
    content.page('/new', { age: 0, body: RELEASE })
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/moved'),
      verify: 'true',
      'verify-urls': content.urlOf('/moved-page'),
      'verify-text': RELEASE,
      'verify-timeout': '1'
    })
    expect(run.code).toBe(1)
    expect(content.gets('/new')).toEqual([])
    expect(entryFor(run, '/moved')).toMatchObject({
      fresh: true,
      http_status: 301,
      evidence: expect.stringMatching(/^HTTP 301, Age 0 s, purge began \d s ago$/)
    })
    expect(entryFor(run, '/moved-page')).toMatchObject({
      fresh: false,
      http_status: 301,
      evidence: `HTTP 301, did not show "${RELEASE}"`
    })
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

  it.each([
    ['wait-timeout', { 'wait-timeout': 'soon' }],
    ['verify', { verify: 'maybe' }],
    ['verify-urls', { 'verify-urls': `${'/relative/page'}` }],
    ['verify-timeout', { 'verify-timeout': '3601' }],
    ['verify-text', { 'verify-text': RELEASE }]
  ])('a bad %s fails the step before any request, naming the input', async (name, bad) => {
    await startFakes()
    const run = await runAction({
      ...purgeApi(),
      urls: content.urlOf('/page'),
      'wait-for-url': versionUrl(),
      verify: 'true',
      ...bad
    })
    expect(run.code).toBe(1)
    expect(allRequests()).toEqual([])
    const [error] = annotations(run, 'error')
    expect(error).toMatch(new RegExp(`^::error::${name}\\b`))
  })

  it('dry run: no wait and no edge check, and the log and summary say what would be awaited and checked', async () => {
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
    // Each URL it would fetch is listed under what it would do.
    const summary = textOf(run.summary).replace(/\s+/g, ' ')
    expect(summary).toContain(
      `Would first wait until each of 1 URL shows "${RELEASE}" (2 checks in a row, up to 5 s): ${versionUrl()}`
    )
    expect(summary).toContain(
      `Would then check 2 URLs at the edge, each purged URL by Age, and each of verify-urls by the text "${RELEASE}", re-checking stale ones for up to 3 s: ${content.urlOf('/page')} ${content.urlOf('/listed')}`
    )
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
    expect(summary).toContain('Cancelled while waiting for the origin: no purge call was sent')
    expect(summary).toMatch(/Waited \d+ s for the origin before the cancel:\s+1 check of \S+/)
    expect(summary.split('\n')[0]).toBe(
      'Edge purge of svc123: 0 purged, 2 failed, nothing sent: cancelled during the wait'
    )
    expect(annotations(run, 'error').join('\n')).toContain('Cancelled while waiting for the origin')
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
    expect(run.summary).toContain('Cancelled during the edge check')
    expect(run.summary).toContain('<h3>Edge check</h3>')
  })
})
