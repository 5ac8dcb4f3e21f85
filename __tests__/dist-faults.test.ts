/** Fault injection through the fake server, against dist/index.js run as the runner runs it. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeCertificate } from '../tools/certificate.js'
import { FakePurgeServer, type RecordedRequest } from '../tools/fake-purge-api/server.js'
import { resultsOf, runAction } from '../tools/run-like-runner.js'
import { textOf } from './support/rendered-markdown.js'

let server: FakePurgeServer
beforeEach(async () => {
  server = await FakePurgeServer.start({
    tokens: { 'test-token': 'engineer', 'purge-only': 'purge' }
  })
})
afterEach(async () => {
  await server.close()
})

const TOKEN = 'test-token'
const api = (): Record<string, string> => ({
  'api-token': TOKEN,
  'base-url': server.url,
  'service-id': 'svc123'
})
const keyList = (count: number): string[] => Array.from({ length: count }, (_, i) => `key-${i}`)
const batchHolding =
  (key: string) =>
  (request: RecordedRequest): boolean =>
    request.body.includes(`"${key}"`)

describe('retries', () => {
  it('retries a reset connection', async () => {
    server.fault({ times: 1, action: { kind: 'reset' } })
    const run = await runAction({ ...api(), keys: 'k1' })
    expect(run.code).toBe(0)
    expect(resultsOf(run)[0]).toMatchObject({ status: 'purged', attempts: 2 })
  })

  it('retries a refused connection, then reports it', async () => {
    const closed = await FakePurgeServer.start()
    const address = closed.url
    await closed.close()
    const run = await runAction({ ...api(), 'base-url': address, keys: 'k1', 'max-attempts': '2' })
    expect(run.code).toBe(1)
    const [result] = resultsOf(run)
    expect(result).toMatchObject({ status: 'failed', attempts: 2, http_status: null, id: null })
    expect(result?.error).not.toBeNull()
  })

  it('abandons an attempt that outlasts timeout and retries it', async () => {
    server.fault({ times: 1, action: { kind: 'delay', ms: 4000 } })
    const run = await runAction({ ...api(), keys: 'k1', timeout: '1', 'max-attempts': '2' })
    expect(run.code).toBe(0)
    expect(resultsOf(run)[0]).toMatchObject({ status: 'purged', attempts: 2 })
  })

  it('fails the target, unanswered, when every attempt times out', async () => {
    server.fault({ action: { kind: 'delay', ms: 3000 } })
    const run = await runAction({ ...api(), keys: 'k1', timeout: '0.5', 'max-attempts': '1' })
    expect(run.code).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(resultsOf(run)[0]).toMatchObject({ status: 'failed', attempts: 1, http_status: null })
    expect(resultsOf(run)[0]?.error).not.toBeNull()
  })
})

describe('no target lost', () => {
  it('finishes the other batches when one of three gets a 400, and says why', async () => {
    const message = 'Batch surrogate key request only supports up to 256 surrogate keys'
    server.fault({
      match: batchHolding('key-300'),
      action: {
        kind: 'reply',
        status: 400,
        body: JSON.stringify({ msg: 'Bad request', detail: message })
      }
    })
    const run = await runAction({ ...api(), keys: keyList(600).join(' ') })
    expect(run.code).toBe(1)
    expect(server.requests).toHaveLength(3)
    const results = resultsOf(run)
    expect(results).toHaveLength(600)
    const failed = results.filter((result) => result.status === 'failed')
    expect(failed).toHaveLength(256)
    expect(failed.map((result) => result.target)).toContain('key-300')
    for (const result of failed) {
      expect(result).toMatchObject({
        http_status: 400,
        attempts: 1,
        error: `HTTP 400 (Bad Request) — server said: Bad request: ${message}`
      })
    }
    expect(run.outputs['purged-count']).toBe('344')
    expect(run.outputs['failed-count']).toBe('256')
    // One cause, so one row of failures in the summary and one annotation besides the step's own.
    expect(run.summary.match(/<td>❌ /g)).toHaveLength(1)
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::error'))
    expect(annotations).toHaveLength(2)
    // The server's own words reach the step log.
    expect(annotations[0]).toContain(message)
  })

  it('warns instead of failing with fail-on-error: false', async () => {
    server.fault({ action: { kind: 'reply', status: 400, body: '{"msg":"nope"}' } })
    const run = await runAction({ ...api(), keys: 'k1', 'fail-on-error': 'false' })
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines.filter((line) => line.startsWith('::error'))).toEqual([])
    expect(lines.some((line) => line.startsWith('::warning::'))).toBe(true)
    expect(resultsOf(run)).toMatchObject([{ target: 'k1', status: 'failed', http_status: 400 }])
    expect(run.outputs['failed-count']).toBe('1')
  })
})

describe('refusals that stop further calls', () => {
  it('still sends URL purges without the token after the token is rejected', async () => {
    const run = await runAction({
      ...api(),
      'api-token': 'wrong-token',
      keys: 'k1 k2',
      urls: `${server.url}/page`
    })
    expect(run.code).toBe(1)
    const results = resultsOf(run)
    expect(
      results
        .filter((result) => result.type === 'key')
        .every((result) => result.status === 'failed')
    ).toBe(true)
    expect(results.find((result) => result.type === 'url')).toMatchObject({
      status: 'purged',
      attempts: 1
    })
  })

  it('does not follow a redirect, and names its Location', async () => {
    const location = 'https://elsewhere.example/steal'
    server.fault({ action: { kind: 'reply', status: 302, headers: { Location: location } } })
    const run = await runAction({ ...api(), keys: 'k1' })
    expect(run.code).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(resultsOf(run)[0]).toMatchObject({ status: 'failed', http_status: 302, attempts: 1 })
    // Asserted nowhere else: how a redirect is told (src/core/refusals.ts).
    expect(resultsOf(run)[0]?.error).toContain(`redirected (302) to ${location}`)
  })
})

describe('when going on cannot help', () => {
  it('sends no call after a rate limit asking for an hour, and names that cause once', async () => {
    server.fault({
      action: {
        kind: 'reply',
        status: 429,
        headers: { 'retry-after': '3600' },
        body: '{"msg":"You have exceeded your hourly rate limit"}'
      }
    })
    const run = await runAction(
      { ...api(), 'keys-file': 'keys.txt' },
      { files: { 'keys.txt': keyList(10_000).join('\n') } }
    )
    expect(run.code).toBe(1)
    // 40 batches of 256, 8 at once: the first round only.
    expect(server.requests).toHaveLength(8)
    const results = JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8')) as {
      status: string
      http_status: number | null
      retry_at?: string
    }[]
    expect(results).toHaveLength(10_000)
    expect(results.every((result) => result.status === 'failed')).toBe(true)
    // The 8 calls sent, 256 keys each, carry the 429; the rest were never sent.
    expect(results.filter((result) => result.http_status === 429)).toHaveLength(8 * 256)
    // Each call's own answer names its time, an hour from then: not part of the reason.
    for (const result of results) {
      expect(Date.parse(result.retry_at ?? '') - Date.now()).toBeGreaterThan(3_500_000)
    }
    expect(run.outputs).toMatchObject({ 'purged-count': '0', 'failed-count': '10000' })
    expect(run.summary.match(/<td>❌ /g)).toHaveLength(1)
  })

  it('fails on a purge API certificate Node does not trust without retrying it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'edge-purge-cert-'))
    const untrusted = await FakePurgeServer.start({
      tls: await makeCertificate(dir, ['127.0.0.1'])
    })
    try {
      const run = await runAction({
        ...api(),
        'base-url': untrusted.url,
        keys: keyList(600).join(' ')
      })
      expect(run.code).toBe(1)
      const results = resultsOf(run)
      expect(results.every((result) => result.attempts <= 1)).toBe(true)
      expect(results.every((result) => result.status === 'failed')).toBe(true)
      expect(results[0]).toMatchObject({ attempts: 1, http_status: null })
      expect(untrusted.requests).toEqual([])
    } finally {
      await untrusted.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('stops calling an API that is down after one round of calls, each with its attempts', async () => {
    server.fault({ action: { kind: 'reply', status: 503, body: '{"msg":"Service Unavailable"}' } })
    const run = await runAction(
      { ...api(), 'keys-file': 'keys.txt', 'max-attempts': '2' },
      { files: { 'keys.txt': keyList(10_000).join('\n') } }
    )
    expect(run.code).toBe(1)
    // 8 calls in flight, 2 attempts each; a call that started while the 8th was failing stops
    // before its second attempt.
    expect(server.requests.length).toBeGreaterThanOrEqual(16)
    expect(server.requests.length).toBeLessThanOrEqual(16 + 7)
    expect(run.summary.match(/<td>❌ /g)).toHaveLength(1)
    // Every target failed: the calls sent got the 503, the rest were never sent.
    const results = JSON.parse(await readFile(run.outputs['results-file'] ?? '', 'utf8')) as {
      status: string
      http_status: number | null
      attempts: number
    }[]
    expect(results).toHaveLength(10_000)
    expect(results.every((result) => result.status === 'failed')).toBe(true)
    const sent = results.filter((result) => result.attempts > 0)
    expect(sent.every((result) => result.http_status === 503)).toBe(true)
    expect(sent.length).toBeGreaterThanOrEqual(8 * 256)
    expect(results.filter((result) => result.attempts === 0).length).toBeGreaterThan(0)
    expect(run.outputs['failed-count']).toBe('10000')
  })
})

describe('secrets and hostile text', () => {
  it('never shows the token, even with step debug on and a server that echoes it', async () => {
    server.fault({
      action: {
        kind: 'reply',
        status: 400,
        body: JSON.stringify({ msg: `bad key for token ${TOKEN}` })
      }
    })
    const run = await runAction(
      { ...api(), keys: 'k1 k2' },
      { env: { ACTIONS_STEP_DEBUG: 'true', RUNNER_DEBUG: '1' } }
    )
    expect(run.code).toBe(1)
    const lines = run.log.split('\n').filter((line) => line !== `::add-mask::${TOKEN}`)
    expect(lines.join('\n')).not.toContain(TOKEN)
    expect(JSON.stringify(run.outputs)).not.toContain(TOKEN)
    expect(run.summary).not.toContain(TOKEN)
    expect(await readFile(run.outputs['results-file'] ?? '', 'utf8')).not.toContain(TOKEN)
    // The server's words are kept, the token in them masked.
    expect(resultsOf(run)[0]?.error).toContain(`token ***`)
  })

  it('escapes markup from servers and inputs in the summary', async () => {
    const hostile = '<img src=x onerror=alert(1)>'
    const key = '<b>bold</b>'
    server.fault({ action: { kind: 'reply', status: 400, body: JSON.stringify({ msg: hostile }) } })
    const run = await runAction({ ...api(), keys: key })
    expect(run.code).toBe(1)
    expect(run.summary).not.toContain('<img')
    expect(run.summary).not.toContain('<b>bold')
    // A reader sees both as the text they are, not as markup.
    expect(textOf(run.summary)).toContain(hostile)
    expect(textOf(run.summary)).toContain(key)
  })
})
